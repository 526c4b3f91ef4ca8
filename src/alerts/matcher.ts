/**
 * Which subscriptions want which tweet. Compiled once per change of the
 * subscription set into buckets by chain, each sorted by its token-score floor,
 * so a tweet only walks the subscriptions whose cheapest test it can pass:
 * one feed page against 100,000 subscriptions stays in milliseconds.
 */
import type { TweetListItem } from '../api/index.ts';
import type { AlertFilters, FeedPosition, Subscription } from '../store/subscriptions.ts';
import type { ChainId } from '../domain/chains.ts';
import { tokenKeyOf } from '../domain/chains.ts';
import { feedAuthorFacts, type AuthorFacts } from './authors.ts';
import { fnv1a } from './hash.ts';
import { isUnspaced, keywordsIn, tweetWords, type TweetWords } from './rules.ts';

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

export interface CompiledSubscriptions {
  readonly size: number;
  /**
   * The subscriptions that want this tweet (no wrapper objects: a page can match 100,000s).
   * Those that would want it but filter on a fact that is unknown, or block a word the
   * tweet has, are pushed to `held`.
   */
  match(facts: TweetFacts, now: number, held?: Subscription[]): Subscription[];
}

/**
 * A bucket as parallel typed arrays, sorted by token-score floor. The hot loop
 * reads numbers in contiguous memory only: a pointer chase into 100,000
 * scattered subscription objects per tweet costs more than all the comparisons.
 * Labels and tweet types become bit masks, KOL lists and mutes 32-bit hashes
 * (in one flat array, CSR style); a subscription object is read only to confirm
 * a hash hit, which is rare unless it really matches.
 */
interface Bucket {
  readonly subs: Subscription[];
  readonly minToken: Float64Array;
  readonly minKol: Float64Array;
  readonly minFollowers: Float64Array;
  /** Epoch ms of the subscription's start position; -Infinity when it has none. */
  readonly startMs: Float64Array;
  /** Paused until (epoch ms); 0 when not paused. */
  readonly pausedUntil: Float64Array;
  /** 0: any label / type; else the bits of the accepted ones. */
  readonly labelMask: Uint32Array;
  readonly typeMask: Uint32Array;
  /** Hashes of allow-listed KOLs, denied KOLs, muted tokens and keywords, from listStart[i] to listStart[i+1]. */
  readonly listStart: Uint32Array;
  readonly listHash: Int32Array;
  readonly listKind: Uint8Array;
  /** 1: more distinct labels or types than bits; compare strings for this subscription. */
  readonly exact: Uint8Array;
}

const ALLOW = 1;
const DENY = 2;
const MUTED = 3;
const KEYWORD = 4;
const BLOCKED = 5;
/** Added to a keyword kind: a keyword in an unspaced script, found inside the text, not by its hash. */
const INSIDE = 8;

/** A cheap fingerprint, signed to fit the Int32Array index; every hit is confirmed on the strings. */
const hash32 = (text: string): number => fnv1a(text) | 0;

/** Names numbered as bits (labels, tweet types); past 32 distinct names, `overflow` is set. */
class Bits {
  readonly #bits = new Map<string, number>();
  maskFor(names: readonly string[]): number | undefined {
    let m = 0;
    for (const name of names) {
      let b = this.#bits.get(name);
      if (b === undefined) {
        if (this.#bits.size >= 32) return undefined;
        b = 2 ** this.#bits.size;
        this.#bits.set(name, b);
      }
      m |= b;
    }
    return m >>> 0;
  }
  maskOf(names: readonly string[]): number {
    let m = 0;
    for (const name of names) m |= this.#bits.get(name) ?? 0;
    return m >>> 0;
  }
}

function bucketOf(subs: Subscription[], labels: Bits, types: Bits): Bucket {
  subs.sort((x, y) => x.filters.minTokenScore - y.filters.minTokenScore);
  const n = subs.length;
  const hashes: number[] = [];
  const kinds: number[] = [];
  const b: Bucket = {
    subs,
    minToken: new Float64Array(n),
    minKol: new Float64Array(n),
    minFollowers: new Float64Array(n),
    startMs: new Float64Array(n),
    pausedUntil: new Float64Array(n),
    labelMask: new Uint32Array(n),
    typeMask: new Uint32Array(n),
    listStart: new Uint32Array(n + 1),
    listHash: new Int32Array(0),
    listKind: new Uint8Array(0),
    exact: new Uint8Array(n),
  };
  subs.forEach((s, i) => {
    const f = s.filters;
    b.minToken[i] = f.minTokenScore;
    b.minKol[i] = f.minKolScore;
    b.minFollowers[i] = f.minFollowers;
    b.startMs[i] = s.startAfter ? Date.parse(s.startAfter.tweetedAt) : -Infinity;
    b.pausedUntil[i] = s.pausedUntil ?? 0;
    const lm = labels.maskFor(f.labels);
    const tm = types.maskFor(f.tweetTypes);
    b.labelMask[i] = lm ?? 0;
    b.typeMask[i] = tm ?? 0;
    b.exact[i] = lm === undefined || tm === undefined ? 1 : 0;
    b.listStart[i] = hashes.length;
    for (const [kind, list] of [
      [ALLOW, f.allowKols],
      [DENY, f.denyKols],
      [MUTED, s.mutedTokens],
    ] as const) {
      for (const item of list) {
        hashes.push(hash32(item));
        kinds.push(kind);
      }
    }
    for (const [kind, list] of [
      [KEYWORD, f.keywords ?? []],
      [BLOCKED, f.blockKeywords ?? []],
    ] as const) {
      for (const word of list) {
        hashes.push(hash32(word));
        kinds.push(isUnspaced(word) ? kind + INSIDE : kind);
      }
    }
  });
  b.listStart[n] = hashes.length;
  return { ...b, listHash: Int32Array.from(hashes), listKind: Uint8Array.from(kinds) };
}

/** The exact check, for the rare subscription whose labels or types did not fit the bit masks. */
function exactAccepts(sub: Subscription, t: TweetFacts): boolean {
  const f = sub.filters;
  if (f.tweetTypes.length && !f.tweetTypes.includes(t.tweetType)) return false;
  if (f.labels.length && t.labels && !f.labels.some((l) => t.labels!.includes(l))) return false;
  return true;
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
      if (!g) {
        g = [];
        groups.set(c, g);
      }
      g.push(s);
    }
  }
  const labels = new Bits();
  const types = new Bits();
  const buckets = new Map([...groups].map(([k, g]) => [k, bucketOf(g, labels, types)]));
  return {
    size,
    match(facts, now, held) {
      const out: Subscription[] = [];
      const tweetMs = Date.parse(facts.position.tweetedAt);
      const { tokenScore, username, tokenKey, words, wordHashes } = facts;
      // Unknown is NaN here: every comparison with it is false, so it passes the hot loop's
      // threshold tests and is caught by the unknown check just before a match.
      const kolScore = facts.kolScore ?? NaN;
      const followers = facts.followers ?? NaN;
      const unknownKol = facts.kolScore === null;
      const unknownFollowers = facts.followers === null;
      const unknownLabels = facts.labels === null;
      const anyUnknown = unknownKol || unknownFollowers || unknownLabels;
      const tweetLabels = labels.maskOf(facts.labels ?? []);
      const tweetType = types.maskOf([facts.tweetType]);
      const userHash = hash32(username);
      const tokenHash = hash32(tokenKey);
      for (const key of [facts.chain, '*']) {
        const b = buckets.get(key);
        if (!b) continue;
        const {
          subs,
          minToken,
          minKol,
          minFollowers,
          startMs,
          pausedUntil,
          labelMask,
          typeMask,
          listStart,
          listHash,
          listKind,
          exact,
        } = b;
        const n = subs.length;
        next: for (let i = 0; i < n; i++) {
          if (minToken[i]! > tokenScore) break; // sorted: nobody further wants it
          if (minKol[i]! > kolScore || minFollowers[i]! > followers || startMs[i]! > tweetMs || pausedUntil[i]! > now)
            continue;
          const lm = labelMask[i]!;
          if (lm !== 0 && !unknownLabels && (lm & tweetLabels) === 0) continue;
          const tm = typeMask[i]!;
          if (tm !== 0 && (tm & tweetType) === 0) continue;
          const from = listStart[i]!;
          const to = listStart[i + 1]!;
          let blocked = false;
          if (from !== to) {
            let allowList = false;
            let allowed = false;
            let wordList = false;
            let said = false;
            for (let j = from; j < to; j++) {
              const kind = listKind[j]!;
              if (kind === ALLOW) {
                allowList = true;
                if (listHash[j] === userHash && subs[i]!.filters.allowKols.includes(username)) allowed = true;
              } else if (kind === DENY) {
                if (listHash[j] === userHash && subs[i]!.filters.denyKols.includes(username)) continue next;
              } else if (kind === MUTED) {
                if (listHash[j] === tokenHash && subs[i]!.mutedTokens.includes(tokenKey)) continue next;
              } else {
                // A hash hit (or an unspaced keyword) is confirmed on the words themselves.
                const maybe = kind > INSIDE || wordHashes.has(listHash[j]!);
                if (kind % INSIDE === KEYWORD) {
                  wordList = true;
                  if (!said && maybe) said = keywordsIn(words, subs[i]!.filters.keywords).length > 0;
                } else if (!blocked && maybe) blocked = keywordsIn(words, subs[i]!.filters.blockKeywords).length > 0;
              }
            }
            if ((allowList && !allowed) || (wordList && !said)) continue;
          }
          const sub = subs[i]!;
          if (exact[i] === 1 && !exactAccepts(sub, facts)) continue;
          // Same second as the start position: only the exact feed order can tell.
          if (startMs[i] === tweetMs && !isAfter(facts.position, sub.startAfter!)) continue;
          if (
            blocked ||
            (anyUnknown &&
              ((unknownKol && minKol[i]! > 0) ||
                (unknownFollowers && minFollowers[i]! > 0) ||
                (unknownLabels && sub.filters.labels.length > 0)))
          ) {
            held?.push(sub);
            continue;
          }
          out.push(sub);
        }
      }
      return out;
    },
  };
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
