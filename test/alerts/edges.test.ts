/** Edge cases of the feed and the store that must neither lose nor repeat an alert. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Outbox } from '../../src/store/outbox.ts';
import type { Kv } from '../../src/store/strict.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { until } from '../helpers/wait.ts';
import { scripted, type FeedTweet } from './scripted.ts';

import { setTimeout as sleep } from 'node:timers/promises';
const at = (s: number) => `2025-01-01T10:00:${String(s).padStart(2, '0')}Z`;
const sub = (chatId: string, cooldownMinutes = 0) => openSubscription('console', chatId, { cooldownMinutes });

test('a tweet the upstream indexes late (behind the mark) is still alerted, once', async (t) => {
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  const h = await scripted(t, { feed });
  await h.store.subscriptions.put(sub('c'));
  await h.watcher.tick();
  feed.unshift({ id: '102', at: at(10) });
  await h.watcher.tick();
  await h.delivery.drain();
  feed.splice(1, 0, { id: '103', at: at(5) }); // tweeted at :05, indexed after the mark reached :10
  feed.unshift({ id: '104', at: at(20) });
  await h.watcher.tick();
  await h.delivery.drain();
  await h.watcher.tick();
  await h.delivery.drain();
  assert.deepEqual(h.sent.map((s) => s.tweet).sort(), ['102', '103', '104']);
});

test('tweets in the same second as the mark are found whatever order the upstream breaks ties in', async (t) => {
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  const h = await scripted(t, { feed });
  await h.store.subscriptions.put(sub('c'));
  await h.watcher.tick();
  feed.splice(0, feed.length, { id: '100', at: at(0) }, { id: '101', at: at(0) }, { id: '102', at: at(0) });
  await h.watcher.tick();
  await h.delivery.drain();
  assert.deepEqual(
    h.sent.map((s) => s.tweet),
    ['101', '102'],
  );
});

test('a failed mark write: the repeated tick delivers every alert, cooldowns or not, once', async (t) => {
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  let failMark = false;
  const state = (k: Kv): Kv => ({
    ...k,
    async set(key, value, ttl) {
      if (failMark && key === 'state') {
        failMark = false;
        throw new Error('store blip');
      }
      return k.set(key, value, ttl);
    },
  });
  const h = await scripted(t, { feed, state });
  await h.store.subscriptions.put(sub('cool', 60));
  await h.store.subscriptions.put(sub('nocool', 0));
  await h.watcher.tick();
  feed.unshift({ id: '101', at: at(11) });
  failMark = true;
  await assert.rejects(h.watcher.tick());
  await h.watcher.tick();
  await h.delivery.drain();
  assert.deepEqual(h.sent.map((s) => s.chatId).sort(), ['cool', 'nocool']);
});

test('a store blip after the platform accepted an alert does not send it again', async (t) => {
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  let armed = false;
  const outbox = (ob: Outbox): Outbox => ({
    ...ob,
    async update(e) {
      if (armed && e.chatId === 'a' && e.state === 'sent') {
        armed = false;
        throw new Error('store blip');
      }
      return ob.update(e);
    },
  });
  const h = await scripted(t, {
    feed,
    outbox,
    send: async (c) => {
      if (c === 'b') await sleep(30); // b a slower destination than a, whose record blips: the scenario, not a wait
      return undefined;
    },
  });
  await h.store.subscriptions.put(sub('a'));
  await h.store.subscriptions.put(sub('b'));
  await h.watcher.tick();
  feed.unshift({ id: '103', at: at(13) }, { id: '102', at: at(12) }, { id: '101', at: at(11) });
  armed = true;
  await h.watcher.tick();
  await assert.rejects(h.delivery.drain(), /store blip/);
  await h.delivery.drain();
  await h.delivery.drain();
  const by = (c: string) => h.sent.filter((s) => s.chatId === c).map((s) => s.tweet);
  assert.deepEqual(by('a'), ['101', '102', '103']);
  assert.deepEqual(by('b'), ['101', '102', '103']);
});

test('a destination waiting out a 429 does not hold up the others', async (t) => {
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  let slowOnce = true;
  const h = await scripted(t, {
    feed,
    send: async (c) => {
      if (c !== 'slow' || !slowOnce) return undefined;
      slowOnce = false;
      return { kind: 'retry', afterMs: 3000, reason: '429: retry after 3', rateLimited: true };
    },
  });
  await h.store.subscriptions.put(sub('slow'));
  await h.store.subscriptions.put(sub('fast'));
  await h.watcher.tick();
  feed.unshift({ id: '101', at: at(11) });
  await h.watcher.tick();
  await h.delivery.drain();
  feed.unshift({ id: '102', at: at(12) });
  await h.watcher.tick();
  // A drain skips what waits out its Retry-After: it ends without waiting the 3 s.
  await h.delivery.drain();
  assert.ok(
    h.sent.some((s) => s.chatId === 'fast' && s.tweet === '102'),
    'the healthy destination got its next alert at once',
  );
  assert.ok(!h.sent.some((s) => s.chatId === 'slow'), 'before the slow one, still waiting out its 3 s');
});

test('alerts queued for a destination that unsubscribes, pauses or mutes meanwhile are not sent', async (t) => {
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  let gate: (() => void) | undefined;
  const h = await scripted(t, {
    feed,
    send: async () => {
      if (gate === undefined) await new Promise<void>((r) => (gate = r));
      return undefined;
    },
  });
  await h.store.subscriptions.put(sub('a'));
  await h.watcher.tick();
  feed.unshift({ id: '102', at: at(12) }, { id: '101', at: at(11) });
  await h.watcher.tick();
  await until(() => gate !== undefined, 'the first send on the wire');
  await h.store.subscriptions.delete('console:a');
  gate!();
  await h.delivery.drain();
  assert.deepEqual(
    h.sent.map((s) => s.tweet),
    ['101'],
    'only the one already on the wire',
  );
});

test('muting a token by its checksummed address silences the feed’s lower-case form', async (t) => {
  const { tokenKeyOf } = await import('../../src/domain/chains.ts');
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  const h = await scripted(t, { feed });
  // What /mute stores for an address pasted from an explorer, in checksum case.
  await h.store.subscriptions.put({
    ...sub('m'),
    mutedTokens: [tokenKeyOf('base', '0x00000000000000000000000000000000000000AA')],
  });
  await h.store.subscriptions.put(sub('other'));
  await h.watcher.tick();
  feed.unshift({ id: '101', at: at(11) }); // the feed lists the address in lower case
  await h.watcher.tick();
  await h.delivery.drain();
  assert.deepEqual(
    h.sent.map((s) => s.chatId),
    ['other'],
  );
});

test('a subscription created while a tick reads the feed still gets the tweets after its start', async (t) => {
  const feed: FeedTweet[] = [{ id: '100', at: at(0) }];
  let during: (() => Promise<void>) | undefined;
  const h = await scripted(t, { feed });
  await h.store.subscriptions.put(sub('old'));
  await h.watcher.tick();
  feed.unshift({ id: '101', at: at(11) });
  // The new destination subscribes while the tick is between loading subscriptions and matching:
  // it starts after tweet 100 (the head it saw), so 101 is for it too.
  const original = h.store.subscriptions.version.bind(h.store.subscriptions);
  let calls = 0;
  h.store.subscriptions.version = async () => {
    if (++calls === 2 && during) await during();
    return original();
  };
  during = () => h.store.subscriptions.put({ ...sub('new'), startAfter: { tweetedAt: at(0), id: '100' } });
  await h.watcher.tick();
  await h.watcher.tick();
  await h.delivery.drain();
  assert.deepEqual(h.sent.map((s) => s.chatId).sort(), ['new', 'old']);
});
