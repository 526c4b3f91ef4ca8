/**
 * Leased claims on incoming work, on each backend: one holder at a time, a
 * done claim recognised, a dead holder's claim taken over (by a repeated
 * delivery, or from its stored payload), a live holder's renewed claim not.
 * The lease is measured on an injected clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';

for (const backend of ['sqlite', 'memory', 'redis'] as const) {
  test(`${backend}: claims are held by one instance, finished once, and taken over when their holder dies`, async (t) => {
    if (backend === 'redis' && !redisAvailable()) return t.skip(REDIS_SKIP);
    let url = 'memory:';
    if (backend === 'sqlite') {
      const dir = await mkdtemp(join(tmpdir(), 'kolradar-claims-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      url = `sqlite:${join(dir, 'state.sqlite')}`;
    } else if (backend === 'redis') url = (await startRedis(t)).url;
    const store = await openStore(url);
    t.after(() => store.close());
    let clock = 1_000_000;
    const opts = { leaseMs: 10_000, now: () => clock };
    const a = store.claims('tg', 'a', opts);
    const b = store.claims('tg', 'b', opts);
    const c = store.claims('tg', 'c', opts);
    t.after(() => {
      for (const x of [a, b, c]) x.close();
    });
    const update = { update_id: 7, message: { text: '/help', chat: { id: '-1001234567890123' } } };

    // One holder at a time; the holder asking again is told it is still its own.
    assert.deepEqual(await a.take([{ key: 'u7', payload: update }, { key: 'u8' }]), ['mine', 'mine']);
    assert.deepEqual(await b.take([{ key: 'u7' }, { key: 'u8' }, { key: 'u9' }]), ['busy', 'busy', 'mine']);
    assert.deepEqual(await a.take([{ key: 'u7' }]), ['mine']);
    assert.equal(a.held(), 2);

    // Done is remembered: a repeated delivery is not handled again, nor taken over.
    await a.finish('u8');
    assert.deepEqual(await b.take([{ key: 'u8' }]), ['done']);

    // A live holder renews: past the first lease its claim is still busy for others.
    clock += 8_000;
    await a.renew();
    clock += 8_000;
    assert.deepEqual(await c.take([{ key: 'u7' }]), ['busy']);
    assert.deepEqual(await c.orphans(10), [], 'nothing orphaned while its holders renew');

    // a dies (stops renewing). Past its lease another instance takes its claim over with the payload.
    a.close();
    clock += 10_001;
    await b.renew(); // b is alive and keeps u9
    const taken = await c.orphans(10);
    assert.deepEqual(taken, [{ key: 'u7', payload: update }], 'the dead holder’s claim, with the update to handle');
    assert.deepEqual(await c.orphans(10), [], 'taken once');
    assert.deepEqual(await b.take([{ key: 'u7' }]), ['busy'], 'the new holder has it');
    assert.deepEqual(await b.take([{ key: 'u9' }]), ['mine']);
    await c.finish('u7');
    assert.deepEqual(await b.take([{ key: 'u7' }]), ['done']);

    // A repeated delivery after the holder died takes the claim over directly.
    b.close();
    clock += 10_001;
    assert.deepEqual(await c.take([{ key: 'u9' }]), ['mine']);

    // Scopes are separate: the same key under another scope is free.
    const other = store.claims('dc', 'a', opts);
    t.after(() => other.close());
    assert.deepEqual(await other.take([{ key: 'u7' }]), ['mine']);
  });
}
