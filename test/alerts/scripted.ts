/**
 * The alert pipeline against a scripted feed: the real store, outbox, watcher
 * and delivery, with an upstream whose order and timing a test controls (late
 * indexing, tie order), and store faults injected at chosen writes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { KolClient } from '../../src/api/index.ts';
import { createDelivery, type Sender, type SendResult } from '../../src/alerts/delivery.ts';
import { localLease } from '../../src/store/lease.ts';
import type { Outbox } from '../../src/store/outbox.ts';
import { createWatcher } from '../../src/alerts/watcher.ts';
import { silentLogger } from '../../src/log.ts';
import { openStore } from '../../src/store/index.ts';
import type { Kv } from '../../src/store/strict.ts';

export interface FeedTweet {
  id: string;
  at: string;
  token?: string;
  user?: string;
}

function item(t: FeedTweet) {
  const user = t.user ?? 'kol1';
  return {
    id: t.id,
    twitter_id: `9${t.id}`,
    tweeted_at: t.at,
    content: `tweet ${t.id}`,
    tweet_type: 'tweet',
    token: {
      chain_id: 'base',
      token_address: t.token ?? '0x00000000000000000000000000000000000000aa',
      avg_score: 90,
      name: 'Tok',
      symbol: 'TOK',
      change1h: 0,
      change24h: 0,
    },
    x_user: [{ username: user, display_name: user, ranking_score: 90, follower_count: 1e6, labels: [] }],
  };
}

/** The two operations the watcher uses, over `feed` (newest first, in whatever order the test sets). */
function scriptedApi(feed: FeedTweet[]): KolClient {
  const api = {
    async getTweets(p: { limit?: number; cursor?: string }) {
      const start = p.cursor ? Number(p.cursor) : 0;
      const limit = p.limit ?? 30;
      return {
        items: feed.slice(start, start + limit).map(item),
        next_cursor: start + limit < feed.length ? String(start + limit) : null,
      };
    },
    async getTokenAnalytics() {
      throw new Error('no analytics here');
    },
  };
  return api as unknown as KolClient; // only what the watcher calls
}

export interface Sent {
  chatId: string;
  tweet: string;
  at: number;
}

export async function scripted(
  t: TestContext,
  o: {
    feed: FeedTweet[];
    state?: (k: Kv) => Kv;
    outbox?: (ob: Outbox) => Outbox;
    send?: (chatId: string) => Promise<SendResult | undefined>;
  },
) {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-scripted-'));
  const store = await openStore(`sqlite:${join(dir, 'state.sqlite')}`);
  const sent: Sent[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(chatId, view) {
      const r = o.send ? await o.send(chatId) : undefined;
      if (r) return r;
      const tweet = /status\/9(\d+)/.exec(JSON.stringify(view))?.[1] ?? '?';
      sent.push({ chatId, tweet, at: Date.now() });
      return { kind: 'sent', messageId: String(sent.length) };
    },
  };
  const log = silentLogger();
  const outbox = o.outbox ? o.outbox(store.outbox) : store.outbox;
  const delivery = createDelivery({ outbox, subscriptions: store.subscriptions, senders: [sender], log });
  const watcher = createWatcher({
    api: scriptedApi(o.feed),
    subscriptions: store.subscriptions,
    outbox,
    state: o.state ? o.state(store.watch) : store.watch,
    pages: store.pages,
    delivery,
    lease: localLease(),
    log,
  });
  t.after(async () => {
    await watcher.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { store, sent, delivery, watcher, outbox };
}
