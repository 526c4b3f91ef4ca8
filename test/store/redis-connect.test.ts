/**
 * A start-up attempt cut short while its socket is still opening (the first
 * attempt's bound passing on a loaded machine) is a failed attempt, retried:
 * never a closed client handed to the bot, whose first read would then fail
 * "The client is closed" and end the process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAttempt } from '../../src/store/redis.ts';
import { openStore } from '../../src/store/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';

const available = redisAvailable();

test('an attempt aborted while connecting fails; it never yields a closed client', {
  skip: available ? false : REDIS_SKIP,
}, async (t) => {
  const redis = await startRedis(t);
  for (let i = 0; i < 5; i++) {
    const cut = new AbortController();
    const attempt = connectAttempt(redis.url, cut.signal, 1_500);
    cut.abort();
    await assert.rejects(attempt, /no answer within 1\.5 s|accepts connections/);
  }
  // Not aborted: a working client, and the store opened on it reads and writes.
  const client = await connectAttempt(redis.url, new AbortController().signal, 1_500);
  assert.equal(await client.ping(), 'PONG');
  client.destroy();
  const store = await openStore(redis.url);
  await store.subscriptions.put(openSubscription('telegram', '1'));
  assert.equal((await store.subscriptions.get('telegram:1'))?.chatId, '1');
  await store.close();
});
