/**
 * The pictures an app drew lately: one cache per app, made in app.ts around
 * the process's pool on the app's clock (the commands' clock), and handed down
 * where the pool was (the dispatcher's commands and alert delivery). Two apps
 * in one process (the tests run several) never share pictures, and a test's
 * clock, not the wall clock, decides when one is stale.
 */
import { createHash } from 'node:crypto';
import { TtlCache } from '../api/cache.ts';
import type { ChartInputs, ChartKind, ChartPool } from '../domain/charts.ts';

/** Long enough to absorb a burst or a double press, short next to how fast prices move. */
export const PICTURE_TTL_MS = 60_000;
/** Pictures kept at once: about 50 PNGs of 50 to 200 kB each. */
export const PICTURE_CACHE_ENTRIES = 50;

export interface PictureCacheOptions {
  /** The app's clock (tests move it); default the wall clock. */
  readonly now?: () => number;
  readonly ttlMs?: number;
  readonly maxEntries?: number;
}

/**
 * A stable key for a picture: its kind and a digest of its input. A picture is
 * a function of its input alone, so a fresher API answer (a new input) is never
 * shown as a stale picture, and two requests that draw the same input share it.
 */
export function pictureKey<K extends ChartKind>(kind: K, input: ChartInputs[K]): string {
  return `${kind}:${createHash('sha1').update(JSON.stringify(input)).digest('base64url')}`;
}

/**
 * `pool` with recent drawings reused: a draw of an input drawn within the TTL
 * answers from memory. A refusal (the pool busy) or a failure is not kept, so
 * the next ask draws again.
 */
export function cachedCharts(pool: ChartPool, o: PictureCacheOptions = {}): ChartPool {
  const now = o.now ?? Date.now;
  const ttlMs = o.ttlMs ?? PICTURE_TTL_MS;
  const cache = new TtlCache<Uint8Array>(o.maxEntries ?? PICTURE_CACHE_ENTRIES);
  return {
    async draw(kind, input) {
      const key = pictureKey(kind, input);
      const kept = cache.get(key, now());
      if (kept) return kept;
      const png = await pool.draw(kind, input);
      cache.set(key, png, ttlMs, now());
      return png;
    },
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}
