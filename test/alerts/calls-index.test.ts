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
import { createCallStore, type CallStore } from '../../src/store/calls.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { strictKv, type Kv } from '../../src/store/strict.ts';
import { alertContent } from './delivery/kit.ts';

const MINUTE = 60_000;

/** Follow-up rounds over `calls`, 60 requests a minute, on the test's clock. */
const followups = (calls: CallStore, store: Store, api: KolClient, now: () => number) =>
  createFollowups({
    calls,
    outbox: store.outbox,
    api,
    lease: { fenced: (write) => write() },
    log: silentLogger(),
    perMinute: 60,
    now,
  });

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
  const round = () => followups(calls, store, api, () => clock).round();
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

test('a burst message’s calls due in one round queue one edit of the message, not one per token', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  let clock = Date.now();
  const calls = createCallStore(strictKv(new Keyv()), { retentionMs: 30 * 1440 * MINUTE, now: () => clock });
  const api = {
    async getTokenAnalytics(p: { tokenAddress: string }) {
      return { items: [{ token: { address: p.tokenAddress }, marketcap: 2_000_000, liquidity: 1 }] };
    },
  } as unknown as KolClient;
  const ids = [1, 2, 3].map((i) => `tw${i}:console:g`);
  for (const [n, id] of ids.entries()) {
    const content = alertContent(n + 1);
    const e = { id, subId: 'console:g', platform: 'console' as const, chatId: 'g', isGroup: true, content };
    const call = callOf({ ...e, createdAt: clock, state: 'sent', attempts: 1, notBefore: 0 }, content, '9', [], clock);
    await calls.record({ ...call, burst: { calls: ids, points: [60] } });
  }
  clock += 61 * MINUTE;
  const r = await followups(calls, store, api, () => clock).round();
  assert.equal(r.requests, 3, 'each token asked once');
  assert.equal(r.queued, 1, 'one edit of the message');
  assert.ok(await store.outbox.get(`fu:burst:console:g:9:${clock}`));
  for (const id of ids) assert.equal((await calls.get(id))!.samples.length, 1, `${id} sampled`);
});
