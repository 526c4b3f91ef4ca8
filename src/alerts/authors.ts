/**
 * Author facts for alerts (KOL score, followers, labels), each from a field the
 * spec documents. The feed (op 8) promises no author field at all (2.8, 2.13):
 * what it does carry under documented names is used, the rest comes from
 * operation 7 (tweets by token), whose `x_user` is the full KOL account record
 * with its `statistic` (2.4, 2.10): one request per token answers for every new
 * tweet about it, since a new tweet is among its token's newest. Answers are
 * cached per author for minutes and shared by every subscription. A fact still
 * missing is unknown (null), never 0: a filter on it holds the tweet back.
 *
 * Other documented sources were weighed: op 6 (KOL score) has no ranking_score;
 * op 5's and op 9's rows carry followers or labels but not ranking_score, and
 * finding one KOL there takes a search per author, not per token.
 */
import type { Logger } from 'pino';
import type { ChainId } from '../domain/chains.ts';
import { TtlCache } from '../api/cache.ts';
import type { KolClient, TokenTweet, TweetAuthor, TweetListItem } from '../api/index.ts';

export interface AuthorFacts {
  /** The author's statistic ranking_score (2.10). */
  readonly kolScore: number | null;
  readonly followers: number | null;
  readonly labels: readonly string[] | null;
  readonly username: string | null;
  readonly displayName: string | null;
}

export interface LookupStats {
  /** Operation 7 requests made. */
  requests: number;
  /** Tweets answered from the per-author cache. */
  cacheHits: number;
  /** Tweets whose KOL score, followers or labels stayed unknown after the lookup. */
  unknown: number;
}

export interface AuthorLookup {
  /** Facts for each tweet (by tweet id); the feed's own first, then cache, then one op-7 request per token. */
  fill(
    tweets: readonly TweetListItem[],
    o: { budgetMs: number; signal?: AbortSignal },
  ): Promise<{ facts: Map<string, AuthorFacts>; stats: LookupStats }>;
}

/** Default lifetime of a cached author: scores and follower counts move slowly. */
export const AUTHOR_TTL_MS = 10 * 60_000;

/** Parallel op-7 requests of one lookup: a backlog of hundreds of tokens must not flood the upstream. */
const CONCURRENCY = 4;

/** What the feed item itself says about its author, under documented names only. */
export function feedAuthorFacts(a: TweetAuthor | undefined): AuthorFacts {
  return {
    kolScore: finite(a?.statistic?.ranking_score),
    followers: finite(a?.follower_count),
    labels: a?.labels ?? null,
    username: a?.username || null,
    displayName: a?.display_name || null,
  };
}

export function isComplete(f: AuthorFacts): boolean {
  return f.kolScore !== null && f.followers !== null && f.labels !== null && f.username !== null;
}

function finite(x: number | undefined): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

function fromRecord(u: TokenTweet['x_user']): AuthorFacts {
  return {
    kolScore: finite(u.statistic.ranking_score),
    followers: finite(u.follower_count),
    labels: u.labels,
    username: u.username || null,
    displayName: u.display_name || null,
  };
}

/** Keeps what the feed said; fills only what it lacked. */
function merge(own: AuthorFacts, more: AuthorFacts): AuthorFacts {
  return {
    kolScore: own.kolScore ?? more.kolScore,
    followers: own.followers ?? more.followers,
    labels: own.labels ?? more.labels,
    username: own.username ?? more.username,
    displayName: own.displayName ?? more.displayName,
  };
}

const authorKeys = (id: string | undefined, username: string | null | undefined): string[] => [
  ...(id ? [`id:${id}`] : []),
  ...(username ? [`@${username.toLowerCase()}`] : []),
];

export function createAuthorLookup(o: {
  api: KolClient;
  log: Logger;
  ttlMs?: number;
  now?: () => number;
  maxEntries?: number;
}): AuthorLookup {
  const ttlMs = o.ttlMs ?? AUTHOR_TTL_MS;
  const now = o.now ?? Date.now;
  const cache = new TtlCache<AuthorFacts>(o.maxEntries ?? 20_000);

  const cached = (a: TweetAuthor | undefined): AuthorFacts | undefined => {
    for (const k of authorKeys(a?.id, a?.username)) {
      const hit = cache.get(k, now());
      if (hit) return hit;
    }
    return undefined;
  };

  return {
    async fill(tweets, opt) {
      const stats: LookupStats = { requests: 0, cacheHits: 0, unknown: 0 };
      const facts = new Map<string, AuthorFacts>();
      const byToken = new Map<string, { chain: ChainId; address: string; tweets: TweetListItem[] }>();
      for (const t of tweets) {
        const author = t.x_user[0];
        const own = feedAuthorFacts(author);
        if (isComplete(own)) {
          facts.set(t.id, own);
          continue;
        }
        const hit = cached(author);
        if (hit) {
          stats.cacheHits++;
          facts.set(t.id, merge(own, hit));
          continue;
        }
        facts.set(t.id, own);
        const key = `${t.token.chain_id}:${t.token.token_address}`;
        let g = byToken.get(key);
        if (!g) {
          g = { chain: t.token.chain_id as ChainId, address: t.token.token_address, tweets: [] };
          byToken.set(key, g);
        }
        g.tweets.push(t);
      }
      const groups = [...byToken.values()];
      const work = async () => {
        for (let g = groups.shift(); g; g = groups.shift()) {
          stats.requests++;
          let items: TokenTweet[];
          try {
            // Newest first (the default order): the new tweets of this tick are on the first page.
            const r = await o.api.getTweetsByToken(
              { chainId: g.chain, tokenAddress: g.address, limit: 30 },
              { budgetMs: opt.budgetMs, cache: 'bypass', ...(opt.signal ? { signal: opt.signal } : {}) },
            );
            items = r.items;
          } catch (err) {
            o.log.warn(
              { token: `${g.chain}:${g.address}`, err },
              'author lookup failed; their facts stay unknown this tick',
            );
            continue;
          }
          // The same tweet in both views has the same id (2.8); authors also by id and username.
          const byTweet = new Map<string, AuthorFacts>();
          for (const it of items) {
            const f = fromRecord(it.x_user);
            byTweet.set(it.id, f);
            for (const k of authorKeys(it.x_user.id, it.x_user.username)) cache.set(k, f, ttlMs, now());
          }
          for (const t of g.tweets) {
            const author = t.x_user[0];
            const found = byTweet.get(t.id) ?? cached(author);
            if (found) facts.set(t.id, merge(facts.get(t.id)!, found));
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, groups.length) }, work));
      for (const t of tweets) if (!isComplete(facts.get(t.id)!)) stats.unknown++;
      return { facts, stats };
    },
  };
}
