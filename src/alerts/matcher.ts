/**
 * The facts of a tweet that subscriptions filter on, and feed order. The index
 * that matches them against every subscription is subindex.ts.
 */
import type { TweetListItem } from '../api/index.ts';
import type { AlertFilters, FeedPosition, Subscription } from '../store/subscriptions.ts';
import type { ChainId } from '../domain/chains.ts';
import { tokenKeyOf } from '../domain/chains.ts';
import { feedAuthorFacts, type AuthorFacts } from './authors.ts';
import { fnv1a } from './hash.ts';
import { tweetWords, type TweetWords } from './rules.ts';

/** A cheap fingerprint of a word, signed to fit the index's Int32Arrays; every hit is confirmed on the strings. */
export const hash32 = (text: string): number => fnv1a(text) | 0;

/** The facts of a tweet that filters look at, read once per tweet. */
export interface TweetFacts {
  readonly tweet: TweetListItem;
  readonly position: FeedPosition;
  readonly chain: string;
  /** `chain:address`, the unit of cooldowns and mutes. */
  readonly tokenKey: string;
  readonly tokenScore: number;
  /** null: unknown (neither the feed nor a lookup said); a filter on it holds the tweet back. */
  readonly kolScore: number | null;
  readonly followers: number | null;
  readonly username: string;
  readonly displayName: string | null;
  readonly labels: readonly string[] | null;
  readonly tweetType: string;
  /** The tweet's words, for keyword filters, and their hashes for the hot loop. */
  readonly words: TweetWords;
  readonly wordHashes: ReadonlySet<number>;
}

/** A (tweet, subscription) pair; the reason line is built later, only for alerts that are sent. */
export interface Match {
  readonly facts: TweetFacts;
  readonly sub: Subscription;
}

/** The facts of a tweet; `author` adds what a lookup found (see authors.ts). Token score is the tweet token's avg_score (2.9). */
export function tweetFacts(
  tweet: TweetListItem,
  author: AuthorFacts = feedAuthorFacts(tweet.x_user[0]),
): TweetFacts | undefined {
  const token = tweet.token;
  if (!token || !tweet.x_user[0]) return undefined;
  return {
    tweet,
    position: { tweetedAt: tweet.tweeted_at, id: tweet.id },
    chain: token.chain_id,
    tokenKey: tokenKeyOf(token.chain_id, token.token_address),
    tokenScore: token.avg_score,
    kolScore: author.kolScore,
    followers: author.followers,
    username: (author.username ?? '').toLowerCase(),
    displayName: author.displayName,
    labels: author.labels ? author.labels.map((l) => l.toLowerCase()) : null,
    tweetType: tweet.tweet_type.toLowerCase(),
    ...wordsOf(tweet.content),
  };
}

function wordsOf(content: string): { words: TweetWords; wordHashes: ReadonlySet<number> } {
  const words = tweetWords(content);
  return { words, wordHashes: new Set([...words.words].map(hash32)) };
}

export function hasUnknowns(f: TweetFacts): boolean {
  return f.kolScore === null || f.followers === null || f.labels === null || f.username === '';
}

/** Newest-first feed order: is `a` after (newer than) `b`? */
export function isAfter(a: FeedPosition, b: FeedPosition): boolean {
  const ta = Date.parse(a.tweetedAt);
  const tb = Date.parse(b.tweetedAt);
  if (ta !== tb) return ta > tb;
  return compareIds(a.id, b.id) > 0;
}

/** Numeric comparison of decimal id strings (no precision loss above 2^53). */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The server-side filters every active subscription allows: the loosest
 * thresholds and the union of chains. Fetching with them returns a superset
 * of what any subscription wants, and usually far fewer tweets than the feed.
 */
export function loosestFilters(subs: readonly Subscription[]): {
  minTokenScore?: number;
  minKolScore?: number;
  minFollowerCount?: number;
  chainId?: ChainId[];
  tweetTypes?: string[];
} {
  const live = subs.filter((s) => !s.disabled);
  if (!live.length) return {};
  // A loop, not Math.min(...spread): 100,000 arguments can overflow the stack.
  const min = (pick: (f: AlertFilters) => number) => live.reduce((m, s) => Math.min(m, pick(s.filters)), Infinity);
  const everyChain = live.some((s) => s.filters.chains.length === 0);
  const everyType = live.some((s) => s.filters.tweetTypes.length === 0);
  const out: ReturnType<typeof loosestFilters> = {};
  const t = min((f) => f.minTokenScore);
  const k = min((f) => f.minKolScore);
  const fc = min((f) => f.minFollowers);
  if (t > 0) out.minTokenScore = t;
  if (k > 0) out.minKolScore = k;
  if (fc > 0) out.minFollowerCount = fc;
  if (!everyChain) out.chainId = [...new Set(live.flatMap((s) => s.filters.chains))].sort();
  if (!everyType) out.tweetTypes = [...new Set(live.flatMap((s) => s.filters.tweetTypes))].sort();
  return out;
}
