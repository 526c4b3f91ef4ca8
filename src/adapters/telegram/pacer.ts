/**
 * Client-side flood control for Telegram sends, applied BEFORE a request goes
 * out, so the Bot API never has to answer 429 and no send lands inside a flood
 * window. Telegram counts sends where they arrive; we count them where they
 * complete (always later), so our windows are never shorter than Telegram's,
 * whatever the network or event loop does in between.
 *
 * Three limits, checked in this order for every send:
 *   1. the chat's own: one send a second, 20 a minute in a group, and a flood
 *      wait Telegram announced for it (limited());
 *   2. the bot-wide window (30 a second), shared FIFO by every chat;
 *   3. at most MAX_IN_FLIGHT requests on the wire.
 *
 * Fairness: each chat waits for its own slot on its own timer and joins the
 * bot-wide queue only once it may send, so a chat that is paced (a busy
 * group, a chat under a flood wait) never holds up the others. Sends to one
 * chat go out one at a time, in call order.
 *
 * Waiting or being told: a reply to a user waits for its chat's slot (run()
 * without a bound). Alert delivery has a queue of its own and many chats to
 * serve, so it asks for a bound (RunOptions.maxChatWaitMs): a chat whose slot
 * is further away than that refuses at once with PacedError, nothing sent,
 * saying when the chat frees, and delivery schedules that destination for then
 * instead of holding a worker asleep. Only the chat's own limit is answered
 * that way; the bot-wide window is short and shared, and is always waited for.
 *
 * Paid broadcasts (paid.ts): a caller that may pay (RunOptions.paid: alerts,
 * never replies) and finds the bot-wide window without room, or others already
 * queued for it, goes out paid in a window of its own (1,000 a second minus the
 * free 30) instead of waiting, while today's cap allows and Telegram has not
 * refused. A chat's own limits and a 429 pause hold for paid sends alike.
 *
 * Building on it (other send classes): a new kind of send is a new limit in
 * readyAt() or a RunOptions field, decided before the request goes out; nothing
 * should sleep inside a sender's send() for one chat's limit.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { SlidingWindow } from '../window.ts';

// The global timer (not timers/promises, bound at import): tests move it with mock.timers and the pacer's clock.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
import { PAID_PER_SECOND, type PaidBroadcasts } from './paid.ts';

export interface PacingOptions {
  /** Sends per second for the whole bot; default 30. */
  readonly globalPerSecond?: number;
  /** Sends per second to one chat; default 1. */
  readonly perChatPerSecond?: number;
  /** Sends per minute to one group (negative chat id); default 20. */
  readonly perGroupPerMinute?: number;
  /**
   * Real milliseconds per Telegram millisecond: scales every window and every
   * retry_after wait. 1 in production; tests run a fake whose clock is faster.
   */
  readonly timeScale?: number;
  /** Paid broadcasts, when the operator opted in: the policy that allows paying or not. */
  readonly paid?: PaidBroadcasts;
  /** The pacer's clock (ms); tests move it. Default: performance.now. */
  readonly now?: () => number;
}

/**
 * Sends a minute of a group's that answers to people (replies, refusals) leave to alerts: a
 * group's members typing commands must not hold its alerts for a minute. With Telegram's 20,
 * replies take at most 14 and alerts always find 6.
 */
export const ALERT_RESERVE_PER_MINUTE = 6;

interface ChatState {
  /** The previous send's turn: sends to one chat are strictly sequential, replies and alerts each in their lane. */
  tail: Promise<unknown>;
  /** The replies' lane: a reply waiting for its share of a group's minute never holds an alert behind it. */
  replyTail: Promise<unknown>;
  /** A send of either lane on the wire: the other waits for it (one at a time to a chat). */
  wire: Promise<unknown> | undefined;
  /** Sends waiting in the alerts' lane (the bound alert delivery asks about counts only these). */
  queued: number;
  queuedReplies: number;
  /** Completion time of the last send. */
  last: number;
  /** Completion times of the last sends to a group, oldest first (at most perGroupPerMinute). */
  recent: number[];
  pausedUntil: number;
  /** When this chat last got a 429 (for telling a chat's limit from the bot's). */
  limitedAt: number;
}

/**
 * Called when a send has its turn, right before it goes on the wire (after every wait):
 * delivery marks the entry in flight only then, so that after a crash it knows which
 * sends may have reached Telegram and which only waited here. Set per call with `run`.
 */
export const onWire = new AsyncLocalStorage<() => Promise<void>>();

/** Sends on the wire at once; enough for 30/s at 250 ms round trips. */
const MAX_IN_FLIGHT = 8;
/** Paid sends on the wire at once: 1,000 a second at 250 ms round trips. */
const MAX_PAID_IN_FLIGHT = 256;

export type LimitScope = 'chat' | 'global';

export interface RunOptions {
  /**
   * The longest wait for the chat's own limit this caller accepts (ms, on the
   * pacer's clock). A chat whose slot is further away refuses with PacedError
   * without sending. Absent: wait as long as the chat needs.
   */
  readonly maxChatWaitMs?: number;
  /** This caller may pay for a send the free bot-wide window would make wait (see paid.ts). */
  readonly paid?: boolean;
  /** An answer to a person (not an alert): in a group it leaves ALERT_RESERVE_PER_MINUTE of the minute to alerts. */
  readonly reply?: boolean;
}

/** Nothing was sent: the chat's own limit frees in `readyInMs` (pacer clock). */
export class PacedError extends Error {
  readonly readyInMs: number;
  constructor(readyInMs: number) {
    super(`paced: the chat's own limit frees in ${Math.ceil(readyInMs)} ms`);
    this.name = 'PacedError';
    this.readyInMs = readyInMs;
  }
}

export class Pacer {
  private readonly chats = new Map<string, ChatState>();
  /** The bot-wide limit; requests in flight count as inside it until they complete. */
  private readonly bot: SlidingWindow;
  /** Paid sends, beside the free window (undefined unless paid broadcasts are on). */
  private readonly paidWindow: SlidingWindow | undefined;
  private readonly paid: PaidBroadcasts | undefined;
  private readonly chatIntervalMs: number;
  private readonly groupMax: number;
  private readonly groupWindowMs: number;
  readonly secondMs: number;
  private readonly now: () => number;
  private runs = 0;

  constructor(o: PacingOptions = {}, now: () => number = o.now ?? (() => performance.now())) {
    const scale = o.timeScale ?? 1;
    if (!(scale > 0)) throw new RangeError('pacing.timeScale must be > 0');
    this.now = now;
    this.secondMs = 1000 * scale;
    this.chatIntervalMs = this.secondMs / positive(o.perChatPerSecond ?? 1, 'perChatPerSecond');
    this.groupMax = Math.max(1, Math.floor(positive(o.perGroupPerMinute ?? 20, 'perGroupPerMinute')));
    this.groupWindowMs = 60 * this.secondMs;
    this.bot = new SlidingWindow(Math.max(1, positive(o.globalPerSecond ?? 30, 'globalPerSecond')), this.secondMs, {
      maxInFlight: MAX_IN_FLIGHT,
      now,
    });
    this.paid = o.paid;
    // Telegram allows 1,000 a second in all; the free window's share is taken out.
    const paidMax = Math.max(1, PAID_PER_SECOND - this.bot.max);
    this.paidWindow = o.paid
      ? new SlidingWindow(paidMax, this.secondMs, { maxInFlight: MAX_PAID_IN_FLIGHT, now })
      : undefined;
  }

  /**
   * Runs `send` when the chat, its group limit and the bot-wide limit allow.
   * `retryAfter` reads a 429 from the result (seconds), recorded before the
   * chat's next send may start. `send` is told whether it goes out paid.
   */
  run<T>(
    chatId: string,
    send: (paid: boolean) => Promise<T>,
    retryAfter: (result: T) => number | undefined,
    o: RunOptions = {},
  ): Promise<T> {
    const s = this.chat(chatId);
    const max = o.maxChatWaitMs;
    if (max !== undefined) {
      // Sends already queued for this chat go first, each at least one chat interval apart.
      const wait = this.readyIn(chatId, 1) + s.queued * this.chatIntervalMs;
      if (wait > max) return Promise.reject(new PacedError(wait));
    }
    const reply = o.reply === true;
    if (reply) s.queuedReplies++;
    else s.queued++;
    const turn = (reply ? s.replyTail : s.tail).then(() =>
      this.turn(chatId, s, send, retryAfter, max, o.paid === true, reply),
    );
    if (reply) s.replyTail = turn.catch(() => undefined);
    else s.tail = turn.catch(() => undefined);
    return turn.finally(() => {
      if (reply) s.queuedReplies--;
      else s.queued--;
      if (++this.runs % 1000 === 0) this.sweep();
    });
  }

  /**
   * Records a 429. Telegram does not say whether the limit hit was the chat's
   * or the whole bot's. Our own pacing keeps every chat within its limits, so
   * a first 429 most likely means the bot-wide limit: everything pauses, since
   * any send inside a global window is refused again and counts against the bot.
   * A chat answered 429 again within a minute while others went through is
   * limited on its own: only it pauses, so one chat cannot stall the rest.
   */
  limited(chatId: string, retryAfterSec: number): LimitScope {
    const t = this.now();
    const s = this.chat(chatId);
    const until = t + Math.max(1, retryAfterSec) * this.secondMs;
    const repeat = t - s.limitedAt < this.groupWindowMs;
    s.limitedAt = t;
    s.pausedUntil = Math.max(s.pausedUntil, until);
    if (repeat) return 'chat';
    // Everyone pauses only briefly: if the limit was this chat's (groups often get 10-40 s), a long
    // bot-wide pause would stall every other chat; if it was the bot's, the chat's 429 repeats soon.
    this.bot.pausedUntil = Math.max(this.bot.pausedUntil, Math.min(until, t + 2 * this.secondMs));
    this.bot.poke();
    if (this.paidWindow) {
      this.paidWindow.pausedUntil = this.bot.pausedUntil;
      this.paidWindow.poke();
    }
    return 'global';
  }

  /** The paid-broadcast policy sends are reserved from (undefined: paid broadcasts off). */
  get paidPolicy(): PaidBroadcasts | undefined {
    return this.paid;
  }

  /** A Telegram minute on the pacer's clock. */
  get minuteMs(): number {
    return this.groupWindowMs;
  }

  /** Sends per minute the pacer allows one group and one other chat (for merging bursts). */
  get limits(): { perGroupPerMinute: number; perChatPerMinute: number } {
    return {
      perGroupPerMinute: this.groupMax,
      perChatPerMinute: Math.floor((60 * this.secondMs) / this.chatIntervalMs),
    };
  }

  /**
   * How long until this chat may take `sends` more messages, by its own limits
   * (0: now). Sends already queued for it are not counted: run() does that.
   */
  readyIn(chatId: string, sends = 1): number {
    const s = this.chats.get(chatId);
    return s ? Math.max(0, this.readyAt(s, chatId.startsWith('-'), sends) - this.now()) : 0;
  }

  /** Chats with state kept (for tests of memory use at scale). */
  get trackedChats(): number {
    return this.chats.size;
  }

  private async turn<T>(
    chatId: string,
    s: ChatState,
    send: (paid: boolean) => Promise<T>,
    retryAfter: (r: T) => number | undefined,
    maxChatWaitMs = Infinity,
    mayPay = false,
    reply = false,
  ): Promise<T> {
    const group = chatId.startsWith('-');
    for (;;) {
      const wait = this.readyAt(s, group, 1, reply) - this.now();
      // A reply slipped in (or a 429 arrived) since the caller was let in: refuse rather than sleep.
      if (wait > maxChatWaitMs) throw new PacedError(wait);
      // A second at most between looks: a clock moved forward (tests) is seen at once, not after the old wait.
      if (wait > 0) await sleep(Math.max(1, Math.ceil(Math.min(wait, this.secondMs))));
      // The other lane's send is on the wire: look again once it is done (its completion moves the limits).
      else if (s.wire) await s.wire;
      else break;
    }
    let wired!: () => void;
    s.wire = new Promise<void>((resolve) => {
      wired = resolve;
    });
    try {
      return await this.onWire(chatId, s, group, send, retryAfter, mayPay);
    } finally {
      s.wire = undefined;
      wired();
    }
  }

  /** The send itself, once the chat's limits allow it: the bot-wide window, paid or free, and the 429 it may meet. */
  private async onWire<T>(
    chatId: string,
    s: ChatState,
    group: boolean,
    send: (paid: boolean) => Promise<T>,
    retryAfter: (r: T) => number | undefined,
    mayPay: boolean,
  ): Promise<T> {
    // Only a send the free window would make wait goes paid; during a 429 pause nothing goes at all.
    const paid =
      mayPay &&
      this.paidWindow !== undefined &&
      this.now() >= this.bot.pausedUntil &&
      this.bot.wouldWait() &&
      this.paid!.reserve();
    const window = paid ? this.paidWindow! : this.bot;
    await window.acquire();
    let result: T;
    let sent = false;
    try {
      await onWire.getStore()?.();
      sent = true;
      result = await send(paid);
      // Record a 429 before release(): releasing hands the slot to the next waiter at
      // once, which would otherwise start its send inside the window just announced.
      const after = retryAfter(result);
      if (after !== undefined) this.limited(chatId, after);
    } catch (err) {
      // Never on the wire: nothing paid (once sent, the sender settles the reservation).
      if (paid && !sent) this.paid!.release();
      throw err;
    } finally {
      window.release();
      const t = this.now();
      s.last = t;
      if (group) {
        s.recent.push(t);
        if (s.recent.length > this.groupMax) s.recent.shift();
      }
    }
    return result;
  }

  /** When the chat may take its `sends`-th next message by its own limits (one a second; a group's minute; a flood wait). */
  private readyAt(s: ChatState, group: boolean, sends = 1, reply = false): number {
    const n = Math.max(1, sends);
    let at = Math.max(s.pausedUntil, s.last + this.chatIntervalMs * n);
    // A reply counts every send of the minute against a smaller share: the rest is the alerts'.
    const max = reply ? Math.max(1, this.groupMax - ALERT_RESERVE_PER_MINUTE) : this.groupMax;
    // The n-th next send to a group needs the (max - n + 1)-th most recent send to have left the window.
    const k = s.recent.length - max + n - 1;
    if (group && k >= 0) at = Math.max(at, s.recent[Math.min(k, s.recent.length - 1)]! + this.groupWindowMs);
    return at;
  }

  private chat(chatId: string): ChatState {
    let s = this.chats.get(chatId);
    if (!s) {
      s = {
        tail: Promise.resolve(),
        replyTail: Promise.resolve(),
        wire: undefined,
        queued: 0,
        queuedReplies: 0,
        last: -Infinity,
        recent: [],
        pausedUntil: 0,
        limitedAt: -Infinity,
      };
      this.chats.set(chatId, s);
    }
    return s;
  }

  /** Forgets idle chats whose every window has passed, so a 10,000-chat fan-out leaves nothing behind. */
  private sweep(): void {
    const t = this.now();
    for (const [id, s] of this.chats) {
      const busyUntil = Math.max(
        s.pausedUntil,
        s.last + Math.max(this.chatIntervalMs, this.groupWindowMs),
        s.limitedAt + this.groupWindowMs,
      );
      if (s.queued === 0 && s.queuedReplies === 0 && busyUntil < t) this.chats.delete(id);
    }
  }
}

function positive(n: number, name: string): number {
  if (!(n > 0) || !Number.isFinite(n)) throw new RangeError(`pacing.${name} must be a positive number`);
  return n;
}
