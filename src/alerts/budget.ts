/**
 * The feed reader's request budget: at most `perMinute` feed requests in any
 * minute, spent evenly (one read every 60 s / perMinute when nothing is
 * happening), with the extra pages of a burst drawn from the same minute, and a
 * back-off that only an upstream refusal (429, 5xx, a timeout) starts.
 *
 * Not the adapters' SlidingWindow: that one is a queue of concurrent senders
 * woken by its own timers, and holds a slot until a window after a send
 * completes (a platform's hard limit, where the cost is a round trip per
 * window). The reader is one loop that must know how long to wait, so that it
 * sleeps on the watcher's (injectable) clock and stop() can cut the sleep
 * short; its budget is the operator's, counted on the requests it starts, so
 * that a read every 60 s / budget is exactly what the budget buys.
 */
import { ApiUnavailableError } from '../api/errors.ts';

const WINDOW_MS = 60_000;
/** The longest pause a failure alone causes (Retry-After may ask for longer, and is honoured). */
const MAX_BACKOFF_MS = 60_000;

export type SlowReason = 'rate_limited' | 'server_error' | 'timeout';

export class FeedBudget {
  readonly perMinute: number;
  /** The even spacing of reads: 60 s / perMinute. */
  readonly intervalMs: number;
  /** Start times still inside the window, ascending, and whether each was a read's extra page. */
  readonly #started: { at: number; extra: boolean }[] = [];
  #pausedUntil = 0;
  #failures = 0;

  constructor(perMinute: number) {
    if (!(perMinute >= 1)) throw new RangeError('a feed budget needs at least 1 request a minute');
    this.perMinute = Math.floor(perMinute);
    this.intervalMs = WINDOW_MS / this.perMinute;
  }

  /** How long to wait, from `now`, before one more request may start (0: now). */
  waitMs(now: number): number {
    while (this.#started.length && this.#started[0]!.at <= now - WINDOW_MS) this.#started.shift();
    let at = this.#pausedUntil;
    // Full: the oldest start must leave the window.
    if (this.#started.length >= this.perMinute) at = Math.max(at, this.#started[0]!.at + WINDOW_MS);
    return Math.max(0, at - now);
  }

  /**
   * The spacing of reads now: one interval, stretched so that the extra pages read
   * in the last minute (a burst, the late-indexing re-read) come out of the spacing
   * evenly instead of leaving a gap of several intervals when the window fills.
   */
  paceMs(now: number): number {
    this.waitMs(now);
    let extra = 0;
    for (const s of this.#started) if (s.extra) extra++;
    return WINDOW_MS / Math.max(1, this.perMinute - extra);
  }

  /** A request starts now; `extra`: a read's second or later page. */
  start(now: number, extra = false): void {
    this.#started.push({ at: now, extra });
  }

  get backingOff(): boolean {
    return this.#failures > 0;
  }

  /**
   * A read failed. An upstream refusal (429, 5xx, timeout) pauses reading:
   * Retry-After when given, else doubling from one interval up to a minute.
   * Returns why, or undefined for a failure that is no reason to slow down.
   */
  failed(err: unknown, now: number): { reason: SlowReason; waitMs: number } | undefined {
    const reason = slowReason(err);
    if (!reason) return undefined;
    this.#failures++;
    const doubling = Math.min(MAX_BACKOFF_MS, this.intervalMs * 2 ** (this.#failures - 1));
    const retryAfter = err instanceof ApiUnavailableError ? err.retryAfterMs : undefined;
    const waitMs = Math.max(doubling, retryAfter ?? 0);
    this.#pausedUntil = Math.max(this.#pausedUntil, now + waitMs);
    return { reason, waitMs };
  }

  /** A read succeeded: the normal pace again. True when this ends a back-off. */
  succeeded(): boolean {
    const was = this.#failures > 0;
    this.#failures = 0;
    return was;
  }
}

function slowReason(err: unknown): SlowReason | undefined {
  if (!(err instanceof ApiUnavailableError)) return undefined;
  if (err.kind === 'rate_limited') return 'rate_limited';
  if (err.kind === 'server_error') return 'server_error';
  if (err.kind === 'timeout' || err.kind === 'network') return 'timeout';
  return undefined;
}
