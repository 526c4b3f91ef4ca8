/**
 * Alerts end to end on a moving feed: the sandbox in live mode, the real
 * discord.js and grammY against the fakes, on each store. Every tweet that
 * matches a destination's filters reaches it exactly once and in feed order;
 * nothing reaches a destination whose filters exclude it.
 */
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TweetListItem } from '../../src/api/index.ts';
import type { AlertFilters } from '../../src/store/subscriptions.ts';
import type { FeedPosition } from '../../src/store/subscriptions.ts';
import type { SandboxData } from '../../src/sandbox/server.ts';
import { bothPlatforms } from '../helpers/platforms.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { moreTicks } from '../helpers/pipeline.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';

/**
 * The filters as plainly as they can be written, independent of the matcher, on the
 * sandbox's own records: a share of the live feed serves spec-minimal authors.
 */
function wants(f: AlertFilters, t: TweetListItem, data: SandboxData): boolean {
  const seed = data.tweets.find((x) => String(x.id) === t.id)!;
  const kol = data.kols.find((k) => k.id === seed.kolId)!;
  return (
    t.token.avg_score >= f.minTokenScore &&
    seed.kolScore >= f.minKolScore &&
    kol.follower_count >= f.minFollowers &&
    (f.chains.length === 0 || f.chains.includes(t.token.chain_id as never))
  );
}

async function scenario(t: TestContext, storeUrl: string): Promise<void> {
  const { discord, telegram, app, dc, tg, close } = await bothPlatforms(t, {
    channels: ['820000000000000001', '820000000000000002'],
    guildId: '920000000000000001',
    telegramToken: '7000000005:AAFakeTokenForTheLiveFeedTest_0123',
    storeUrl,
    watchCron: '* * * * * *',
  });
  try {
    const subs = [
      openSubscription('discord', '820000000000000001', { minTokenScore: 50, minKolScore: 40 }),
      openSubscription('discord', '820000000000000002', { minTokenScore: 101 }), // wants nothing
      openSubscription('telegram', '7000001', { chains: ['solana', 'base'] }),
    ];
    for (const s of subs) await app.store.subscriptions.put(s);
    const sb = app.sandbox!;
    const head = (await app.api.getTweets({ limit: 1 }, { cache: 'bypass' })).items[0]!;
    const mark: FeedPosition = { tweetedAt: head.tweeted_at, id: head.id };
    const watcher = app.startAlerts([dc.sender, tg.sender]);
    await watcher.tick();
    // The feed moves by twenty tweets, read by ticks as they come: counted, not timed.
    const before = sb.data.tweets.length;
    sb.setLive({ tweetsPerSecond: 4 });
    await Promise.all([
      until(() => sb.data.tweets.length >= before + 20, 'twenty tweets on the live feed'),
      moreTicks(sb, 3),
    ]);
    sb.setLive(false);
    // A tick that began once the feed stood still has read all of it.
    await moreTicks(sb, 1);

    // Every tweet since the mark, newest first, then oldest first.
    const feed: TweetListItem[] = [];
    for (let cursor: string | undefined; ; ) {
      const r = await app.api.getTweets({ limit: 30, ...(cursor ? { cursor } : {}) }, { cache: 'bypass' });
      const newer = r.items.filter((t) => BigInt(t.id) > BigInt(mark.id));
      feed.push(...newer);
      if (newer.length < r.items.length || !r.next_cursor) break;
      cursor = r.next_cursor;
    }
    feed.reverse();
    assert.ok(feed.length >= 10, `the live feed moved (${feed.length} tweets)`);
    assert.ok(
      feed.some((t) => t.x_user[0]?.follower_count === undefined),
      'some authors in the feed were spec-minimal',
    );
    assert.ok(
      app.metrics.authorLookups.get() + app.metrics.authorCacheHits.get() > 0,
      'their facts were looked up (metrics count it)',
    );
    assert.equal(app.metrics.authorUnknown.get(), 0, 'and found');
    const ids = (texts: string[]) => texts.map((x) => /status\/(\d+)/.exec(x)?.[1] ?? '?');
    const got = {
      'discord:820000000000000001': () =>
        ids(discord.channelMessages('820000000000000001').map((m) => JSON.stringify(m.embeds))),
      'discord:820000000000000002': () =>
        ids(discord.channelMessages('820000000000000002').map((m) => JSON.stringify(m.embeds))),
      'telegram:7000001': () => ids(telegram.messages(7000001).map((m) => m.html ?? '')),
    };
    const expected = Object.fromEntries(
      subs.map((s) => [s.id, feed.filter((t) => wants(s.filters, t, sb.data)).map((t) => t.twitter_id)]),
    );
    const delivered = (s: { id: string }) => got[s.id as keyof typeof got]();
    await until(
      () => subs.every((s) => delivered(s).length >= expected[s.id]!.length),
      'every matching tweet delivered',
    );
    // The barrier: two more ticks and an empty outbox; an alert sent twice would have gone by then.
    await nothingMoreAfter(
      () => subs.reduce((n, s) => n + delivered(s).length, 0),
      async () => {
        await moreTicks(sb, 2);
        await until(async () => (await app.store.outbox.pending()).length === 0, 'nothing left in the outbox');
      },
      'no alert twice',
    );
    for (const s of subs)
      assert.deepEqual(delivered(s), expected[s.id], `${s.id}: exactly the matching tweets, once each, in order`);
    assert.ok(
      expected['discord:820000000000000001']!.length > 0 && expected['telegram:7000001']!.length > 0,
      'the scenario sends something',
    );
    assert.equal(discord.violations.length + telegram.violations.length, 0, 'nothing inside a 429 window');
  } finally {
    await close();
  }
}

describe('alerts on a live feed through both platforms', { timeout: 120_000 }, () => {
  test('on SQLite', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'kolradar-live-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await scenario(t, `sqlite:${join(dir, 'state.sqlite')}`);
  });
  const available = redisAvailable();
  if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);
  test('on Redis', { skip: available ? false : REDIS_SKIP }, async (t) => {
    const redis = await startRedis(t);
    await scenario(t, redis.url);
  });
});
