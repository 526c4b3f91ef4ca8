/**
 * Which subscriptions want which tweet. Compiled once per change of the
 * subscription set into buckets by chain, each sorted by its token-score floor,
 * so a tweet only walks the subscriptions whose cheapest test it can pass:
 * one feed page against 100,000 subscriptions stays in milliseconds.
 */
import type { TweetListItem } from '../api/index.ts';
import type { FeedPosition, Subscription } from '../store/subscriptions.ts';
import type { ChainId } from '../api/chains.ts';
import type { AlertFilters } from './filters.ts';
import { int } from '../views/format.ts';

/** The facts of a tweet that filters look at, read once per tweet. */
export interface TweetFacts {
  readonly tweet: TweetListItem;
  readonly position: FeedPosition;
  readonly chain: string;
  /** `chain:address`, the unit of cooldowns and mutes. */
  readonly tokenKey: string;
  readonly tokenScore: number;
  readonly kolScore: number;
  readonly followers: number;
  readonly username: string;
  readonly labels: readonly string[];
  readonly tweetType: string;
}

/** A (tweet, subscription) pair; the reason line is built later, only for alerts that are sent. */
export interface Match {
  readonly facts: TweetFacts;
  readonly sub: Subscription;
}

export function tweetFacts(tweet: TweetListItem): TweetFacts | undefined {
  const token = tweet.token;
  const author = tweet.x_user[0];
  if (!token || !author) return undefined;
  return {
    tweet,
    position: { tweetedAt: tweet.tweeted_at, id: tweet.id },
    chain: token.chain_id,
    tokenKey: `${token.chain_id}:${token.token_address}`,
    tokenScore: token.avg_score,
    kolScore: author.ranking_score ?? 0,
    followers: author.follower_count ?? 0,
    username: (author.username ?? '').toLowerCase(),
    labels: (author.labels ?? []).map((l) => l.toLowerCase()),
    tweetType: tweet.tweet_type.toLowerCase(),
  };
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

export interface CompiledSubscriptions {
  readonly size: number;
  /** The subscriptions that want this tweet (no wrapper objects: a page can match 100,000s). */
  match(facts: TweetFacts, now: number): Subscription[];
}

/**
 * A bucket as parallel typed arrays: the hot loop compares numbers in
 * contiguous memory and touches a subscription object only for the few checks
 * that need one (labels, lists, mutes, pauses, a start position in the same second).
 */
interface Bucket {
  readonly subs: Subscription[];
  readonly minToken: Float64Array;
  readonly minKol: Float64Array;
  readonly minFollowers: Float64Array;
  /** Epoch ms of the subscription's start position; -Infinity when it has none. */
  readonly startMs: Float64Array;
  /** 1 when the thresholds and start time alone decide. */
  readonly simple: Uint8Array;
}

function bucketOf(subs: Subscription[]): Bucket {
  subs.sort((x, y) => x.filters.minTokenScore - y.filters.minTokenScore);
  const n = subs.length;
  const b: Bucket = {
    subs,
    minToken: new Float64Array(n),
    minKol: new Float64Array(n),
    minFollowers: new Float64Array(n),
    startMs: new Float64Array(n),
    simple: new Uint8Array(n),
  };
  subs.forEach((s, i) => {
    const f = s.filters;
    b.minToken[i] = f.minTokenScore;
    b.minKol[i] = f.minKolScore;
    b.minFollowers[i] = f.minFollowers;
    b.startMs[i] = s.startAfter ? Date.parse(s.startAfter.tweetedAt) : -Infinity;
    const plain = !f.tweetTypes.length && !f.labels.length && !f.allowKols.length && !f.denyKols.length && !s.mutedTokens.length && s.pausedUntil === null;
    b.simple[i] = plain ? 1 : 0;
  });
  return b;
}

export function compile(subs: readonly Subscription[]): CompiledSubscriptions {
  const groups = new Map<string, Subscription[]>();
  let size = 0;
  for (const s of subs) {
    if (s.disabled) continue;
    size++;
    const chains = s.filters.chains.length ? s.filters.chains : ['*'];
    for (const c of chains) {
      let g = groups.get(c);
      if (!g) groups.set(c, (g = []));
      g.push(s);
    }
  }
  const buckets = new Map([...groups].map(([k, g]) => [k, bucketOf(g)]));
  return {
    size,
    match(facts, now) {
      const out: Subscription[] = [];
      const tweetMs = Date.parse(facts.position.tweetedAt);
      const { tokenScore, kolScore, followers } = facts;
      for (const key of [facts.chain, '*']) {
        const b = buckets.get(key);
        if (!b) continue;
        const n = b.subs.length;
        for (let i = 0; i < n; i++) {
          if (b.minToken[i]! > tokenScore) break; // sorted: nobody further wants it
          if (b.minKol[i]! > kolScore || b.minFollowers[i]! > followers || b.startMs[i]! > tweetMs) continue;
          const sub = b.subs[i]!;
          if ((b.simple[i] === 1 && b.startMs[i]! < tweetMs) || accepts(sub, facts, now)) out.push(sub);
        }
      }
      return out;
    },
  };
}

function accepts(sub: Subscription, t: TweetFacts, now: number): boolean {
  const f = sub.filters;
  if (sub.pausedUntil !== null && sub.pausedUntil > now) return false;
  if (t.kolScore < f.minKolScore || t.followers < f.minFollowers) return false;
  if (sub.startAfter && !isAfter(t.position, sub.startAfter)) return false;
  if (f.tweetTypes.length && !f.tweetTypes.includes(t.tweetType)) return false;
  if (f.labels.length && !f.labels.some((l) => t.labels.includes(l))) return false;
  if (f.allowKols.length && !f.allowKols.includes(t.username)) return false;
  if (f.denyKols.includes(t.username)) return false;
  if (sub.mutedTokens.includes(t.tokenKey)) return false;
  return true;
}

/** "token score 82 >= 70, KOL score 64 >= 60, 12,300 followers >= 10,000" */
export function reasonLine(f: AlertFilters, t: TweetFacts): string {
  const n = (x: number) => Math.round(x * 10) / 10;
  const parts = [
    `token score ${n(t.tokenScore)} >= ${f.minTokenScore}`,
    `KOL score ${n(t.kolScore)} >= ${f.minKolScore}`,
    `${int(t.followers)} followers >= ${int(f.minFollowers)}`,
  ];
  if (f.allowKols.length) parts.push(`@${t.username} is on the list`);
  if (f.labels.length) parts.push(`label ${f.labels.filter((l) => t.labels.includes(l)).join('/')}`);
  return parts.join(', ');
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
