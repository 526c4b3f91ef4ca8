import type { Store } from './store.ts';
import type { AuthorShape } from './views-tweet.ts';

/** What every route handler sees: the data and the clock (injectable so time windows are testable). */
export interface Ctx {
  store: Store;
  now: () => number;
  /** How list-view tweet authors are served (see AuthorShape). */
  authors: () => AuthorShape;
}

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
