import type { Store } from './store.ts';

/** What every route handler sees: the data and the clock (injectable so time windows are testable). */
export interface Ctx {
  store: Store;
  now: () => number;
}

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
