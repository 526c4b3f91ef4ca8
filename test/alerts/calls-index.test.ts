/**
 * The follow-up due index across a crash between saving a call and its index:
 * no point is lost, and a token with no point due is not asked about.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Keyv from 'keyv';
import type { KolClient } from '../../src/api/index.ts';
import { createFollowups } from '../../src/alerts/calls/followups.ts';
import { callOf } from '../../src/alerts/calls/record.ts';
import { silentLogger } from '../../src/log.ts';
import { createCallStore } from '../../src/store/calls.ts';
import { openStore } from '../../src/store/index.ts';
import { strictKv, type Kv } from '../../src/store/strict.ts';
import { alertContent } from './delivery/kit.ts';

const MINUTE = 60_000;

test('a crash between a call’s new sample and its index: the next round repairs the index and asks only for tokens due', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  let clock = Date.now();
  const inner = strictKv(new Keyv());
  let crashOnIndex = false;
  const kv: Kv = {
    ...inner,
    async set(key, value, ttl) {
      if (crashOnIndex && key === 'due') throw new Error('killed before the index was written');
      return inner.set(key, value, ttl);
    },
  };
  const calls = createCallStore(kv, { retentionMs: 30 * 1440 * MINUTE, now: () => clock });
  const asked: string[] = [];
  const api = {
    async getTokenAnalytics(p: { tokenAddress: string }) {
      asked.push(p.tokenAddress);
      return { items: [{ token: { address: p.tokenAddress }, marketcap: 2_000_000, liquidity: 1 }] };
    },
  } as unknown as KolClient;
  const round = () =>
    createFollowups({
      calls,
      outbox: store.outbox,
      api,
      lease: { fenced: (write) => write() },
      log: silentLogger(),
      perMinute: 60,
      now: () => clock,
    }).round();
  const entry = (i: number) => ({
    id: `tw${i}:console:c`,
    subId: 'console:c',
    platform: 'console' as const,
    chatId: 'c',
    isGroup: false,
    content: alertContent(i),
    createdAt: clock,
    state: 'sent' as const,
    attempts: 1,
    notBefore: 0,
  });
  const [x, y] = [entry(1), entry(2)];
  await calls.record(callOf(x, x.content, '1', [60, 1440], clock));
  clock += 30 * MINUTE;
  await calls.record(callOf(y, y.content, '2', [60], clock));
  // X's first point: the round saves the sample, and the process dies before the index is written.
  clock += 31 * MINUTE;
  crashOnIndex = true;
  await assert.rejects(round(), /killed/);
  crashOnIndex = false;
  assert.equal((await calls.get(x.id))!.samples.length, 1, 'the sample was saved');
  assert.ok(await store.outbox.get(`fu:${x.id}:0`), 'and its edit queued');
  asked.length = 0;
  // Restarted: Y's point is due now; X's next point is a day away, though the stale index says now.
  clock += 30 * MINUTE;
  const r = await round();
  assert.deepEqual(asked, [y.content.token.address], 'only the token with a point due is asked about');
  assert.equal(r.requests, 1);
  assert.deepEqual(
    (await calls.dueTokens(clock)).map((d) => d.tokenKey),
    [],
    'the stale entry is repaired: no later round asks about X either',
  );
  // And X's next point is not lost.
  clock += 1440 * MINUTE;
  asked.length = 0;
  await round();
  assert.deepEqual(asked, [x.content.token.address]);
  assert.ok(await store.outbox.get(`fu:${x.id}:1`));
});
