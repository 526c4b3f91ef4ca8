import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import { createDelivery, type Sender } from '../../src/alerts/delivery.ts';
import { LeaseLostError, redisLease } from '../../src/store/lease.ts';
import { createWatcher } from '../../src/alerts/watcher.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/store/index.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { until } from '../helpers/wait.ts';
import { caller } from './harness.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

const available = redisAvailable();
if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);

test('three instances on one Redis: one watcher at a time, zero extra alerts, takeover after the leader dies', {
  skip: available ? false : REDIS_SKIP,
}, async (t) => {
  const redis = await startRedis(t);
  const sb = await startSandbox();
  t.after(() => sb.close());
  const log = silentLogger();
  const commands = await loadCommands();
  const received = new Map<string, number>();
  const sender: Sender = {
    platform: 'console',
    async send(chatId, view) {
      const key = `${chatId}|${view.kind === 'card' ? view.title : ''}`;
      received.set(key, (received.get(key) ?? 0) + 1);
      return { kind: 'sent', messageId: key };
    },
  };
  // Far longer than any round on a loaded machine: the dead leader's TTL is run out by hand below.
  const TTL = 30_000;
  const instances = await Promise.all(
    ['a', 'b', 'c'].map(async (name) => {
      const store = await openStore(redis.url);
      const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
      const lease = redisLease(store.redis!, { instanceId: name, ttlMs: TTL });
      const delivery = createDelivery({
        outbox: store.outbox,
        subscriptions: store.subscriptions,
        senders: [sender],
        log,
        lease,
      });
      const watcher = createWatcher({
        api,
        subscriptions: store.subscriptions,
        outbox: store.outbox,
        state: store.watch,
        pages: store.pages,
        delivery,
        lease,
        log,
      });
      const dispatcher = createDispatcher({ charts: sharedChartPool(), commands, api, store, log });
      t.after(async () => {
        await delivery.stop();
        await store.close();
        await api.close();
      });
      return { name, store, api, lease, delivery, watcher, dispatcher, alive: true };
    }),
  );
  // Every instance serves commands: subscribe through two different ones.
  await instances[1]!.dispatcher.run(
    'subscribe',
    { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' },
    caller('x'),
  );
  await instances[2]!.dispatcher.run(
    'subscribe',
    { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' },
    caller('y'),
  );

  const round = async () => {
    const live = instances.filter((i) => i.alive);
    const results = await Promise.all(live.map((i) => i.watcher.tick()));
    await Promise.all(live.map((i) => i.delivery.drain()));
    return live.filter((_, k) => results[k]!.leader).map((i) => i.name);
  };

  assert.equal((await round()).length, 1, 'exactly one leader');
  const kol = sb.data.kols[0]!;
  let expected = 0;
  for (let r = 0; r < 6; r++) {
    sb.addTweets(1, { token: sb.data.tokens[r]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    expected++;
    const leaders = await round();
    assert.equal(leaders.length, 1, `round ${r}: one leader, got ${leaders.join(',')}`);
  }
  const leader = instances.find((i) => i.lease.status() === 'leader')!;
  // The leader dies without releasing its lease (SIGKILL): nobody may take over before the TTL...
  leader.alive = false;
  await leader.store.close(); // its connection is gone: no more renewals, but no release either
  sb.addTweets(1, { token: sb.data.tokens[10]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
  expected++;
  assert.deepEqual(await round(), [], 'the lease is still held by the dead leader');
  // Its TTL runs out (Redis expires the key, as it would after 30 s without a renewal).
  const redisOfSurvivor = instances.find((i) => i.alive)!.store.redis!;
  await redisOfSurvivor.pExpire('kolradar:lease:watcher', 1);
  await until(
    async () => (await redisOfSurvivor.exists('kolradar:lease:watcher')) === 0,
    'the dead leader’s lease to expire',
  );
  const next = await round();
  assert.equal(next.length, 1, 'one survivor takes over after the TTL');
  assert.notEqual(next[0], leader.name);
  // ...and a stale holder cannot move the high-water mark.
  // (Its connection is gone: the fence check fails before the write, whichever error says so.)
  let wrote = false;
  await assert.rejects(
    leader.lease.fenced(async () => {
      wrote = true;
    }),
  );
  assert.equal(wrote, false, 'the stale holder’s write never ran');

  for (const chat of ['x', 'y']) {
    const got = [...received.entries()].filter(([k]) => k.startsWith(`${chat}|`));
    assert.equal(got.length, expected, `${chat}: every alert arrived`);
    assert.ok(
      got.every(([, n]) => n === 1),
      `${chat}: no alert twice`,
    );
  }
});

test('a holder paused past its TTL cannot write once another instance took the lease', {
  skip: available ? false : REDIS_SKIP,
}, async (t) => {
  const redis = await startRedis(t);
  const [a, b] = await Promise.all([openStore(redis.url), openStore(redis.url)]);
  const paused = redisLease(a.redis!, { instanceId: 'paused', ttlMs: 30_000 });
  const other = redisLease(b.redis!, { instanceId: 'other', ttlMs: 30_000 });
  t.after(async () => {
    await paused.release();
    await other.release();
    await a.close();
    await b.close();
  });
  assert.equal(await paused.acquire(), true);
  assert.equal(await other.acquire(), false, 'held: no second leader');
  // The holder sleeps through its TTL (run out by hand): Redis drops the key, the other takes it.
  await b.redis!.pExpire('kolradar:lease:watcher', 1);
  await until(async () => (await b.redis!.exists('kolradar:lease:watcher')) === 0, 'the paused lease to expire');
  assert.equal(await other.acquire(), true);
  let wrote = false;
  await assert.rejects(
    paused.fenced(async () => {
      wrote = true;
    }),
    LeaseLostError,
  );
  assert.equal(wrote, false, 'the paused holder’s write never ran');
});
