// New tweets arriving after start: a timer at a steady rate, or on demand for tests.
import { buildTweet } from './gen-tweets.ts';
import { type Rng, shuffle, stream, zipfSampler } from './prng.ts';
import type { Store } from './store.ts';
import type { SandboxKol, SandboxToken, SandboxTweet, TweetSeed } from './types.ts';

/** One timed live tweet in this many is served with a minimal author. */
const LEAN_SHARE = 4;
/**
 * One timed live tweet in this many is a notable shill: a high-scoring KOL with
 * a following, about a high-scoring token, as alerts with the default filters
 * want them. Drawn at random, such a pair is about one tweet in a thousand, so
 * a new user's first alert took half an hour; at the embedded rate this is one
 * about every minute.
 */
export const NOTABLE_SHARE = 12;
/**
 * What makes a pair notable: at or above the bot's default alert filters
 * (token score 70, KOL score 60, 10k followers; alerts/filters.ts), the KOL with some margin.
 */
const NOTABLE = { tokenScore: 70, kolScore: 62, followers: 15_000 } as const;

export class LiveFeed {
  private readonly store: Store;
  private readonly rng: Rng;
  private readonly tokenOrder: SandboxToken[];
  private readonly kolOrder: SandboxKol[];
  private readonly pickToken: (r: Rng) => number;
  private readonly pickKol: (r: Rng) => number;
  private timer: NodeJS.Timeout | undefined;
  private readonly clock: () => number;
  private timed = 0;
  private notable: { tokens: SandboxToken[]; kols: SandboxKol[] } | undefined;
  /**
   * How late the upstream indexes a tweet: a live tweet appears in the feed this
   * long after its tweet time (the part of an alert's delay no reader can remove).
   */
  indexDelayMs = 0;

  constructor(store: Store, seed: number, clock: () => number) {
    this.store = store;
    this.clock = clock;
    this.rng = stream(seed, 4);
    this.tokenOrder = shuffle(this.rng, [...store.data.tokens]);
    this.kolOrder = shuffle(this.rng, [...store.data.kols]);
    this.pickToken = zipfSampler(this.tokenOrder.length, 1.05);
    this.pickKol = zipfSampler(this.kolOrder.length, 0.75);
  }

  /** Appends n tweets stamped now (less the indexing delay), with ids above all previous ones; they are visible now. */
  add(n: number, o: Partial<TweetSeed> = {}): SandboxTweet[] {
    const { store, rng } = this;
    const main = o.token !== undefined ? store.resolveToken(o.token) : undefined;
    const extra = (o.tokens ?? []).map((t) => store.resolveToken(t));
    const kol = o.kol !== undefined ? store.resolveKol(o.kol) : undefined;
    const out: SandboxTweet[] = [];
    for (let i = 0; i < n; i++) {
      const first = main ?? (this.tokenOrder[this.pickToken(rng)] as SandboxToken);
      const tokens = [first, ...extra.filter((t) => t !== first)];
      const t = buildTweet(store, rng, {
        kol: kol ?? (this.kolOrder[this.pickKol(rng)] as SandboxKol),
        tokens,
        // The clock may step back (NTP); the feed must not.
        ms: Math.max(this.clock() - this.indexDelayMs, store.lastMs),
        type: o.tweet_type,
        content: o.content,
        sentiment: o.sentiment,
        tokenScore: o.tokenScore,
        kolScore: o.kolScore,
      });
      t.indexedMs = this.clock();
      store.append(t);
      out.push(t);
    }
    return out;
  }

  start(tweetsPerSecond: number): void {
    this.stop();
    if (!(tweetsPerSecond > 0)) return;
    const interval = Math.max(10, Math.min(1000, 1000 / tweetsPerSecond));
    let last = this.clock();
    let owed = 0;
    this.timer = setInterval(() => {
      const now = this.clock();
      owed += ((now - last) / 1000) * tweetsPerSecond;
      last = now;
      const n = Math.floor(owed);
      if (n > 0) {
        owed -= n;
        for (let i = 0; i < n; i++) {
          const pair = ++this.timed % NOTABLE_SHARE === 0 ? this.notablePair() : undefined;
          const [t] = this.add(1, pair ?? {});
          // A share of the timed feed carries spec-minimal authors, so the embedded sandbox shows both shapes.
          if (!pair && t && t.id % LEAN_SHARE === 0) t.leanAuthor = true;
        }
      }
    }, interval);
    this.timer.unref();
  }

  private notablePair(): Partial<TweetSeed> | undefined {
    this.notable ??= {
      tokens: this.store.data.tokens.filter((t) => t.avg_score >= NOTABLE.tokenScore && t.marketcap > 0),
      kols: this.store.data.kols.filter(
        (k) =>
          k.stat.ranking_score >= NOTABLE.kolScore && k.follower_count >= NOTABLE.followers && k.twitter_status === 1,
      ),
    };
    const { tokens, kols } = this.notable;
    if (!tokens.length || !kols.length) return undefined;
    const token = tokens[Math.floor(this.rng() * tokens.length)]!;
    const kol = kols[Math.floor(this.rng() * kols.length)]!;
    return { token: token.id, kol: kol.id };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
