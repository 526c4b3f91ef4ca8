import { seedExamples } from './examples.ts';
import { generateKols } from './gen-kols.ts';
import { generateTokens } from './gen-tokens.ts';
import { finishKols, generateTweets } from './gen-tweets.ts';
import { stream } from './prng.ts';
import { Store } from './store.ts';
import type { SandboxData, SandboxKol, SandboxToken, SandboxTweet } from './types.ts';

export const DEFAULT_SEED = 20240601;

export interface GenerateOptions {
  seed?: number;
  /** Anchor time in ms; seeded timestamps lie before it. Fix it to make two data sets byte-identical. */
  now?: number;
  tokenCount?: number;
  kolCount?: number;
  tweetCount?: number;
}

/** Builds the whole data set from a seed. Separate PRNG streams keep each part stable if another changes size. */
export function generateStore(opts: GenerateOptions = {}): Store {
  const seed = opts.seed ?? DEFAULT_SEED;
  const now = opts.now ?? Math.floor(Date.now() / 1000) * 1000;
  const { tokens, edge } = generateTokens(stream(seed, 1), opts.tokenCount ?? 360, now);
  // Edge tokens are mentioned throughout the history, so they must predate it.
  edge.cjk.createdMs = now - 200 * 86_400_000;
  edge.html.createdMs = now - 180 * 86_400_000;
  const { kols, rtl } = generateKols(stream(seed, 2), opts.kolCount ?? 160, now);
  const examples = seedExamples(tokens, kols, now, [edge.cjk, edge.html, rtl]);
  const data: SandboxData = {
    seed,
    now,
    tokens,
    kols,
    tweets: [],
    shills: [],
    edge: {
      cjkToken: edge.cjk,
      htmlToken: edge.html,
      rtlKol: rtl,
      // Set just below: the long tweet is generated with the others, into the store built on this object.
      longTweet: undefined as unknown as SandboxTweet,
    },
  };
  const store = new Store(data);
  data.edge.longTweet = generateTweets(store, stream(seed, 3), opts.tweetCount ?? 6000, {
    cjk: edge.cjk,
    html: edge.html,
    rtl,
    examples,
  });
  finishKols(store);
  return store;
}

export type { SandboxData, SandboxKol, SandboxToken, SandboxTweet };
