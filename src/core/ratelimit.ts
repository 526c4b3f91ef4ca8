/**
 * Per-user command limit: a burst of N within a sliding window. Memory only:
 * it protects the upstream from one enthusiastic user per process, which is all
 * it needs to do; a restart forgiving everyone is fine.
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
  take(key: string, now: number): Verdict;
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const hits = new Map<string, number[]>();
  /** Until when each refused key has been told to wait. */
  const told = new Map<string, number>();
  let lastPrune = 0;
  return {
    take(key, now) {
      if (now - lastPrune > windowMs * 4) {
        lastPrune = now;
        for (const [k, times] of hits) if ((times.at(-1) ?? 0) <= now - windowMs) hits.delete(k);
        for (const [k, until] of told) if (until <= now) told.delete(k);
      }
      const times = (hits.get(key) ?? []).filter((t) => t > now - windowMs);
      if (times.length >= limit) {
        hits.set(key, times);
        const waitMs = times[0]! + windowMs - now;
        const toldAlready = (told.get(key) ?? 0) > now;
        if (!toldAlready) told.set(key, now + waitMs);
        return { waitMs, toldAlready };
      }
      times.push(now);
      hits.set(key, times);
      return { waitMs: 0, toldAlready: false };
    },
  };
}
