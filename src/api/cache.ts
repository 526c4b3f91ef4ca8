import type { OperationName } from './names.ts';

/**
 * Seconds-to-a-minute freshness per operation: tweets move fast, scores and tables slowly.
 * Chat users re-asking the same question within these windows get the same answer.
 */
export const DEFAULT_TTL_MS: Readonly<Record<OperationName, number>> = {
  tokenMindmap: 30_000,
  tokenAnalytics: 15_000,
  kolProjects: 60_000,
  kolTokens: 30_000,
  kolWinRates: 60_000,
  kolScore: 60_000,
  tweetsByToken: 5_000,
  tweets: 5_000,
  kolTable: 60_000,
  kolMindmap: 60_000,
};

/** A small TTL cache that evicts the least recently used entry when full. */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, now: number = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    // Re-insertion moves the key to the back of the Map's order: the LRU position.
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number, now: number = Date.now()): void {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: now + ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}

export interface Waiter {
  signal?: AbortSignal | undefined;
  /** How long this caller is willing to wait. */
  timeoutMs: number;
  onAbort: (reason: unknown) => Error;
  onTimeout: () => Error;
}

interface Flight<V> {
  promise: Promise<V>;
  controller: AbortController;
  waiters: number;
}

/**
 * Identical requests in flight share one upstream call. The shared call has its own
 * AbortController, aborted only when every waiter has given up, so one caller's abort
 * or short budget never cuts the call short for the others.
 */
export class SingleFlight<V> {
  readonly #flights = new Map<string, Flight<V>>();

  get inFlight(): number {
    return this.#flights.size;
  }

  /** Joins the flight for key, starting it with `start` when none is running. */
  run(
    key: string,
    start: (signal: AbortSignal) => Promise<V>,
    waiter: Waiter,
  ): { promise: Promise<V>; leader: boolean } {
    let flight = this.#flights.get(key);
    const leader = flight === undefined;
    if (!flight) {
      const controller = new AbortController();
      const created: Flight<V> = { promise: start(controller.signal), controller, waiters: 0 };
      const forget = () => {
        if (this.#flights.get(key) === created) this.#flights.delete(key);
      };
      created.promise.then(forget, forget);
      this.#flights.set(key, created);
      flight = created;
    }
    return { promise: this.#wait(key, flight, waiter), leader };
  }

  #wait(key: string, flight: Flight<V>, waiter: Waiter): Promise<V> {
    flight.waiters += 1;
    return new Promise<V>((resolve, reject) => {
      let settled = false;
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        waiter.signal?.removeEventListener('abort', onAbort);
        flight.waiters -= 1;
      };
      const leave = (err: Error) => {
        if (settled) return;
        settle();
        if (flight.waiters === 0) {
          if (this.#flights.get(key) === flight) this.#flights.delete(key);
          flight.controller.abort(err);
        }
        reject(err);
      };
      const onAbort = () => leave(waiter.onAbort(waiter.signal?.reason));
      const timer = setTimeout(() => leave(waiter.onTimeout()), waiter.timeoutMs);
      flight.promise.then(
        (value) => {
          if (settled) return;
          settle();
          resolve(value);
        },
        (err: unknown) => {
          if (settled) return;
          settle();
          reject(err);
        },
      );
      if (waiter.signal?.aborted) onAbort();
      else waiter.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
