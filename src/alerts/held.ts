/**
 * Tweets held back per subscription because a filter needed a fact no source
 * gave (KOL score, followers, labels), counted in hourly buckets so `/alerts`
 * can say how many in the last 24 h. A batch is counted once per bucket: a tick
 * repeated after a failure does not count its tweets again.
 */
import type { Kv } from '../store/strict.ts';

const HOUR = 3_600_000;
/** Batches remembered per bucket for the repeat check; a repeat follows its failure at once. */
const BATCHES_KEPT = 20;

interface Bucket {
  readonly n: number;
  readonly batches: readonly string[];
}

const keyOf = (subId: string, hour: number) => `held:${subId}:${hour}`;

export async function recordHeld(
  kv: Kv,
  counts: ReadonlyMap<string, number>,
  batchId: string,
  now: number,
): Promise<void> {
  const hour = Math.floor(now / HOUR);
  const all = [...counts];
  for (let i = 0; i < all.length; i += 500) {
    const chunk = all.slice(i, i + 500);
    const keys = chunk.map(([subId]) => keyOf(subId, hour));
    const current = await kv.getMany<Bucket>(keys);
    await Promise.all(
      chunk.map(([, n], j) => {
        const b = current[j] ?? { n: 0, batches: [] };
        if (b.batches.includes(batchId)) return undefined;
        return kv.set(
          keys[j]!,
          { n: b.n + n, batches: [...b.batches, batchId].slice(-BATCHES_KEPT) } satisfies Bucket,
          25 * HOUR,
        );
      }),
    );
  }
}

/** Tweets held back for this subscription in the current hour and the 23 before it. */
export async function heldLastDay(kv: Kv, subId: string, now: number): Promise<number> {
  const hour = Math.floor(now / HOUR);
  const buckets = await kv.getMany<Bucket>(Array.from({ length: 24 }, (_, i) => keyOf(subId, hour - i)));
  return buckets.reduce((sum, b) => sum + (b?.n ?? 0), 0);
}
