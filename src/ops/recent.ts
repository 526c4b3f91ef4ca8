/**
 * Counts per label over the last hour, in one-minute buckets: what the owner's
 * /owner stats shows of upstream requests. Memory is fixed: 60 numbers a label.
 */
const MINUTE_MS = 60_000;
const BUCKETS = 60;

export interface RecentCounts {
  add(label: string, at?: number): void;
  /** Each label's count within the last hour. */
  lastHour(at?: number): Record<string, number>;
}

export function recentCounts(now: () => number = Date.now): RecentCounts {
  const byLabel = new Map<string, { minutes: number[]; counts: number[] }>();
  return {
    add(label, at = now()) {
      const minute = Math.floor(at / MINUTE_MS);
      let b = byLabel.get(label);
      if (!b) {
        b = { minutes: new Array<number>(BUCKETS).fill(-1), counts: new Array<number>(BUCKETS).fill(0) };
        byLabel.set(label, b);
      }
      const i = minute % BUCKETS;
      if (b.minutes[i] !== minute) {
        b.minutes[i] = minute;
        b.counts[i] = 0;
      }
      b.counts[i]!++;
    },
    lastHour(at = now()) {
      const minute = Math.floor(at / MINUTE_MS);
      const out: Record<string, number> = {};
      for (const [label, b] of byLabel) {
        let n = 0;
        for (let i = 0; i < BUCKETS; i++) if (minute - b.minutes[i]! < BUCKETS && b.minutes[i]! >= 0) n += b.counts[i]!;
        if (n) out[label] = n;
      }
      return out;
    },
  };
}
