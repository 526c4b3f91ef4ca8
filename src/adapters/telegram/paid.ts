/**
 * Telegram paid broadcasts (`allow_paid_broadcast`): up to 1,000 messages a
 * second instead of about 30, for 0.1 Stars per message taken from the bot's
 * balance, where Telegram finds the bot eligible. This holds the operator's
 * policy: off unless asked for, a cap on the Stars spent per UTC day, and a
 * pause after Telegram refuses (balance too low, not eligible), so sending
 * falls back to the free rate and tries paying again later, not on every send.
 *
 * The pacer decides WHICH sends pay (only alerts that would otherwise wait for
 * the free bot-wide window); this decides WHETHER paying is allowed right now.
 * Stars are counted in tenths (one paid message each), so sums stay exact.
 */

/** What Telegram charges per paid message, in tenths of a Star. */
export const TENTHS_PER_MESSAGE = 1;
/** Paid sends a second Telegram allows (free ones included). */
export const PAID_PER_SECOND = 1000;
/** After a refusal, paying is not tried again for this long (a top-up or BotFather change takes a while). */
export const REFUSAL_PAUSE_MS = 10 * 60_000;

export interface PaidBroadcastOptions {
  /** Most Stars spent per UTC day; paid sends stop (free ones go on) once it is reached. */
  readonly maxStarsPerDay: number;
  /** Wall clock (ms since the epoch), for the day boundary and the refusal pause. */
  readonly now?: () => number;
  /** Told of every accepted paid send and of each change of state, for /metrics and the log. */
  readonly events?: PaidEvents;
  /**
   * Where the day's spending is kept (the store): a restart, or another instance taking over the
   * alerts, goes on from it instead of from zero. Without it the count is this process's alone.
   */
  readonly ledger?: PaidLedger;
}

/** The Stars spent per UTC day, in tenths, shared by every instance (store/paid.ts). */
export interface PaidLedger {
  /** Adds `tenths` to `day`'s total and returns the new total. */
  add(day: string, tenths: number): Promise<number>;
}

/** How often the day's spending is written to the ledger while paid sends go out. */
export const LEDGER_EVERY_MS = 1_000;

export interface PaidEvents {
  /** One message went out paid: `stars` is what it cost (0.1). */
  sent?(stars: number): void;
  /** Telegram refused paying: paying pauses until `until` (ms since the epoch). Said once per pause. */
  refused?(reason: string, until: number): void;
  /** Every paid send Telegram refused, those refused together in one pause included (for /metrics). */
  refusal?(): void;
  /** The day's cap is reached; free sending goes on until the next UTC day. */
  capped?(spentStars: number): void;
}

export class PaidBroadcasts {
  readonly #capTenths: number;
  readonly #now: () => number;
  readonly #events: PaidEvents;
  #day = '';
  /** Tenths spent today, counting sends reserved and not yet answered (so concurrency cannot overshoot the cap). */
  #tenths = 0;
  #pausedUntil = 0;
  #cappedSaid = false;
  /** Tenths spent here and not yet added to the ledger. */
  #unsynced = 0;
  #syncing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #ledger: PaidLedger | undefined;
  /** Totals since start (for tests and the log). */
  messages = 0;
  refusals = 0;

  constructor(o: PaidBroadcastOptions) {
    if (!(o.maxStarsPerDay > 0)) throw new RangeError('maxStarsPerDay must be > 0');
    this.#capTenths = Math.floor(o.maxStarsPerDay * 10);
    this.#now = o.now ?? Date.now;
    this.#events = o.events ?? {};
    this.#ledger = o.ledger;
  }

  /**
   * Reads (and writes) the day's total from the ledger now: at start, before the first alert, so
   * a restart mid-day does not spend the cap again. Later syncs run by themselves while paying.
   */
  sync(): Promise<void> {
    if (!this.#ledger) return Promise.resolve();
    this.#syncing ??= (async () => {
      this.#roll(this.#now());
      const day = this.#day;
      const delta = this.#unsynced;
      this.#unsynced = 0;
      try {
        const total = await this.#ledger!.add(day, delta);
        // Reservations made while the write was on its way stay counted on top.
        if (day === this.#day) this.#tenths = Math.max(this.#tenths, total + this.#unsynced);
      } catch {
        this.#unsynced += delta; // the store was away: the next sync adds it
      }
    })().finally(() => (this.#syncing = undefined));
    return this.#syncing;
  }

  /** Writes what is left unsynced and stops the timer (at shutdown). */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#syncing;
    if (this.#unsynced) await this.sync();
  }

  /** Takes one paid message out of today's cap; false: pay nothing now (capped or paused). */
  reserve(): boolean {
    const t = this.#now();
    this.#roll(t);
    if (t < this.#pausedUntil) return false;
    if (this.#tenths + TENTHS_PER_MESSAGE > this.#capTenths) {
      if (!this.#cappedSaid) {
        this.#cappedSaid = true;
        this.#events.capped?.(this.#tenths / 10);
      }
      return false;
    }
    this.#tenths += TENTHS_PER_MESSAGE;
    this.#changed(TENTHS_PER_MESSAGE);
    return true;
  }

  /** The reserved send was accepted by Telegram: it cost its Stars. */
  charged(): void {
    this.messages++;
    this.#events.sent?.(TENTHS_PER_MESSAGE / 10);
  }

  /** The reserved send did not go out paid (refused, failed, or never sent): nothing was spent. */
  release(): void {
    this.#tenths = Math.max(0, this.#tenths - TENTHS_PER_MESSAGE);
    this.#changed(-TENTHS_PER_MESSAGE);
  }

  /** Counts a change of today's spending for the ledger, written within LEDGER_EVERY_MS. */
  #changed(tenths: number): void {
    if (!this.#ledger) return;
    this.#unsynced += tenths;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.sync();
    }, LEDGER_EVERY_MS);
    this.#timer.unref?.();
  }

  /** Telegram refused paying: release the reservation and pause paying for a while. */
  refused(reason: string): void {
    this.release();
    this.refusals++;
    this.#events.refusal?.();
    const t = this.#now();
    // Several sends in flight are refused together: one pause, said once.
    if (t < this.#pausedUntil) return;
    this.#pausedUntil = t + REFUSAL_PAUSE_MS;
    this.#events.refused?.(reason, this.#pausedUntil);
  }

  /** Stars spent (or reserved) today. */
  get spentToday(): number {
    this.#roll(this.#now());
    return this.#tenths / 10;
  }

  #roll(t: number): void {
    const day = new Date(t).toISOString().slice(0, 10);
    if (day === this.#day) return;
    this.#day = day;
    this.#tenths = 0;
    this.#unsynced = 0;
    this.#cappedSaid = false;
  }
}

/**
 * Whether Telegram's answer to a paid send refuses the payment rather than the message or the chat.
 * The Bot API documents no error text for it; these are the words its Stars errors use (for example
 * BALANCE_TOO_LOW). A refusal about the chat (blocked, kicked, not found) is not one: that send
 * would fail free as well.
 */
export function isPaidRefusal(res: { ok: boolean; error_code?: number; description?: string }): boolean {
  if (res.ok || res.error_code === undefined) return false;
  if (res.error_code !== 400 && res.error_code !== 402 && res.error_code !== 403) return false;
  const d = res.description ?? '';
  if (/blocked|kicked|deactivated|chat not found|user not found|not enough rights|CHAT_WRITE_FORBIDDEN/i.test(d))
    return false;
  return res.error_code === 402 || /stars|balance|paid|broadcast|payment/i.test(d);
}
