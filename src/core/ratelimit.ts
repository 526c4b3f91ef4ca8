/**
 * The one rate window: at most N units per key within a sliding window. A unit
 * is a command for the per-user command limit, and an upstream request where
 * the cost of one action varies (an inline query of ten addresses is not one
 * query's worth of upstream). Memory only: it protects the upstream from one
 * enthusiastic user per process, which is all it needs to do; a restart
 * forgiving everyone is fine.
 */
export interface Verdict {
  /** 0 when allowed (and counted), otherwise milliseconds until the next slot. */
  readonly waitMs: number;
  /**
   * Refused before in this same wait, so the caller was told then: answering
   * again would spend the platform's shared send budget on someone flooding it.
   */
  readonly toldAlready: boolean;
}

export interface RateLimiter {
  /** Counts `cost` units (default 1) for `key` if they fit in the window; otherwise counts nothing. */
  take(key: string, now: number, cost?: number): Verdict;
  /** Whether `cost` units would fit now, counting nothing (a cap charged only for what is shown). */
  fits(key: string, now: number, cost?: number): boolean;
}

type Hit = { readonly at: number; readonly cost: number };

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const hits = new Map<string, Hit[]>();
  /** Until when each refused key has been told to wait. */
  const told = new Map<string, number>();
  let lastPrune = 0;

  function live(key: string, now: number): Hit[] {
    if (now - lastPrune > windowMs * 4) {
      lastPrune = now;
      for (const [k, list] of hits) if ((list.at(-1)?.at ?? 0) <= now - windowMs) hits.delete(k);
      for (const [k, until] of told) if (until <= now) told.delete(k);
    }
    const list = (hits.get(key) ?? []).filter((h) => h.at > now - windowMs);
    hits.set(key, list);
    return list;
  }
  const used = (list: readonly Hit[]) => list.reduce((n, h) => n + h.cost, 0);

  return {
    fits(key, now, cost = 1) {
      return used(live(key, now)) + cost <= limit;
    },
    take(key, now, cost = 1) {
      const list = live(key, now);
      let over = used(list) + cost - limit;
      if (over > 0) {
        // The wait ends when enough of the oldest units have left the window (never, for a cost over the limit).
        let at = now;
        for (const h of list) {
          if (over <= 0) break;
          over -= h.cost;
          at = h.at + windowMs;
        }
        const waitMs = Math.max(1, (over > 0 ? now + windowMs : at) - now);
        const toldAlready = (told.get(key) ?? 0) > now;
        if (!toldAlready) told.set(key, now + waitMs);
        return { waitMs, toldAlready };
      }
      list.push({ at: now, cost });
      return { waitMs: 0, toldAlready: false };
    },
  };
}
