// Operations 4.7 (tweets by token address) and 4.8 (tweet feed), both cursor-paged.
import type { Ctx } from './ctx.ts';
import { cursorPage, decodeCursor, encodeCursor, sortByKey } from './paging.ts';
import { type Params, asChain, rangeFilter } from './params.ts';
import { kolHasLabel } from './routes-kol.ts';
import type { Store } from './store.ts';
import type { SandboxTweet } from './types.ts';
import { tweetByTokenView, tweetListView } from './views-tweet.ts';

type TweetKey = (t: SandboxTweet) => number;
const ORDER = ['ASC', 'DESC'] as const;

/** sortField of op 7 -> value: rankingScore and scoreV2 are the author's statistic values. */
function byTokenSortKeys(store: Store): Record<string, TweetKey> {
  return {
    tweetedAt: (t) => t.tweetedMs,
    rankingScore: (t) => t.kolScore,
    scoreV2: (t) => store.kol(t.kolId).stat.score_v2,
  };
}

const sortedCache = new WeakMap<Store, Map<string, SandboxTweet[]>>();

/** A token's tweets in another order; the list only grows, so its length tells a stale copy. */
function sortedCopy(store: Store, tokenId: number, field: string, list: SandboxTweet[], key: TweetKey): SandboxTweet[] {
  let m = sortedCache.get(store);
  if (!m) {
    m = new Map();
    sortedCache.set(store, m);
  }
  const k = `${tokenId}:${field}`;
  const hit = m.get(k);
  if (hit && hit.length === list.length) return hit;
  const sorted = sortByKey([...list], key, false);
  m.set(k, sorted);
  return sorted;
}

export function tweetsByToken(ctx: Ctx, p: Params, chainRaw: string, address: string) {
  const { store } = ctx;
  const chain = asChain(chainRaw);
  const limit = p.int('limit', 10, 1, 30);
  const labels = p.list('labels');
  const keys = byTokenSortKeys(store);
  const sortField = p.oneOf('sortField', Object.keys(keys), 'tweetedAt');
  const desc = p.oneOf('sortOrder', ORDER, 'DESC', true) === 'DESC';
  const after = decodeCursor(p.str('cursor'), sortField, desc);
  const token = store.findToken(chain, address);
  // No 404 is declared for this operation: an unknown token simply has no tweets.
  if (!token) return { items: [], next_cursor: null };
  const key = keys[sortField] as TweetKey;
  const list = store.tweetsByToken.get(token.id) ?? [];
  const sorted = sortField === 'tweetedAt' ? list : sortedCopy(store, token.id, sortField, list, key);
  const page = cursorPage(sorted, key, desc, after, limit, (t) => kolHasLabel(store.kol(t.kolId), labels));
  const now = ctx.now();
  const users = new Map<string, object>();
  return {
    items: page.items.map((t) => tweetByTokenView(t, store, now, users)),
    next_cursor: page.next ? encodeCursor(sortField, desc, page.next) : null,
  };
}

export function tweets(ctx: Ctx, p: Params) {
  const { store } = ctx;
  const limit = p.int('limit', 10, 1, 30);
  const labels = p.list('labels');
  const sortField = p.oneOf(
    'sortField',
    ['tweetedAt', 'tokenScore', 'kolScore', 'followerCount'] as const,
    'tweetedAt',
  );
  const desc = p.oneOf('sortOrder', ORDER, 'DESC', true) === 'DESC';
  const types = new Set(p.list('tweetTypes'));
  const chains = new Set<string>(p.chains('chainId'));
  const inRange = rangeFilter<SandboxTweet>(p, [
    ['minTokenScore', 'maxTokenScore', (t) => t.tokenScore],
    ['minKolScore', 'maxKolScore', (t) => t.kolScore],
    ['minFollowerCount', 'maxFollowerCount', (t) => store.kol(t.kolId).follower_count],
  ]);
  const after = decodeCursor(p.str('cursor'), sortField, desc);
  const index =
    sortField === 'tokenScore'
      ? store.byTokenScore
      : sortField === 'kolScore'
        ? store.byKolScore
        : sortField === 'followerCount'
          ? store.byFollowers
          : { items: store.data.tweets, key: (t: SandboxTweet) => t.tweetedMs };
  const keep = (t: SandboxTweet) =>
    (types.size === 0 || types.has(t.tweet_type)) &&
    (chains.size === 0 || chains.has(store.token(t.tokenIds[0] as number).chain_id)) &&
    inRange(t) &&
    kolHasLabel(store.kol(t.kolId), labels);
  const page = cursorPage(index.items, index.key, desc, after, limit, keep);
  const shape = ctx.authors();
  const now = ctx.now();
  return {
    items: page.items.map((t) => tweetListView(t, store, shape, now)),
    next_cursor: page.next ? encodeCursor(sortField, desc, page.next) : null,
  };
}
