/**
 * A small in-memory cache of rendered pictures, keyed by the request that made
 * them, so a burst of the same command (or a button pressed twice) does not
 * redraw. Entries expire after ttlMs; beyond `max` the least recently used go.
 */

export interface ImageCacheOptions {
  readonly ttlMs: number;
  readonly max: number;
  /** Clock in ms; injectable for tests. */
  readonly now?: () => number;
}

export interface ImageCache {
  get(key: string): Uint8Array | undefined;
  set(key: string, png: Uint8Array): void;
  readonly size: number;
}

export function createImageCache(opts: ImageCacheOptions): ImageCache {
  const now = opts.now ?? Date.now;
  const max = Math.max(1, Math.floor(opts.max));
  // Map order is insertion order: re-inserting on a hit keeps the oldest first.
  const entries = new Map<string, { png: Uint8Array; expires: number }>();
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (hit.expires <= now()) return undefined;
      entries.set(key, hit);
      return hit.png;
    },
    set(key, png) {
      if (opts.ttlMs <= 0) return;
      entries.delete(key);
      const t = now();
      for (const [k, e] of entries) if (e.expires <= t) entries.delete(k);
      while (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(key, { png, expires: t + opts.ttlMs });
    },
    get size() {
      return entries.size;
    },
  };
}

/** A stable cache key for a picture: kind plus its request parameters, key order ignored. */
export function imageCacheKey(kind: string, params: Readonly<Record<string, unknown>>): string {
  const sorted = Object.keys(params)
    .sort()
    .map((k) => [k, params[k]]);
  return `${kind}:${JSON.stringify(sorted)}`;
}
