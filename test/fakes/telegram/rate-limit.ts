// Flood control as Telegram applies it to sends: sliding windows overall, per
// private chat and per group. A 429 opens a window of retry_after seconds for its
// scope; every send that arrives inside an open window is recorded as a
// violation, because a well-behaved client never does that.
//
// Paid broadcasts (allow_paid_broadcast): a paid send skips the free bot-wide
// window and counts in a window of all sends, free and paid, at 1,000 a second;
// each accepted one costs 0.1 Stars from the bot's balance. Without the balance,
// or where the bot is not eligible, the send is refused with a 400 and counts
// nowhere. Chats' own limits hold for paid sends too.
import { badRequest, tooManyRequests, type ApiError } from './errors.ts';
import type { Limits, Violation } from './types.ts';

export const DEFAULT_LIMITS: Required<Limits> = {
  globalPerSecond: 30,
  paidPerSecond: 1000,
  perChatPerSecond: 1,
  perGroupPerMinute: 20,
};

/** What Telegram's Stars errors say (the Bot API documents no text for paid broadcasts). */
export const PAID_REFUSALS = {
  balance: 'BALANCE_TOO_LOW: not enough Stars on the bot balance for a paid broadcast',
  eligibility: 'paid broadcasts are not allowed for this bot',
} as const;

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
  /** Every send, free and paid, for the paid limit. */
  private allSends: number[] = [];
  /** The bot's Stars balance, in tenths (0.1 Stars = one paid message). */
  tenths = 0;
  eligible = true;
  /** Paid sends accepted and charged. */
  paidSends = 0;
  /** Paid sends let through and not yet answered: their Stars are spoken for. */
  private pendingPaid = 0;
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
    this.allSends = [];
    this.chatSends.clear();
    this.globalBlockedUntil = 0;
    this.chatBlockedUntil.clear();
    this.forced = [];
  }

  /** The 429 to answer for this send, or undefined when it may proceed (it is then counted). */
  check(method: string, chatId: number, paid = false): ApiError | undefined {
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
    if (paid && !this.eligible) return badRequest(PAID_REFUSALS.eligibility);
    if (paid && this.tenths - this.pendingPaid < 1) return badRequest(PAID_REFUSALS.balance);
    if (this.limits) {
      const global = paid
        ? this.slide(this.allSends, t, this.secondMs, this.limits.paidPerSecond)
        : this.slide(this.globalSends, t, this.secondMs, this.limits.globalPerSecond);
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
      if (!paid) this.globalSends.push(t);
      this.allSends.push(t);
    }
    if (paid) this.pendingPaid++;
    return undefined;
  }

  /** A paid send let through by check() was answered: accepted costs 0.1 Stars, refused costs nothing. */
  settlePaid(accepted: boolean): void {
    this.pendingPaid--;
    if (!accepted) return;
    this.tenths--;
    this.paidSends++;
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
