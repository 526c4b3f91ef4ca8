/**
 * Two instances reading the feed at a fast pace (the paced loop, not ticks by
 * hand) on one Redis: the leader dies between two reads without releasing its
 * lease, the other takes over after the lease's TTL. Nothing is lost, nothing
 * is alerted twice, and the two never read the feed at the same time.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { createKolClient, type KolClient } from '../../src/api/index.ts';
import { createDelivery, type Sender } from '../../src/alerts/delivery.ts';
import { createWatcher } from '../../src/alerts/watcher.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { redisLease } from '../../src/store/lease.ts';
import { openStore } from '../../src/store/index.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { until } from '../adapters/discord/harness.ts';

const available = redisAvailable();

test('a leader change during fast reading loses nothing, doubles nothing, and the readers never overlap', {
  skip: available ? false : REDIS_SKIP,
  timeout: 60_000,
}, async (t) => {
  const redis = await startRedis(t);
  const sb = await startSandbox();
  t.after(() => sb.close());
  const log = silentLogger();
  const received: string[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(_chatId, view) {
      received.push(/status\/(\d+)/.exec(JSON.stringify(view))?.[1] ?? '?');
      return { kind: 'sent', messageId: String(received.length) };
    },
  };
  /** Every feed request: who, and when it started and ended (real time, compared only with each other). */
  const reads: { who: string; from: number; to: number }[] = [];
  const TTL = 600;
  let crash: string | undefined;
  const instances = await Promise.all(
    ['a', 'b'].map(async (name) => {
      const store = await openStore(redis.url);
      const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
      const feed: KolClient = {
        ...api,
        async getTweets(p, opts) {
          const r = { who: name, from: performance.now(), to: Infinity };
          reads.push(r);
          try {
            return await api.getTweets(p, opts);
          } finally {
            r.to = performance.now();
          }
        },
      };
      const lease = redisLease(store.redis!, { instanceId: name, ttlMs: TTL });
      const delivery = createDelivery({
        outbox: store.outbox,
        subscriptions: store.subscriptions,
        senders: [sender],
        log,
        lease,
      });
      let dead = false;
      const watcher = createWatcher({
        api: feed,
        subscriptions: store.subscriptions,
        outbox: store.outbox,
        state: store.watch,
        pages: store.pages,
        delivery,
        lease,
        log,
        // Fast: a read every 100 ms.
        feedRequestsPerMinute: 600,
        async sleep(ms, signal) {
          if (crash === name && lease.status() === 'leader' && !dead) {
            // Dies between two reads, its sends finished: no release, no more renewals.
            dead = true;
            await delivery.drain();
            await store.close();
          }
          if (dead) {
            await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
            return;
          }
          await sleep(ms, undefined, { signal }).catch(() => {}); // the paced reader's own pause, as in production
        },
      });
      t.after(async () => {
        await watcher.stop();
        if (!dead) await store.close();
        await api.close();
      });
      return { name, store, lease, watcher };
    }),
  );
  await instances[0]!.store.subscriptions.put(openSubscription('console', 'x'));
  for (const i of instances) i.watcher.start();
  await until(() => instances.some((i) => i.lease.status() === 'leader'), 'a leader', 5000);
  // The leader's first read takes the head as its mark; tweets from then on must all arrive.
  await until(() => reads.length > 2, 'the first reads', 5000);
  const expected = new Set<string>();
  const add = (n: number) => {
    for (const x of sb.addTweets(n)) expected.add(x.twitter_id);
  };
  for (let k = 0; k < 10; k++) {
    add(3);
    await sleep(50); // tweets arrive over time: the scenario, not a wait
  }
  await until(() => received.length >= 30, 'alerts from the first leader', 10_000);
  const first = instances.find((i) => i.lease.status() === 'leader')!;
  crash = first.name;
  // Tweets keep coming while the leader is dead and its lease not yet expired.
  for (let k = 0; k < 20; k++) {
    add(2);
    await sleep(50); // tweets arrive over time, while the dead leader's lease runs out: the scenario, not a wait
  }
  const second = instances.find((i) => i !== first)!;
  await until(() => second.lease.status() === 'leader', 'the takeover', 10_000);
  add(5);
  await until(() => expected.size === new Set(received).size, 'every tweet alerted', 15_000);
  // A barrier: one more tweet, alerted after everything before it.
  add(1);
  await until(() => received.length >= expected.size, 'the barrier', 10_000);
  assert.deepEqual(new Set(received), expected, 'every tweet alerted');
  assert.equal(received.length, expected.size, 'none twice');
  assert.ok(reads.some((r) => r.who === first.name) && reads.some((r) => r.who === second.name));
  for (const a of reads)
    for (const b of reads)
      if (a.who !== b.who)
        assert.ok(a.to <= b.from || b.to <= a.from, `${a.who} and ${b.who} read the feed at the same time`);
});
