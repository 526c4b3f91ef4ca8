/**
 * Requests an entry point refused (forged signatures, wrong secrets, stale
 * timestamps, slow or oversized bodies): each is counted in a metric, and the
 * log gets one summary line per minute at most, so a flood of forgeries cannot
 * fill the disk one warning at a time.
 */
import type { Logger } from 'pino';

export interface Refusals {
  count(reason: string): void;
}

export function createRefusals(o: {
  readonly log: Logger;
  /** Names the entry point in the summary line. */
  readonly what: string;
  /** Called for every refusal (the metric). */
  readonly onRefused?: (reason: string) => void;
  readonly everyMs?: number;
  readonly now?: () => number;
}): Refusals {
  const every = o.everyMs ?? 60_000;
  const now = o.now ?? Date.now;
  let counts: Record<string, number> = {};
  let last = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (!Object.keys(counts).length) return;
    o.log.warn({ refused: counts }, `${o.what}: requests refused`);
    counts = {};
    last = now();
  };
  return {
    count(reason) {
      o.onRefused?.(reason);
      counts[reason] = (counts[reason] ?? 0) + 1;
      if (now() - last >= every) return flush();
      // The rest of this minute's refusals are summed up when it ends.
      timer ??= setTimeout(flush, last + every - now());
      timer.unref();
    },
  };
}
