// Flood control as Telegram applies it to sends: sliding windows overall, per
// private chat and per group. A 429 opens a window of retry_after seconds for its
// scope; every send that arrives inside an open window is recorded as a
// violation, because a well-behaved client never does that.
import { tooManyRequests, type ApiError } from './errors.ts';
import type { Limits, Violation } from './types.ts';

export const DEFAULT_LIMITS: Required<Limits> = { globalPerSecond: 30, perChatPerSecond: 1, perGroupPerMinute: 20 };

/** Client timers fire on whole-millisecond loop time, up to ~1 ms before the exact instant. */
const GRACE_MS = 1.5;

interface Forced {
  remaining: number;
  retryAfter: number;
  chatId: number | undefined;
}

export class RateLimiter {
  readonly violations: Violation[] = [];
  private readonly limits: Required<Limits> | false;
  /** Real milliseconds per protocol second. */
  private readonly secondMs: number;
  private readonly now: () => number;
  private globalSends: number[] = [];
  private readonly chatSends = new Map<number, number[]>();
  private globalBlockedUntil = 0;
  private readonly chatBlockedUntil = new Map<number, number>();
  private forced: Forced[] = [];

  constructor(limits: Limits | false | undefined, timeScale: number, now: () => number) {
    this.limits = limits === false ? false : { ...DEFAULT_LIMITS, ...limits };
    this.secondMs = 1000 * timeScale;
    this.now = now;
  }

  force(count: number, retryAfter: number, chatId: number | undefined): void {
    if (!Number.isInteger(retryAfter) || retryAfter < 1)
      throw new Error('retryAfter is whole seconds >= 1, as Telegram sends it');
    this.forced.push({ remaining: count, retryAfter, chatId });
  }

  /** Forgets windows, counters and pending forced 429s (violations stay recorded). */
  reset(): void {
    this.globalSends = [];
    this.chatSends.clear();
    this.globalBlockedUntil = 0;
    this.chatBlockedUntil.clear();
    this.forced = [];
  }

  /** The 429 to answer for this send, or undefined when it may proceed (it is then counted). */
  check(method: string, chatId: number): ApiError | undefined {
    const t = this.now();
    const open = this.openWindow(chatId, t);
    if (open) {
      this.violations.push({ method, chat_id: chatId, scope: open.scope, time: t, earlyByMs: open.until - t });
      return tooManyRequests(this.seconds(open.until - t));
    }
    const forced = this.forced.find((f) => f.remaining > 0 && (f.chatId === undefined || f.chatId === chatId));
    if (forced) {
      forced.remaining--;
      this.forced = this.forced.filter((f) => f.remaining > 0);
      this.block(forced.chatId === undefined ? undefined : chatId, t + forced.retryAfter * this.secondMs);
      return tooManyRequests(forced.retryAfter);
    }
    if (this.limits) {
      const global = this.slide(this.globalSends, t, this.secondMs, this.limits.globalPerSecond);
      if (global !== undefined) return this.limited(undefined, t, global);
      const group = chatId < 0;
      const windowMs = group ? 60 * this.secondMs : this.secondMs;
      const max = group ? this.limits.perGroupPerMinute : this.limits.perChatPerSecond;
      let sends = this.chatSends.get(chatId);
      if (!sends) {
        sends = [];
        this.chatSends.set(chatId, sends);
      }
      const chat = this.slide(sends, t, windowMs, max);
      if (chat !== undefined) return this.limited(chatId, t, chat);
      sends.push(t);
      this.globalSends.push(t);
    }
    return undefined;
  }

  private openWindow(chatId: number, t: number): { scope: 'chat' | 'global'; until: number } | undefined {
    if (t < this.globalBlockedUntil - GRACE_MS) return { scope: 'global', until: this.globalBlockedUntil };
    const chatUntil = this.chatBlockedUntil.get(chatId) ?? 0;
    if (t < chatUntil - GRACE_MS) return { scope: 'chat', until: chatUntil };
    return undefined;
  }

  /** Drops expired sends; when the window is full, returns when its oldest send leaves it. */
  private slide(sends: number[], t: number, windowMs: number, max: number): number | undefined {
    while (sends.length > 0 && sends[0]! <= t - windowMs) sends.shift();
    if (sends.length < max) return undefined;
    return sends[sends.length - max]! + windowMs;
  }

  private limited(chatId: number | undefined, t: number, freeAt: number): ApiError {
    const retryAfter = this.seconds(freeAt - t);
    this.block(chatId, t + retryAfter * this.secondMs);
    return tooManyRequests(retryAfter);
  }

  private block(chatId: number | undefined, until: number): void {
    if (chatId === undefined) this.globalBlockedUntil = Math.max(this.globalBlockedUntil, until);
    else this.chatBlockedUntil.set(chatId, Math.max(this.chatBlockedUntil.get(chatId) ?? 0, until));
  }

  private seconds(ms: number): number {
    return Math.max(1, Math.ceil(ms / this.secondMs));
  }
}
