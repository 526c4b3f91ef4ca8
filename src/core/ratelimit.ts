/**
 * Per-user command limit: a burst of N within a sliding window. Memory only:
 * it protects the upstream from one enthusiastic user per process, which is all
 * it needs to do; a restart forgiving everyone is fine.
 */
export interface RateLimiter {
  /** 0 when allowed (and counted), otherwise milliseconds until the next slot. */
  take(key: string, now: number): number;
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const hits = new Map<string, number[]>();
  let lastPrune = 0;
  return {
    take(key, now) {
      if (now - lastPrune > windowMs * 4) {
        lastPrune = now;
        for (const [k, times] of hits) if ((times.at(-1) ?? 0) <= now - windowMs) hits.delete(k);
      }
      const times = (hits.get(key) ?? []).filter((t) => t > now - windowMs);
      if (times.length >= limit) {
        hits.set(key, times);
        return times[0]! + windowMs - now;
      }
      times.push(now);
      hits.set(key, times);
      return 0;
    },
  };
}
