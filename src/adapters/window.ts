/**
 * A sliding-window limiter for sends, applied before a request goes out, so a
 * platform never has to answer 429. Sends count from when they start until a
 * full window after they complete: the platform counts them where they arrive,
 * which is always in between, so no window on its side can see more than `max`,
 * whatever the network or the event loop does. (A fixed-window counter on the
 * client, like discord.js's global limiter, can put two windows' worth into one
 * of the server's windows.)
 *
 * Shared by the Discord alert sender and the Telegram pacer (its bot-wide limit).
 */
import { performance } from 'node:perf_hooks';

export class SlidingWindow {
  #inflight = 0;
  /** Completion times still inside the window, ascending. */
  readonly #done: number[] = [];
  readonly #waiters: (() => void)[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** No send starts before this time (after a global 429, for example). */
  pausedUntil = 0;
  readonly max: number;
  readonly windowMs: number;
  /**
   * Sends on the wire at once. Requests already sent cannot be called back when a
   * 429 arrives, and each would land inside its window; a few are enough to keep
   * the rate with real round trips.
   */
  readonly maxInFlight: number;
  readonly #now: () => number;

  constructor(max: number, windowMs: number, o: { maxInFlight?: number; now?: () => number } = {}) {
    if (!(max >= 1) || !(windowMs > 0)) throw new RangeError('a sliding window needs max >= 1 and windowMs > 0');
    this.max = Math.floor(max);
    this.windowMs = windowMs;
    this.maxInFlight = o.maxInFlight ?? 16;
    this.#now = o.now ?? (() => performance.now());
  }

  /** Resolves, in FIFO order, when one more send may start; call release() when it completes. */
  acquire(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiters.push(resolve);
      this.#pump();
    });
  }

  release(): void {
    this.#inflight--;
    this.#done.push(this.#now());
    this.#pump();
  }

  /** Runs `send` inside the window. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await send();
    } finally {
      this.release();
    }
  }

  /**
   * Whether a send asking now would wait for the window's rate (or a pause): the
   * sends counted in it and those queued ahead fill it. Waiting only for a slot on
   * the wire (maxInFlight) is not counted: that frees within a round trip.
   */
  wouldWait(): boolean {
    const t = this.#now();
    if (t < this.pausedUntil) return true;
    let live = 0;
    for (let i = this.#done.length - 1; i >= 0 && this.#done[i]! > t - this.windowMs; i--) live++;
    return this.#inflight + live + this.#waiters.length >= this.max;
  }

  /** Re-checks after pausedUntil moved. */
  poke(): void {
    this.#pump();
  }

  #pump(): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#waiters.length > 0) {
      const t = this.#now();
      if (t < this.pausedUntil) {
        this.#arm(this.pausedUntil - t);
        return;
      }
      let expired = 0;
      while (expired < this.#done.length && this.#done[expired]! <= t - this.windowMs) expired++;
      if (expired) this.#done.splice(0, expired);
      if (this.#inflight >= this.maxInFlight) return; // a completion pumps again
      if (this.#inflight + this.#done.length >= this.max) {
        // Full: wait for the oldest completion to leave the window (a completion re-pumps too).
        if (this.#done.length > 0) this.#arm(this.#done[0]! + this.windowMs - t);
        return;
      }
      this.#inflight++;
      this.#waiters.shift()!();
    }
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#pump();
      },
      Math.max(1, Math.ceil(ms)),
    );
  }
}
