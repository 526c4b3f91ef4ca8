/**
 * Built pages kept a short while, so a busy board is served from memory: at most
 * `max` entries (least recently used out first), each for `ttlMs` on the pages'
 * clock. Keys are built from what the page shows (slug, page, normalised choices,
 * language), never from the raw URL, so a crawler's made-up query strings share
 * one entry and cannot grow the cache. `/web off` drops a community's entries.
 */
export interface Cached {
  /** A Blob: a Response is made from it without copying its bytes (a string or typed array is copied each time). */
  readonly body: Blob;
  readonly type: string;
  readonly etag: string;
  readonly builtAt: number;
}

export class PageCache {
  readonly #entries = new Map<string, Cached>();
  readonly #max: number;
  readonly #ttlMs: number;

  constructor(o: { max: number; ttlMs: number }) {
    this.#max = o.max;
    this.#ttlMs = o.ttlMs;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, now: number): Cached | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    this.#entries.delete(key);
    if (now - hit.builtAt >= this.#ttlMs) return undefined;
    this.#entries.set(key, hit);
    return hit;
  }

  set(key: string, value: Cached): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#max) break;
      this.#entries.delete(oldest);
    }
  }

  /** Forgets every page of a community (its keys start with `<slug>\n`). */
  dropCommunity(slug: string): void {
    for (const key of [...this.#entries.keys()]) if (key.startsWith(`${slug}\n`)) this.#entries.delete(key);
  }
}
