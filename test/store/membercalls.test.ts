// Members' calls in the store: the first writer of a token in a board gets the credit, across
// instances sharing SQLite or Redis; the board index loses no call to concurrent writers; forget
// takes a member's calls and name away; the daily cap holds; a crash after the credit is repaired.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/index.ts';
import { memberCall } from '../../src/store/membercalls.ts';
import type { Call } from '../../src/store/calls.ts';
import { tokenKeyOf } from '../../src/domain/chains.ts';
import { redisAvailable, REDIS_SKIP, startRedis } from '../helpers/redis.ts';

const BOARD = 'telegram:-100';
const token = (n: number): Call['token'] => ({
  chain: 'solana',
  address: `So1anaTokenAddress${String(n).padStart(4, '0')}pump`,
  symbol: `T${n}`,
  name: `Token ${n}`,
});
const post = (member: string, n: number, at: number, nonce = `${member}-${n}-${at}`, board = BOARD) =>
  memberCall({
    board,
    platform: 'telegram',
    chatId: board.split(':')[1]!,
    messageId: nonce,
    member: { id: member, name: `name-${member}` },
    token: token(n),
    marketCap: 100_000 + n,
    liquidity: 5_000,
    at,
    points: [5, 15, 60],
    nonce,
  });

async function sqliteStores(t: import('node:test').TestContext, n: number): Promise<Store[]> {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-mcalls-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const stores: Store[] = [];
  for (let i = 0; i < n; i++) stores.push(await openStore(url, { memberCalls: { perDay: 3 } }));
  t.after(() => Promise.all(stores.map((s) => s.close())));
  return stores;
}

async function redisStores(t: import('node:test').TestContext, n: number): Promise<Store[]> {
  const redis = await startRedis(t);
  const stores: Store[] = [];
  for (let i = 0; i < n; i++) stores.push(await openStore(redis.url, { memberCalls: { perDay: 3 } }));
  t.after(() => Promise.all(stores.map((s) => s.close())));
  return stores;
}

function suite(name: string, open: (t: import('node:test').TestContext, n: number) => Promise<Store[]>, skip?: string) {
  describe(name, { skip }, () => {
    test('three instances, three members, the same token at the same moment: one credit, named in every answer', async (t) => {
      const stores = await open(t, 3);
      const at = Date.now();
      for (let round = 0; round < 5; round++) {
        const outcomes = await Promise.all(stores.map((s, i) => s.members.call(post(`m${i}`, round, at))));
        const won = outcomes.filter((o) => o.kind === 'recorded');
        assert.equal(won.length, 1, `round ${round}: one credit`);
        const first = won[0]!.kind === 'recorded' ? won[0]!.call : undefined;
        for (const o of outcomes)
          if (o.kind === 'repeat') assert.equal(o.first.member?.name, first?.member?.name, 'the others name the first');
      }
      const board = await stores[1]!.members.list(BOARD, 0);
      assert.equal(board.length, 5, 'every credited call is on the board, none twice');
      assert.equal(new Set(board.map((c) => c.token.address)).size, 5);
    });

    test('many members calling different tokens at once: the board index loses none', async (t) => {
      const stores = await open(t, 3);
      const at = Date.now();
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => stores[i % 3]!.members.call(post(`p${i % 10}`, 100 + i, at + i))),
      );
      const board = await stores[0]!.members.list(BOARD, 0);
      assert.equal(board.length, 30);
      assert.equal((await stores[2]!.members.intake()).length, 30, 'each waits for the follow-up queue once');
    });

    test('a member reaches the daily cap; another chat is another board; forget removes the member only', async (t) => {
      const [s] = await open(t, 1);
      const at = Date.now();
      for (let i = 0; i < 3; i++) assert.equal((await s!.members.call(post('alice', i, at + i))).kind, 'recorded');
      assert.equal((await s!.members.call(post('alice', 9, at + 10))).kind, 'limit', 'the fourth call of the day');
      assert.equal((await s!.members.call(post('bob', 9, at + 11))).kind, 'recorded');
      assert.equal((await s!.members.call(post('alice', 9, at + 12, 'x', 'telegram:-200'))).kind, 'recorded');
      assert.equal(await s!.members.forget(BOARD, 'alice'), 3);
      const left = await s!.members.list(BOARD, 0);
      assert.deepEqual(
        left.map((c) => c.member?.id),
        ['bob'],
      );
      // Her credit went with her name: the token she called first is open to a new first call.
      const again = await s!.members.call(post('carol', 0, at + 20));
      assert.equal(again.kind, 'recorded');
      assert.equal((await s!.members.list('telegram:-200', 0)).length, 1, 'the other chat keeps her call');
      const names = JSON.stringify(await s!.members.list(BOARD, 0));
      assert.ok(!names.includes('name-alice'), 'her name is nowhere on the board');
    });

    test('a crash between the credit and the call: the next post of the token restores the first call', async (t) => {
      const [s] = await open(t, 1);
      const first = post('alice', 1, Date.now());
      // What a crash right after the take leaves: the credit alone.
      const value = JSON.stringify({ value: first, expires: Date.now() + 86_400_000 });
      assert.ok(await s!.raw.take(`calls::f:${BOARD}:${tokenKeyOf('solana', first.token.address)}`, value, 86_400_000));
      const later = await s!.members.call(post('bob', 1, Date.now() + 1000));
      assert.equal(later.kind, 'repeat');
      assert.equal(later.kind === 'repeat' && later.first.member?.id, 'alice');
      assert.deepEqual(
        (await s!.members.list(BOARD, 0)).map((c) => c.member?.id),
        ['alice'],
      );
    });
  });
}

suite('members’ calls on SQLite (two processes’ worth of connections to one file)', sqliteStores);
suite('members’ calls on Redis', redisStores, redisAvailable() ? undefined : REDIS_SKIP);
