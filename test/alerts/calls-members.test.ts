/**
 * Members' calls on the follow-up engine of KOL calls: one request per distinct
 * token per round across both, alerts' tokens first within the budget, a
 * member's call sampled without any edit queued, and many calls over few
 * tokens costing one request a token.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KolClient } from '../../src/api/index.ts';
import { createFollowups } from '../../src/alerts/calls/followups.ts';
import { callOf } from '../../src/alerts/calls/record.ts';
import { silentLogger } from '../../src/log.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { memberCall } from '../../src/store/membercalls.ts';
import type { Call } from '../../src/store/calls.ts';
import { alertContent } from './delivery/kit.ts';

const MINUTE = 60_000;
const token = (i: number): Call['token'] => ({
  chain: 'base',
  address: `0x${i.toString(16).padStart(40, '0')}`,
  symbol: `TK${i}`,
  name: `Token ${i}`,
});

function rig(store: Store, perMinute: number, now: () => number) {
  const asked: string[] = [];
  const api = {
    async getTokenAnalytics(p: { tokenAddress: string }) {
      asked.push(p.tokenAddress);
      return { items: [{ token: { address: p.tokenAddress }, marketcap: 3_000_000, liquidity: 1 }] };
    },
  } as unknown as KolClient;
  const followups = createFollowups({
    calls: store.calls,
    members: store.members,
    outbox: store.outbox,
    api,
    lease: { fenced: (write) => write() },
    log: silentLogger(),
    perMinute,
    now,
  });
  return { asked, round: () => followups.round() };
}

const post = (board: string, member: string, i: number, at: number, points = [5]) =>
  memberCall({
    board,
    platform: 'telegram',
    chatId: board.split(':')[1]!,
    messageId: `${member}-${i}`,
    member: { id: member, name: `@${member}` },
    token: token(i),
    marketCap: 1_000_000,
    liquidity: null,
    at,
    points,
    nonce: `${member}-${i}`,
  });

test('an alert’s call and members’ calls of the same token: one request in the round; the member’s call is sampled, no edit queued', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  let clock = Date.now();
  const { asked, round } = rig(store, 60, () => clock);
  const e = {
    id: 'tw1:console:c',
    subId: 'console:c',
    platform: 'console' as const,
    chatId: 'c',
    isGroup: false,
    content: alertContent(1),
    createdAt: clock,
    state: 'sent' as const,
    attempts: 1,
    notBefore: 0,
  };
  await store.calls.record(callOf(e, e.content, '1', [5], clock));
  for (const [board, member] of [
    ['telegram:-1', 'a'],
    ['telegram:-2', 'b'],
  ] as const)
    assert.equal((await store.members.call(post(board, member, 1, clock))).kind, 'recorded');
  assert.equal((await store.members.call(post('telegram:-1', 'c', 2, clock))).kind, 'recorded');
  clock += 6 * MINUTE;
  const r = await round();
  assert.deepEqual(asked.sort(), [token(1).address, token(2).address], 'each token once');
  assert.equal(r.requests, 2);
  assert.equal(r.queued, 1, 'one edit: the alert’s');
  assert.ok(await store.outbox.get(`fu:${e.id}:0`));
  const board = await store.members.list('telegram:-1', 0);
  assert.deepEqual(
    board.map((c) => [c.samples.length, c.peak]),
    [
      [1, 3_000_000],
      [1, 3_000_000],
    ],
  );
  // Nothing more is due: the next round asks nothing.
  asked.length = 0;
  assert.equal((await round()).requests, 0);
  assert.deepEqual(asked, []);
});

test('within the budget an alert’s token is asked before tokens only members called, even when theirs fell due first', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  let clock = Date.now();
  const { asked, round } = rig(store, 1, () => clock);
  await store.members.call(post('telegram:-1', 'a', 2, clock));
  await store.members.call(post('telegram:-1', 'b', 3, clock));
  clock += MINUTE;
  const e = {
    id: 'tw1:console:c',
    subId: 'console:c',
    platform: 'console' as const,
    chatId: 'c',
    isGroup: false,
    content: alertContent(1),
    createdAt: clock,
    state: 'sent' as const,
    attempts: 1,
    notBefore: 0,
  };
  await store.calls.record(callOf(e, e.content, '1', [5], clock));
  clock += 6 * MINUTE;
  const r = await round();
  assert.deepEqual(asked, [token(1).address]);
  assert.deepEqual([r.requests, r.deferred], [1, 2]);
  clock += MINUTE; // the budget's minute has passed
  await round();
  assert.equal(asked.length, 2, 'then the members’ tokens, one a round at this budget');
});

test('500 members’ calls over 50 tokens in 10 chats: one round asks 50 times', async (t) => {
  const store = await openStore('memory:', { memberCalls: { perDay: 1000 } });
  t.after(() => store.close());
  let clock = Date.now();
  const { asked, round } = rig(store, 6000, () => clock);
  let n = 0;
  for (let chat = 0; chat < 10; chat++)
    for (let i = 0; i < 50; i++)
      if ((await store.members.call(post(`telegram:-${chat}`, `m${n++}`, i, clock))).kind === 'recorded') continue;
      else assert.fail('a call per token and chat');
  clock += 6 * MINUTE;
  const r = await round();
  assert.equal(r.requests, 50);
  assert.equal(new Set(asked).size, 50);
  let sampled = 0;
  for (let chat = 0; chat < 10; chat++)
    sampled += (await store.members.list(`telegram:-${chat}`, 0)).filter((c) => c.samples.length === 1).length;
  assert.equal(sampled, 500, 'every call sampled');
});
