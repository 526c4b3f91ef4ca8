/**
 * What the watcher saw, per hour, for digests: how many feed tweets shilled
 * each token, in the hour the watcher read them (it reads every tweet already).
 * A digest's "most shilled" is then of its period, not the upstream's all-time
 * mention count. Bounded: the top TOKENS_KEPT tokens of each hour, kept for
 * eight days (a weekly digest and a day late). Each hour the watcher read the
 * feed is marked, so a digest knows whether the counts cover its period; a
 * batch is counted once (a tick repeated after a failure adds nothing).
 */
import type { TweetListItem } from '../api/index.ts';
import { tokenKeyOf } from '../domain/chains.ts';
import type { Kv } from '../store/strict.ts';

const HOUR = 3_600_000;
/** Tokens kept per hour: enough for any digest's top list, bounded whatever the feed does. */
export const TOKENS_KEPT = 100;
const KEEP_MS = 8 * 24 * HOUR;
/** Batches remembered per hour for the repeat check; a repeat follows its failure at once. */
const BATCHES_KEPT = 20;

export interface ShillCount {
  readonly n: number;
  readonly symbol: string;
  readonly chain: string;
}

interface Bucket {
  readonly tokens: Readonly<Record<string, ShillCount>>;
  readonly batches: readonly string[];
}

const bucketKey = (hour: number) => `shills:${hour}`;

/** Adds this batch's tweets to the current hour (the hour the watcher read them), and marks the hour read. */
export async function recordShills(
  kv: Kv,
  tweets: readonly TweetListItem[],
  batchId: string,
  now: number,
): Promise<void> {
  const hour = Math.floor(now / HOUR);
  const key = bucketKey(hour);
  const b = (await kv.get<Bucket>(key)) ?? { tokens: {}, batches: [] };
  if (batchId && b.batches.includes(batchId)) return;
  const tokens: Record<string, ShillCount> = { ...b.tokens };
  for (const t of tweets) {
    if (!t.token) continue;
    const k = tokenKeyOf(t.token.chain_id, t.token.token_address);
    const was = tokens[k];
    tokens[k] = { n: (was?.n ?? 0) + 1, symbol: t.token.symbol, chain: t.token.chain_id };
  }
  const kept = Object.entries(tokens)
    .sort((x, y) => y[1].n - x[1].n)
    .slice(0, TOKENS_KEPT);
  await kv.set(
    key,
    { tokens: Object.fromEntries(kept), batches: batchId ? [...b.batches, batchId].slice(-BATCHES_KEPT) : b.batches },
    KEEP_MS,
  );
}

export interface PeriodShills {
  /** Every hour of the period was read by the watcher (the current hour may be partial). */
  readonly covered: boolean;
  /** Most shilled first. */
  readonly tokens: readonly (ShillCount & { readonly key: string })[];
}

/** The period's counts, summed over its hours [from, to). */
export async function periodShills(kv: Kv, from: number, to: number): Promise<PeriodShills> {
  const first = Math.floor(from / HOUR);
  const last = Math.floor((to - 1) / HOUR);
  const hours = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
  const buckets = await kv.getMany<Bucket>(hours.map(bucketKey));
  const sum = new Map<string, ShillCount>();
  for (const b of buckets)
    for (const [k, c] of Object.entries(b?.tokens ?? {})) {
      const was = sum.get(k);
      sum.set(k, { ...c, n: (was?.n ?? 0) + c.n });
    }
  return {
    covered: hours.length > 0 && buckets.every((b) => b !== undefined),
    tokens: [...sum].map(([key, c]) => ({ key, ...c })).sort((a, b) => b.n - a.n),
  };
}
