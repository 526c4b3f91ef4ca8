/**
 * The paced feed reader on a virtual clock: the watcher's sleeps move the clock
 * instead of waiting, so minutes of reading run in moments and every time below
 * is the reader's own. The sandbox answers for real and counts what arrived.
 */
import assert from 'node:assert/strict';
import { setImmediate as tickOver } from 'node:timers/promises';
import { test, type TestContext } from 'node:test';
import { createKolClient, type KolClient } from '../../src/api/index.ts';
import { createDelivery, type Sender } from '../../src/alerts/delivery.ts';
import { createWatcher, type TickResult } from '../../src/alerts/watcher.ts';
import { createLogger } from '../../src/log.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { localLease } from '../../src/store/lease.ts';
import { openStore } from '../../src/store/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';

const MINUTE = 60_000;

async function paced(t: TestContext, o: { perMinute?: number } = {}) {
  const sb = await startSandbox({ authors: 'full' });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const store = await openStore('memory:');
  await store.subscriptions.put(openSubscription('console', 'chat-1'));
  let clock = Date.now();
  const now = () => clock;
  /** Virtual time of each feed request's start. */
  const starts: number[] = [];
  const feed: KolClient = {
    ...api,
    getTweets: (p, opts) => {
      starts.push(clock);
      return api.getTweets(p, opts);
    },
  };
  const logs: { level: number; msg: string }[] = [];
  const log = createLogger({
    level: 'info',
    secrets: [],
    destination: { write: (line: string) => logs.push(JSON.parse(line)) } as unknown as NodeJS.WritableStream,
  });
  const sent: string[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(_chatId, view) {
      sent.push(/status\/(\d+)/.exec(JSON.stringify(view))?.[1] ?? '?');
      return { kind: 'sent', messageId: String(sent.length) };
    },
  };
  const delivery = createDelivery({ outbox: store.outbox, subscriptions: store.subscriptions, senders: [sender], log });
  /** Things to do when the virtual clock passes a time, in order. */
  const at: { ms: number; run: () => void }[] = [];
  let until = Infinity;
  let reached: () => void = () => {};
  const ticks: TickResult[] = [];
  const watcher = createWatcher({
    api: feed,
    subscriptions: store.subscriptions,
    outbox: store.outbox,
    state: store.watch,
    pages: store.pages,
    delivery,
    lease: localLease(),
    log,
    now,
    feedRequestsPerMinute: o.perMinute ?? 20,
    onTick: (r) => ticks.push(r),
    async sleep(ms) {
      const to = clock + ms;
      while (at.length && at[0]!.ms <= to) {
        const next = at.shift()!;
        clock = Math.max(clock, next.ms);
        next.run();
      }
      clock = to;
      if (clock >= until) reached();
      // Let the sandbox answer and the outbox drain between reads: real I/O, virtual waits.
      await tickOver();
    },
  });
  t.after(async () => {
    await watcher.stop();
    await store.close();
    await api.close();
    await sb.close();
  });
  const start = clock;
  return {
    sb,
    starts,
    sent,
    logs,
    ticks,
    watcher,
    delivery,
    start,
    /** Runs `fn` once the reader's clock passes start + ms. */
    when(ms: number, fn: () => void) {
      at.push({ ms: start + ms, run: fn });
      at.sort((a, b) => a.ms - b.ms);
    },
    /** Starts reading and resolves once the reader's clock reached start + ms; then stops it. */
    async runFor(ms: number) {
      until = start + ms;
      const done = new Promise<void>((r) => {
        reached = r;
      });
      watcher.start();
      await done;
      await watcher.stop();
      await delivery.drain();
    },
  };
}

/** The most requests that started within any 60 s. */
function busiestMinute(starts: readonly number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < starts.length; i++) {
    while (starts[j]! <= starts[i]! - MINUTE) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

test('the reader spends its budget evenly, pages of a burst included, and never more in any minute', async (t) => {
  const h = await paced(t, { perMinute: 20 });
  let burst: string[] = [];
  h.when(100_000, () => {
    burst = h.sb.addTweets(100).map((x) => x.twitter_id);
  });
  h.when(200_000, () => h.sb.addTweets(45));
  await h.runFor(5 * MINUTE);
  assert.ok(busiestMinute(h.starts) <= 20, `at most 20 feed requests in any minute (${busiestMinute(h.starts)})`);
  assert.equal(h.sb.count('8'), h.starts.length, 'each counted read is one request: no retry behind the budget');
  assert.ok(h.starts.length >= 95, `the budget is spent, not saved up: ${h.starts.length} requests in 5 minutes`);
  // In a lull (the first 100 s: nothing new) the pace holds at 3 s.
  const quiet = h.starts.filter((s) => s < h.start + 100_000);
  const gaps = quiet.slice(1).map((s, i) => s - quiet[i]!);
  assert.ok(
    gaps.every((g) => g >= 3000 && g < 3500),
    `a read every 3 s in a lull: ${gaps.join(', ')}`,
  );
  const pass = h.ticks.find((r) => r.fetched === 100);
  assert.ok(pass, 'the burst of 100 is read in one pass');
  assert.equal(pass.reads, 4, 'four pages of at most 30, each counted');
  assert.equal(pass.queued, 100, 'and alerted in that same pass');
  for (const id of burst) assert.equal(h.sent.filter((s) => s === id).length, 1, `tweet ${id} alerted once`);
  assert.ok(
    h.ticks.some((r) => r.fetched === 45),
    'the second burst too',
  );
});

test('a refused read (429 with Retry-After, then 5xx) slows the reader, says so once, and it recovers', async (t) => {
  const h = await paced(t, { perMinute: 20 });
  let tweets: string[] = [];
  h.when(30_000, () => {
    h.sb.setFaults({ rateLimit: { count: 2, retryAfterSec: 20 }, operations: ['8'] });
    tweets = h.sb.addTweets(3).map((x) => x.twitter_id);
  });
  h.when(120_000, () => {
    h.sb.setFaults({ burst5xx: 3, operations: ['8'] });
    tweets.push(...h.sb.addTweets(2).map((x) => x.twitter_id));
  });
  await h.runFor(4 * MINUTE);
  const refused = h.sb.requests.filter((r) => r.operation === 'tweets' && r.status !== 200);
  assert.equal(refused.length, 5, 'two 429s and three 503s, each answered once');
  const gapAfter = (i: number) => h.starts[i + 1]! - h.starts[i]!;
  const feedRecs = h.sb.requests.filter((r) => r.operation === 'tweets');
  const idx = feedRecs.map((r, i) => (r.status === 429 ? i : -1)).filter((i) => i >= 0);
  for (const i of idx) assert.ok(gapAfter(i) >= 20_000, `Retry-After honoured: ${gapAfter(i)} ms`);
  const five = feedRecs.map((r, i) => (r.status === 503 ? i : -1)).filter((i) => i >= 0);
  assert.deepEqual(
    five.map(gapAfter).map((g) => g >= 3000),
    [true, true, true],
  );
  assert.ok(gapAfter(five[1]!) > gapAfter(five[0]!), 'the back-off grows while the upstream keeps refusing');
  // After each outage the reader is back at its pace.
  const last = h.starts.slice(-5);
  assert.ok(
    last.slice(1).every((s, i) => s - last[i]! < 3500),
    'back to a read every 3 s',
  );
  const slowed = h.logs.filter((l) => /reading more slowly/.test(l.msg));
  assert.equal(slowed.length, 2, 'one warning per outage, not one per refused read');
  assert.equal(h.logs.filter((l) => /back to their pace/.test(l.msg)).length, 2);
  assert.equal(h.logs.filter((l) => /watch tick failed/.test(l.msg)).length, 0);
  for (const id of tweets) assert.equal(h.sent.filter((s) => s === id).length, 1, `tweet ${id} alerted once`);
});

test('a batch whose authors must be looked up (op 7) reads its market (op 2) at the same time, not after', async (t) => {
  const { alertHarness } = await import('./harness.ts');
  const h = await alertHarness(t, { authors: 'minimal' });
  await h.store.subscriptions.put(openSubscription('console', 'chat-1'));
  await h.cycle(); // the head of the feed becomes the mark
  const tweets = h.sb.addTweets(6);
  h.sb.setFaults({ latencyMs: 100, operations: ['tweetsByToken', 'tokenAnalytics'] });
  h.sb.resetRequests();
  const r = await h.cycle();
  assert.equal(r.fetched, 6);
  const ops7 = h.sb.requests.filter((x) => x.operation === 'tweetsByToken');
  const ops2 = h.sb.requests.filter((x) => x.operation === 'tokenAnalytics');
  assert.ok(ops7.length > 0 && ops2.length > 0, 'both lookups were made');
  const overlapped = ops7.some((a) => ops2.some((b) => a.started < b.finished && b.started < a.finished));
  assert.ok(overlapped, 'an author lookup and a market request were in flight together');
  const tokens = new Set(tweets.map((x) => x.tokenIds[0]));
  assert.ok(ops2.length <= tokens.size, `each token's market asked once (${ops2.length} for ${tokens.size} tokens)`);
  assert.equal(h.sent.length, 6, 'every tweet alerted');
});

test('/metrics: the delays of an alert, tweet to first read, read to sent and tweet to sent, by platform', async (t) => {
  const { callsHarness } = await import('./calls-harness.ts');
  const h = await callsHarness(t, { destinations: 2 });
  h.shill();
  await h.cycle();
  assert.equal(h.sent.length, 2);
  const text = h.app.metrics.render();
  const count = (name: string) => Number(new RegExp(`^${name}_count(\\{[^}]*\\})? (\\d+)$`, 'm').exec(text)?.[2]);
  assert.equal(count('kolradar_alert_tweet_to_read_seconds'), 1, 'the new tweet read once');
  assert.match(text, /kolradar_alert_read_to_sent_seconds_count\{platform="console"\} 2/);
  assert.match(text, /kolradar_alert_tweet_to_sent_seconds_count\{platform="console"\} 2/);
  assert.match(text, /kolradar_feed_requests_total \d+/);
});

test('/metrics: a feed read the upstream refuses (429) or fails (503) is a feed request all the same', async (t) => {
  const { alertHarness } = await import('./harness.ts');
  const h = await alertHarness(t);
  await h.store.subscriptions.put(openSubscription('console', 'chat-1'));
  await h.cycle();
  const counted = () => Number(/^kolradar_feed_requests_total (\d+)$/m.exec(h.app.metrics.render())?.[1] ?? 0);
  assert.equal(counted(), h.sb.count('8'), 'the reads that were answered');
  h.sb.setFaults({ rateLimit: { count: 1, retryAfterSec: 1 }, operations: ['8'] });
  await assert.rejects(h.cycle());
  h.sb.setFaults({ burst5xx: 1, operations: ['8'] });
  await assert.rejects(h.cycle());
  h.sb.clearFaults();
  assert.equal(counted(), h.sb.count('8'), 'every request the upstream saw, the refused and the failed among them');
});
