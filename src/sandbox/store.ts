// Generated data plus the lookups and pre-sorted indexes the routes need to answer in microseconds.
import type { SandboxData, SandboxKol, SandboxToken, SandboxTweet, Shill } from './types.ts';

export type TweetKey = (t: SandboxTweet) => number;

/** Array kept sorted ascending by (key, id); insertion by binary search keeps live appends cheap. */
class SortedTweets {
  readonly items: SandboxTweet[] = [];
  readonly key: TweetKey;
  constructor(key: TweetKey) {
    this.key = key;
  }
  insert(t: SandboxTweet): void {
    const k = this.key(t);
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.items[mid] as SandboxTweet;
      const mk = this.key(m);
      if (mk < k || (mk === k && m.id < t.id)) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, t);
  }
  rebuild(all: readonly SandboxTweet[]): void {
    const keyed = all.map((t) => ({ t, k: this.key(t) }));
    keyed.sort((a, b) => a.k - b.k || a.t.id - b.t.id);
    this.items.length = 0;
    for (const x of keyed) this.items.push(x.t);
  }
}

function normAddress(chain: string, address: string): string {
  // EVM addresses are case-insensitive (checksum casing is cosmetic); others are exact.
  return chain === 'bsc' || chain === 'base' ? `${chain}:${address.toLowerCase()}` : `${chain}:${address}`;
}

export class Store {
  readonly data: SandboxData;
  readonly tokenById = new Map<number, SandboxToken>();
  readonly tokenByKey = new Map<string, SandboxToken>();
  readonly kolById = new Map<number, SandboxKol>();
  readonly kolByTwitterId = new Map<string, SandboxKol>();
  readonly kolByUsername = new Map<string, SandboxKol>();
  readonly tweetsByToken = new Map<number, SandboxTweet[]>();
  readonly tweetsByKol = new Map<number, SandboxTweet[]>();
  readonly shillsByKol = new Map<number, Shill[]>();
  readonly mentionedPairs = new Set<string>();
  readonly byTokenScore = new SortedTweets((t) => t.tokenScore);
  readonly byKolScore = new SortedTweets((t) => t.kolScore);
  readonly byFollowers: SortedTweets;
  nextHighlightId = 1;
  lastMs = 0;

  constructor(data: SandboxData) {
    this.data = data;
    for (const t of data.tokens) {
      this.tokenById.set(t.id, t);
      this.tokenByKey.set(normAddress(t.chain_id, t.address), t);
      this.tweetsByToken.set(t.id, []);
    }
    for (const k of data.kols) {
      this.kolById.set(k.id, k);
      this.kolByTwitterId.set(k.twitter_id, k);
      this.kolByUsername.set(k.username.toLowerCase(), k);
      this.tweetsByKol.set(k.id, []);
      this.shillsByKol.set(k.id, []);
    }
    this.byFollowers = new SortedTweets((t) => this.kol(t.kolId).follower_count);
  }

  token(id: number): SandboxToken {
    const t = this.tokenById.get(id);
    if (!t) throw new Error(`unknown token id ${id}`);
    return t;
  }

  kol(id: number): SandboxKol {
    const k = this.kolById.get(id);
    if (!k) throw new Error(`unknown KOL id ${id}`);
    return k;
  }

  findToken(chain: string, address: string): SandboxToken | undefined {
    return this.tokenByKey.get(normAddress(chain, address));
  }

  /** Token by id or by address on any chain (for test overrides). */
  resolveToken(ref: number | string): SandboxToken {
    const t =
      typeof ref === 'number'
        ? this.tokenById.get(ref)
        : this.data.tokens.find((x) => normAddress(x.chain_id, ref) === normAddress(x.chain_id, x.address));
    if (!t) throw new Error(`unknown token ${String(ref)}`);
    return t;
  }

  /** KOL by id, username or twitter_id (for test overrides). */
  resolveKol(ref: number | string): SandboxKol {
    const k =
      typeof ref === 'number'
        ? this.kolById.get(ref)
        : (this.kolByTwitterId.get(ref) ?? this.kolByUsername.get(ref.toLowerCase()));
    if (!k) throw new Error(`unknown KOL ${String(ref)}`);
    return k;
  }

  get lastTweetId(): number {
    return this.data.tweets.at(-1)?.id ?? 0;
  }

  /**
   * Adds a tweet built with the next id; ids and times only grow so feed cursors stay valid.
   * Bulk loading passes index=false and calls rebuildIndexes() once at the end.
   */
  append(t: SandboxTweet, index = true): void {
    if (t.id <= this.lastTweetId || t.tweetedMs < this.lastMs)
      throw new Error('tweets must be appended in id and time order');
    this.lastMs = t.tweetedMs;
    this.data.tweets.push(t);
    for (const tokenId of new Set(t.tokenIds)) this.tweetsByToken.get(tokenId)?.push(t);
    this.tweetsByKol.get(t.kolId)?.push(t);
    if (!index) return;
    this.byTokenScore.insert(t);
    this.byKolScore.insert(t);
    this.byFollowers.insert(t);
  }

  rebuildIndexes(): void {
    for (const ix of [this.byTokenScore, this.byKolScore, this.byFollowers]) ix.rebuild(this.data.tweets);
  }

  /** Count of tweets highlighting a token in [fromMs, toMs). */
  countTokenTweets(tokenId: number, fromMs: number, toMs: number): number {
    const list = this.tweetsByToken.get(tokenId) ?? [];
    return lowerBoundMs(list, toMs) - lowerBoundMs(list, fromMs);
  }
}

/** First index in a time-ordered tweet list whose time is >= ms. */
export function lowerBoundMs(list: readonly SandboxTweet[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as SandboxTweet).tweetedMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
