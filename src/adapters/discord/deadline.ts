/**
 * How long a call to Discord made for delivery may take. discord.js would
 * otherwise wait out any rate limit inside the call (a crosspost's 429 lasts
 * the rest of the hour) and retry a timed-out request three times, and the
 * destination's queue would wait with it. Each delivery call gets a deadline,
 * queueing and rate-limit waits included, and the REST client refuses a rate
 * limit it could not wait out within one: the caller learns the wait at once
 * and delivery puts that destination on a timer.
 */
import type { RateLimitData } from 'discord.js';

/** The longest one delivery call (a send, an edit, a crosspost) may take, every wait inside it included. */
export const SEND_DEADLINE_MS = 10_000;

/**
 * discord.js's `rejectOnRateLimit`: a crosspost is never waited for (its window is an hour and the
 * publisher never retries one), and no call waits out a limit longer than a delivery call may take.
 */
export function rejectLongWaits(limitMs = SEND_DEADLINE_MS) {
  return (r: RateLimitData): boolean =>
    r.route.endsWith('/crosspost') || Math.max(r.retryAfter, r.timeToReset, r.sublimitTimeout) > limitMs;
}

/** Thrown when a call outlived its deadline: nothing says whether Discord handled it. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/**
 * Runs `call` with a signal that aborts at the deadline, and gives up on it then even if discord.js
 * is sleeping through a (short) rate limit, which its signal does not cut.
 */
export async function within<T>(ms: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  const running = call(signal);
  // Settles later on its own (the aborted request fails): never an unhandled rejection.
  running.catch(() => {});
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      running,
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new DeadlineError(`no answer from Discord within ${ms} ms`));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
