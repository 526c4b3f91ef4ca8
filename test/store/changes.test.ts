// The watcher keeps its index by reading only the subscriptions that changed (issue #42):
// the store answers their ids, and "read everything" whenever it cannot account for a change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { compile } from '../../src/alerts/subindex.ts';
import type { ChangeCursor, SubscriptionStore } from '../../src/store/subscriptions.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';

/** An index kept as the watcher keeps it: everything at first, then the changed ids. */
async function follower(subs: SubscriptionStore) {
  let cursor: ChangeCursor | null = null;
  let index = compile();
  let reloads = 0;
  return {
    async catchUp(): Promise<{ reloaded: boolean; read: number }> {
      const c = await subs.changes(cursor);
      cursor = c.cursor;
      if (c.ids === null) {
        reloads++;
        index = compile(await subs.all());
        return { reloaded: true, read: index.size };
      }
      for (const id of c.ids) {
        const s = await subs.get(id);
        if (s) index.put(s);
        else index.remove(id);
      }
      return { reloaded: false, read: c.ids.length };
    },
    ids: () => [...index.live()].map((s) => s.id).sort(),
    reloads: () => reloads,
  };
}

const sqliteUrl = async (t: { after: (fn: () => Promise<void>) => void }) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-changes-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'state.sqlite')}`;
};

for (const backend of ['memory', 'sqlite', 'redis'] as const)
  test(`${backend}: after the first read, only the subscriptions that changed are read again`, {
    skip: backend === 'redis' && !redisAvailable() ? REDIS_SKIP : false,
  }, async (t) => {
    const url =
      backend === 'memory' ? 'memory:' : backend === 'sqlite' ? await sqliteUrl(t) : (await startRedis(t)).url;
    const store = await openStore(url);
    t.after(() => store.close());
    const subs = store.subscriptions;
    for (const chat of ['1', '2', '3']) await subs.put(openSubscription('telegram', chat));
    const f = await follower(subs);
    assert.deepEqual(await f.catchUp(), { reloaded: true, read: 3 });
    assert.deepEqual(await f.catchUp(), { reloaded: false, read: 0 });

    await subs.put(openSubscription('telegram', '4'));
    await subs.delete('telegram:1');
    await subs.put({ ...openSubscription('telegram', '2'), disabled: { reason: 'gone', at: 1 } });
    await subs.put(openSubscription('telegram', '4', { minTokenScore: 80 }));
    assert.deepEqual(await f.catchUp(), { reloaded: false, read: 3 });
    assert.deepEqual(f.ids(), ['telegram:3', 'telegram:4']);
    assert.deepEqual(f.ids(), [...compile(await subs.all()).live()].map((s) => s.id).sort());
    assert.equal(f.reloads(), 1);
  });

test('sqlite: a write by another process on the file, which this journal cannot see, reloads everything', async (t) => {
  const url = await sqliteUrl(t);
  const store = await openStore(url);
  t.after(() => store.close());
  await store.subscriptions.put(openSubscription('telegram', '1'));
  const f = await follower(store.subscriptions);
  await f.catchUp();
  const other = await openStore(url);
  await other.subscriptions.put(openSubscription('telegram', '2'));
  await other.close();
  assert.deepEqual(await f.catchUp(), { reloaded: true, read: 2 });
  assert.deepEqual(f.ids(), ['telegram:1', 'telegram:2']);
});

test('redis: a write by another instance is read from the shared journal, one subscription', {
  skip: !redisAvailable() ? REDIS_SKIP : false,
}, async (t) => {
  const { url } = await startRedis(t);
  const store = await openStore(url);
  t.after(() => store.close());
  await store.subscriptions.put(openSubscription('telegram', '1'));
  const f = await follower(store.subscriptions);
  await f.catchUp();
  const other = await openStore(url);
  t.after(() => other.close());
  await other.subscriptions.put(openSubscription('telegram', '2'));
  assert.deepEqual(await f.catchUp(), { reloaded: false, read: 1 });
  assert.deepEqual(f.ids(), ['telegram:1', 'telegram:2']);
  // The journal lost (a restored store starts with none): the version it cannot account for reloads.
  await store.redis!.del(['kolradar:subjournal:seq', 'kolradar:subjournal:log']);
  await other.subscriptions.put(openSubscription('telegram', '3'));
  assert.deepEqual(await f.catchUp(), { reloaded: true, read: 3 });
});
