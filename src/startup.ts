/**
 * Start-up waits for what it cannot run without within one bound, and never in
 * silence: the first failed attempt is logged at once with what is unreachable
 * and why, later ones at most every LOG_EVERY_MS while it retries with backoff,
 * and when the bound is spent a StartupError carries the one line a person can
 * act on (bot.ts prints it and exits non-zero, so a supervisor restarts it).
 * The Redis store and Telegram's Bot API wait here: SQLite opens at once or
 * fails at once, the upstream is optional at start, and Discord reports its
 * own failure. Anything added later waits through `waitFor` too.
 */
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, type RetryPolicy } from './api/retry.ts';

export class StartupError extends Error {
  override name = 'StartupError';
}

/** The first attempt is short so that a hanging peer is reported within 2 s; later ones allow a slow link. */
export const FIRST_ATTEMPT_MS = 1_500;
export const LATER_ATTEMPT_MS = 5_000;
export const LOG_EVERY_MS = 5_000;
const BACKOFF: RetryPolicy = { attempts: Number.POSITIVE_INFINITY, baseDelayMs: 250, maxDelayMs: 3_000 };

export interface Dependency<T> {
  /** As a person names it, credentials left out: "the store (redis at 127.0.0.1:6379)". */
  readonly name: string;
  /** What to check when it never answers: "Check STORE_URL and that Redis is running there". */
  readonly hint: string;
  /**
   * One attempt. Rejects with a short reason (an error code, never a secret);
   * gives up and rejects when `signal` aborts, `boundMs` after it began.
   */
  attempt(signal: AbortSignal, boundMs: number): Promise<T>;
}

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly log: Logger;
  /** Aborts the wait (a signal during start-up). */
  readonly signal?: AbortSignal | undefined;
  /** Told after every failed attempt why it waits, and `undefined` once reached: for /readyz. */
  readonly onWaiting?: ((why: string | undefined) => void) | undefined;
  /** Also told each line that is logged, in plain words: the console prints it to the terminal. */
  readonly say?: ((line: string) => void) | undefined;
  readonly random?: () => number;
  /** The pause between attempts; injected by tests that drive time with mock.timers. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
}

/**
 * A connection error in a few words a person can act on, with its code, or
 * undefined when it is not one. Looks through `cause` and `error` (fetch and
 * grammY wrap the socket's error).
 */
export function explainConnectError(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown; error?: unknown } | undefined, i = 0; e && i < 5; i++) {
    switch (e.code) {
      case 'ECONNREFUSED':
        return 'connection refused, nothing listens there (ECONNREFUSED)';
      case 'ENOTFOUND':
        return 'no such host (ENOTFOUND)';
      case 'EAI_AGAIN':
        return 'host name lookup failed (EAI_AGAIN)';
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `host unreachable (${e.code})`;
      case 'ECONNRESET':
      case 'EPIPE':
        return `connection closed by the server (${e.code})`;
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
        return 'no answer (ETIMEDOUT)';
    }
    e = (e.cause ?? e.error) as typeof e;
  }
  return undefined;
}

const NEVER = new AbortController().signal;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export async function waitFor<T>(dep: Dependency<T>, o: WaitOptions): Promise<T> {
  const begun = Date.now();
  let failures = 0;
  let lastLogged = Number.NEGATIVE_INFINITY;
  let why = '';
  for (;;) {
    o.signal?.throwIfAborted();
    const left = o.timeoutMs - (Date.now() - begun);
    if (failures > 0 && left <= 0) {
      throw new StartupError(
        `cannot connect to ${dep.name} after ${seconds(Date.now() - begun)} (${failures} attempts): ${why}. ${dep.hint}.`,
      );
    }
    const bound = Math.max(1, Math.min(failures === 0 ? FIRST_ATTEMPT_MS : LATER_ATTEMPT_MS, left));
    const attempt = new AbortController();
    const timer = setTimeout(() => attempt.abort(), bound);
    const stop = () => attempt.abort();
    o.signal?.addEventListener('abort', stop, { once: true });
    try {
      const value = await dep.attempt(attempt.signal, bound);
      if (failures > 0)
        o.log.info({ dependency: dep.name, attempts: failures + 1, ms: Date.now() - begun }, `reached ${dep.name}`);
      o.onWaiting?.(undefined);
      return value;
    } catch (err) {
      o.signal?.throwIfAborted();
      // An answer that waiting cannot change (a refused token): no retries.
      if (err instanceof StartupError) throw err;
      failures++;
      why = (err as Error)?.message ?? String(err);
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', stop);
    }
    o.onWaiting?.(`cannot connect to ${dep.name}: ${why}`);
    const now = Date.now();
    const remaining = o.timeoutMs - (now - begun);
    if (remaining <= 0) continue; // out of time: the loop's head gives up with the last reason
    if (now - lastLogged >= LOG_EVERY_MS) {
      lastLogged = now;
      const line = `cannot connect to ${dep.name}: ${why}; retrying for up to ${seconds(remaining)}`;
      o.log.warn({ dependency: dep.name, reason: why, attempt: failures }, line);
      o.say?.(line);
    }
    // An abort rejects with the signal's own reason, as the attempt does.
    const pause = o.sleep ?? ((ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }));
    await pause(Math.min(backoffMs(failures, BACKOFF, o.random), remaining), o.signal ?? NEVER).catch(() =>
      o.signal?.throwIfAborted(),
    );
  }
}
