// New tweets arriving after start: a timer at a steady rate, or on demand for tests.
import { buildTweet } from './gen-tweets.ts';
import { type Rng, shuffle, stream, zipfSampler } from './prng.ts';
import type { Store } from './store.ts';
import type { SandboxKol, SandboxToken, SandboxTweet, TweetSeed } from './types.ts';

/** One timed live tweet in this many is served with a minimal author. */
const LEAN_SHARE = 4;

export class LiveFeed {
  private readonly store: Store;
  private readonly rng: Rng;
  private readonly tokenOrder: SandboxToken[];
  private readonly kolOrder: SandboxKol[];
  private readonly pickToken: (r: Rng) => number;
  private readonly pickKol: (r: Rng) => number;
  private timer: NodeJS.Timeout | undefined;
  private readonly clock: () => number;

  constructor(store: Store, seed: number, clock: () => number) {
    this.store = store;
    this.clock = clock;
    this.rng = stream(seed, 4);
    this.tokenOrder = shuffle(this.rng, [...store.data.tokens]);
    this.kolOrder = shuffle(this.rng, [...store.data.kols]);
    this.pickToken = zipfSampler(this.tokenOrder.length, 1.05);
    this.pickKol = zipfSampler(this.kolOrder.length, 0.75);
  }

  /** Appends n tweets stamped now, with ids above all previous ones. */
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
        ms: Math.max(this.clock(), store.lastMs),
        type: o.tweet_type,
        content: o.content,
        sentiment: o.sentiment,
        tokenScore: o.tokenScore,
        kolScore: o.kolScore,
      });
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
        // A share of the timed feed carries spec-minimal authors, so the embedded sandbox shows both shapes.
        for (const t of this.add(n)) if (t.id % LEAN_SHARE === 0) t.leanAuthor = true;
      }
    }, interval);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
