/**
 * Telegram paid broadcasts' spending per UTC day (adapters/telegram/paid.ts),
 * in tenths of a Star, under `paid:<YYYY-MM-DD>` in the watcher's space: a
 * restart or a new leader goes on from the day's total instead of zero, so the
 * operator's daily cap holds across them. Kept two days.
 */
import type { Kv } from './strict.ts';

const KEEP_MS = 2 * 86_400_000;

export interface PaidLedgerStore {
  /** Adds `tenths` (may be negative or 0) to `day`'s total; returns the new total. */
  add(day: string, tenths: number): Promise<number>;
}

export function paidLedger(kv: Kv): PaidLedgerStore {
  return {
    async add(day, tenths) {
      const key = `paid:${day}`;
      // Read, add, write: instances hand the alerts over, they do not send them side by side.
      const total = Math.max(0, ((await kv.get<number>(key)) ?? 0) + tenths);
      if (tenths !== 0) await kv.set(key, total, KEEP_MS);
      return total;
    },
  };
}
