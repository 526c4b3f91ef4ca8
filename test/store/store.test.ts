import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';

test('sqlite store keeps button state across a restart and forgets it after its TTL', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'nested', 'state.sqlite')}`;
  // Expiry reads the clock: a mocked Date moves past the TTL without waiting for it.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const a = await openStore(url);
  const key = await a.pages.put(
    { command: 'kols', options: { offset: 20, id: '1234567890123456789' }, chats: ['telegram:-1001'] },
    60_000,
  );
  const short = await a.pages.put({ command: 'kols', options: {}, chats: ['telegram:-1001'] }, 30);
  assert.match(key, /^[A-Za-z0-9_-]{12}$/);
  assert.equal(await a.ping(), true);
  await a.close();

  const b = await openStore(url);
  t.after(() => b.close());
  assert.deepEqual(await b.pages.get(key), {
    command: 'kols',
    options: { offset: 20, id: '1234567890123456789' },
    chats: ['telegram:-1001'],
  });
  assert.ok(await b.pages.get(short), 'still there before its TTL');
  t.mock.timers.tick(31);
  assert.equal(await b.pages.get(short), undefined, 'expired');
  assert.ok(await b.pages.get(key), 'the long-lived one stays');
  assert.equal(await b.pages.get('../../etc'), undefined, 'malformed keys are not looked up');
});

test('memory store serves the same interface', async () => {
  const s = await openStore('memory:');
  const key = await s.pages.put({ command: 'help', options: {}, chats: ['discord:123456789012345678'] }, 1000);
  assert.deepEqual(await s.pages.get(key), { command: 'help', options: {}, chats: ['discord:123456789012345678'] });
  await s.close();
});

for (const backend of ['sqlite', 'memory', 'redis'] as const) {
  test(`${backend}: a key is claimed once among concurrent claims, survives a restart (sqlite, redis), and frees after its TTL`, async (t) => {
    const { REDIS_SKIP, redisAvailable, startRedis } = await import('../helpers/redis.ts');
    if (backend === 'redis' && !redisAvailable()) return t.skip(REDIS_SKIP);
    let url = 'memory:';
    if (backend === 'sqlite') {
      const dir = await mkdtemp(join(tmpdir(), 'kolradar-claim-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      url = `sqlite:${join(dir, 'state.sqlite')}`;
    } else if (backend === 'redis') {
      url = (await startRedis(t)).url;
    }
    const a = await openStore(url);
    const wins = await Promise.all(Array.from({ length: 10 }, () => a.claim('telegram:1:update:42', 60_000)));
    assert.equal(wins.filter(Boolean).length, 1, 'exactly one claim wins');
    assert.equal(await a.claim('telegram:1:update:43', 60_000), true, 'another key is its own');
    assert.equal(await a.claim('short', 40), true);
    if (backend !== 'memory') {
      await a.close();
      const b = await openStore(url);
      t.after(() => b.close());
      assert.equal(await b.claim('telegram:1:update:42', 60_000), false, 'still claimed after a restart');
      // Not a wait for an event: the claim's 40 ms TTL runs on the store's own clock (Redis, SQLite), so it must pass.
      await new Promise((r) => setTimeout(r, 80));
      assert.equal(await b.claim('short', 40), true, 'free again after its TTL');
    } else {
      await a.close();
    }
  });
}
