// A chat's forum topics, read back by one prefix scan on every backend: the topics of
// that chat only (not the chat itself, not a chat whose id starts the same).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';

const topic = (chatId: string, threadId: string) => ({
  ...openSubscription('telegram', chatId),
  id: `telegram:${chatId}:${threadId}`,
  threadId,
});

for (const backend of ['memory', 'sqlite', 'redis'] as const)
  test(`${backend}: threadsOf lists the chat's topics only`, {
    skip: backend === 'redis' && !redisAvailable() ? REDIS_SKIP : false,
  }, async (t) => {
    let url = 'memory:';
    if (backend === 'sqlite') {
      const dir = await mkdtemp(join(tmpdir(), 'kolradar-threads-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      url = `sqlite:${join(dir, 'state.sqlite')}`;
    } else if (backend === 'redis') url = (await startRedis(t)).url;
    const store = await openStore(url);
    t.after(() => store.close());
    for (const s of [
      openSubscription('telegram', '-100'),
      topic('-100', '7'),
      topic('-100', '12'),
      topic('-1001', '7'),
      openSubscription('telegram', '-1001'),
      { ...openSubscription('discord', '-100'), id: 'discord:-100:7', threadId: '7' },
    ])
      await store.subscriptions.put(s);
    const ids = (await store.subscriptions.threadsOf('telegram', '-100')).map((s) => s.id);
    assert.deepEqual(ids, ['telegram:-100:12', 'telegram:-100:7']);
    assert.deepEqual(await store.subscriptions.threadsOf('telegram', '-5'), []);
  });
