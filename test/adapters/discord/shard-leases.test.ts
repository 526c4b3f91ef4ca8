// Shard leases: a shard another instance holds is refused; a store stall shorter than the
// lease changes nothing; a lease taken by another instance, or not confirmed before it runs
// out, is lost once. The Redis lease underneath re-adopts itself after a failed renewal.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { shardLeases } from '../../../src/adapters/discord/shard-leases.ts';
import { redisLease, type Lease, type LeaseRedis } from '../../../src/store/lease.ts';
import { openStore } from '../../../src/store/index.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../../helpers/redis.ts';

/** A lease whose next answers the test sets: held, refused, a store error, or no answer at all. */
function scripted(initial: 'held' | 'refused') {
  let answer: 'held' | 'refused' | 'error' | 'hang' = initial;
  let asked = 0;
  const lease: Lease = {
    acquire() {
      asked++;
      if (answer === 'hang') return new Promise(() => {});
      if (answer === 'error') return Promise.reject(new Error('store call timed out'));
      return Promise.resolve(answer === 'held');
    },
    fenced: (w) => w(),
    release: async () => {},
    status: () => (answer === 'held' ? 'leader' : 'follower'),
  };
  return { lease, set: (a: typeof answer) => (answer = a), asked: () => asked };
}

const flush = () => new Promise((r) => setImmediate(r));

test('a shard another instance holds is refused; the others are held', async () => {
  const leases = [scripted('held'), scripted('refused'), scripted('held')];
  const s = shardLeases({ leaseOf: (id) => leases[id]!.lease });
  assert.deepEqual(await s.take([0, 1, 2]), { held: [0, 2], refused: [1] });
});

test('a store stall shorter than the lease keeps the shard; one that lasts until the lease would run out loses it once', async (t) => {
  mock.timers.enable({ apis: ['setInterval', 'Date'], now: 1_000_000 });
  t.after(() => mock.timers.reset());
  const l = scripted('held');
  const s = shardLeases({ leaseOf: () => l.lease, ttlMs: 30_000 });
  await s.take([4]);
  const lost: string[] = [];
  s.keep((id, why) => lost.push(`${id}: ${why}`));
  // Renewed every 10 s; the store errors for 15 s, then answers again.
  l.set('error');
  for (let i = 0; i < 3; i++) {
    mock.timers.tick(5_000);
    await flush();
  }
  l.set('held');
  for (let i = 0; i < 6; i++) {
    mock.timers.tick(5_000);
    await flush();
  }
  assert.deepEqual(lost, [], 'a 15 s stall: the shard stays');
  // Now the store hangs: no answer at all. Lost when the last renewal is 20 s old (the lease is 30 s).
  l.set('hang');
  for (let i = 0; i < 8; i++) {
    mock.timers.tick(5_000);
    await flush();
  }
  assert.equal(lost.length, 1, 'lost once');
  assert.match(lost[0]!, /^4: the store did not confirm the lease for 2\d s$/);
});

test('a renewal the store refuses (another instance holds the lease) loses the shard at once', async (t) => {
  mock.timers.enable({ apis: ['setInterval', 'Date'], now: 1_000_000 });
  t.after(() => mock.timers.reset());
  const l = scripted('held');
  const s = shardLeases({ leaseOf: () => l.lease, ttlMs: 30_000 });
  await s.take([0]);
  const lost: string[] = [];
  s.keep((id, why) => lost.push(`${id}: ${why}`));
  l.set('refused');
  mock.timers.tick(10_000);
  await flush();
  mock.timers.tick(10_000);
  await flush();
  assert.deepEqual(lost, ['0: another instance holds its lease now']);
});

test('Redis lease: a renewal that failed (the store stalled) is not a lost lease; the holder adopts it again and nobody else gets it', {
  skip: redisAvailable() ? false : REDIS_SKIP,
}, async (t) => {
  const redis = await startRedis(t);
  const store = await openStore(redis.url);
  t.after(() => store.close());
  let failNext = 0;
  // The store's client, failing the next renewals as a stalled Redis would (the call deadline's error).
  const flaky: LeaseRedis = {
    set: (...a) => store.redis!.set(...a),
    incr: (k) => store.redis!.incr(k),
    eval: (script, o) =>
      failNext-- > 0 ? Promise.reject(new Error('redis call timed out')) : store.redis!.eval(script, o),
  };
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const a = redisLease(flaky, { name: 'shard-test', instanceId: 'a', ttlMs: 30_000 });
  const b = redisLease(store.redis!, { name: 'shard-test', instanceId: 'b', ttlMs: 30_000 });
  assert.equal(await a.acquire(), true);
  failNext = 1;
  mock.timers.tick(10_000); // a's heartbeat renewal fails
  await flush();
  assert.equal(a.status(), 'follower', 'the failed renewal is noticed');
  assert.equal(await b.acquire(), false, 'the key never expired: nobody else takes it');
  assert.equal(await a.acquire(), true, 'a adopts its own lease again');
  assert.equal(a.status(), 'leader');
  assert.equal(await a.fenced(async () => 'written'), 'written', 'and may write under it');
  await a.release();
  assert.equal(await b.acquire(), true, 'released: the next instance takes it');
  await b.release();
});
