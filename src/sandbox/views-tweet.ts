// Spec shapes of tweets (section 2.8): the token-address view (op 7) and the list view (op 8).
import { iso } from './ctx.ts';
import type { Store } from './store.ts';
import type { SandboxTweet } from './types.ts';
import { kolRecord, statistic } from './views-kol.ts';
import { tweetToken } from './views-token.ts';

function common(t: SandboxTweet) {
  return {
    id: t.id,
    content: t.content,
    twitter_id: t.twitter_id,
    tweeted_at: iso(t.tweetedMs),
    bookmark_count: t.bookmark_count,
    reply_count: t.reply_count,
    retweet_count: t.retweet_count,
    favorite_count: t.favorite_count,
    quote_count: t.quote_count,
    view_count: t.view_count,
    photo_urls: [...t.photo_urls],
  };
}

/** Indexing lags the tweet by a few seconds, as a crawler would. */
function createdMs(t: SandboxTweet): number {
  return t.tweetedMs + 2000 + (t.id % 40) * 1000;
}

function highlights(t: SandboxTweet, store: Store, withToken: boolean) {
  return t.tokenIds.map((tokenId, i) => {
    const token = store.token(tokenId);
    const h = {
      id: t.firstHighlightId + i,
      tweet_id: t.id,
      token_id: tokenId,
      highlight: i === 0 && t.content.includes(token.address) ? token.address : `$${token.symbol}`,
      chain_id: token.chain_id,
      tweeted_at: iso(t.tweetedMs),
      is_kol: true,
      sentiment: t.sentiment,
      created_at: iso(createdMs(t)),
      updated_at: iso(createdMs(t)),
      deleted_at: null,
    };
    return withToken ? { ...h, token: tweetToken(token) } : h;
  });
}

/** `users` memoizes author records within one response (a page often repeats authors). */
export function tweetByTokenView(t: SandboxTweet, store: Store, nowMs: number, users = new Map<string, object>()) {
  const kol = store.kol(t.kolId);
  // The statistic carries the author's ranking_score as of this tweet (what op 8's minKolScore compares),
  // so the two operations agree even when a test fixed a tweet's KOL score.
  const key = `${kol.id}:${t.kolScore}`;
  let user = users.get(key);
  if (!user) {
    user = authorRecord(t, store, nowMs);
    users.set(key, user);
  }
  return {
    ...common(t),
    highlights: highlights(t, store, true),
    x_user_id: kol.id,
    is_shill_tweet: t.is_shill_tweet,
    metadata: null,
    created_at: iso(createdMs(t)),
    updated_at: iso(createdMs(t)),
    deleted_at: null,
    sentiment: t.sentiment,
    x_user: user,
  };
}

/** The op-7 author: KOL account record plus created/updated/deleted and `statistic` (2.8, 2.10). */
function authorRecord(t: SandboxTweet, store: Store, nowMs: number) {
  const kol = store.kol(t.kolId);
  return { ...kolRecord(kol), statistic: { ...statistic(kol, store, nowMs), ranking_score: t.kolScore } };
}

/**
 * How list-view (op 8) authors are served. The spec promises no field of them
 * (2.13), so the sandbox can be as lean as the real service may be:
 * `full`: the op-7 author record with its statistic; `minimal`: only id and
 * username; `mix`: minimal for odd tweet ids. The default serves full authors,
 * except for a share of the timed live feed (`leanAuthor`), so a bot run on the
 * embedded sandbox meets both shapes.
 */
export type AuthorShape = 'full' | 'minimal' | 'mix';

const listCache = new WeakMap<SandboxTweet, { full: object; lean: object }>();

export function isLeanAuthor(t: SandboxTweet, shape: AuthorShape): boolean {
  return shape === 'minimal' || (shape === 'mix' && t.id % 2 === 1) || t.leanAuthor === true;
}

/** List view; everything in it is fixed when the tweet is stored, so it is built once. */
export function tweetListView(t: SandboxTweet, store: Store, shape: AuthorShape = 'full', nowMs = Date.now()): object {
  let cached = listCache.get(t);
  if (!cached) {
    cached = buildListView(t, store, nowMs);
    listCache.set(t, cached);
  }
  return isLeanAuthor(t, shape) ? cached.lean : cached.full;
}

function buildListView(t: SandboxTweet, store: Store, nowMs: number): { full: object; lean: object } {
  const kol = store.kol(t.kolId);
  const tokens = t.tokenIds.map((id, i) => tweetToken(store.token(id), i === 0 ? t.tokenScore : undefined));
  const view = {
    ...common(t),
    highlights: highlights(t, store, false),
    videos: [],
    tweet_type: t.tweet_type,
    original_tweet: null,
    token: tokens[0],
    tokens,
    x_user: [authorRecord(t, store, nowMs)],
    last30_min_tweet_count: t.last30_min_tweet_count,
  };
  return { full: view, lean: { ...view, x_user: [{ id: kol.id, username: kol.username }] } };
}
