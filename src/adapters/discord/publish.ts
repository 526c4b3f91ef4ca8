/**
 * Publishing alerts in announcement channels to the servers that follow them.
 * Discord allows about 10 crossposts per channel per hour and answers the 11th
 * with a 429 that lasts the rest of the hour. So each channel's publishes are
 * counted in a sliding hour (stricter than any hour Discord may count): the
 * first 10 alerts are published, the rest stay posted but unpublished, and when
 * a publish is free again one summary of them is posted and published. A
 * crosspost is never retried nor waited for: a 429 (the hour used by another
 * instance, a moderator) only adds its alert to the summary.
 *
 * The hour lives in the store (store/publishes.ts): after a restart the count
 * goes on, and the summary of what an earlier instance left unpublished is still
 * posted (resume(), at this instance's first delivery call).
 */
import { DiscordAPIError, RateLimitError, Routes, type REST } from 'discord.js';
import type { Logger } from 'pino';
import { translator, type Locale } from '../../i18n/index.ts';
import { nonceFor } from '../../alerts/delivery.ts';
import { keyedTurns } from '../../domain/turns.ts';
import { memoryPublishLedger, type PublishHour, type PublishLedgerStore } from '../../store/publishes.ts';
import { SEND_DEADLINE_MS, within } from './deadline.ts';

export const PUBLISHES_PER_HOUR = 10;
export const HOUR_MS = 3_600_000;
/** Titles listed in a summary; the rest are counted. */
const SUMMARY_TITLES = 20;
/** A summary Discord did not take (an outage, a deadline) is tried again this much later. */
const SUMMARY_RETRY_MS = 60_000;

interface Channel {
  times: number[];
  held: { messageId: string; title: string }[];
  locale?: string | undefined;
}

export interface PublisherOptions {
  readonly now?: () => number;
  /** Runs `fn` after `ms` (tests pass their own, to let an hour pass at once). */
  readonly schedule?: (fn: () => void, ms: number) => void;
  /** The longest a crosspost or a summary may take (deadline.ts). */
  readonly deadlineMs?: number | undefined;
  /** Where each channel's hour is kept; in memory when absent (lost at a restart). */
  readonly ledger?: PublishLedgerStore | undefined;
}

export class Publisher {
  readonly #rest: REST;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #schedule: (fn: () => void, ms: number) => void;
  readonly #deadlineMs: number;
  readonly #ledger: PublishLedgerStore;
  /** One change of a channel's hour at a time: read, change, write. */
  readonly #turns = keyedTurns();
  /** Channels with a summary timer set. */
  readonly #timers = new Set<string>();
  #resumed = false;

  constructor(rest: REST, log: Logger, o: PublisherOptions = {}) {
    this.#rest = rest;
    this.#log = log;
    this.#now = o.now ?? Date.now;
    this.#schedule = o.schedule ?? ((fn, ms) => setTimeout(fn, ms).unref());
    this.#deadlineMs = o.deadlineMs ?? SEND_DEADLINE_MS;
    this.#ledger = o.ledger ?? memoryPublishLedger();
  }

  async #channel(id: string): Promise<Channel> {
    const h = await this.#ledger.get(id);
    return {
      times: (h?.times ?? []).filter((t) => this.#now() - t < HOUR_MS),
      held: [...(h?.held ?? [])],
      locale: h?.locale,
    };
  }

  #save(id: string, c: Channel): Promise<void> {
    const hour: PublishHour = { times: c.times, held: c.held, ...(c.locale ? { locale: c.locale } : {}) };
    return this.#ledger.put(id, hour);
  }

  /**
   * Summaries an earlier instance left to come (it stopped inside the hour): scheduled once. Called at
   * this instance's first delivery call, so only the instance that delivers posts them.
   */
  resume(): void {
    if (this.#resumed) return;
    this.#resumed = true;
    this.#ledger
      .held()
      .then((ids) => {
        for (const id of ids) this.#later(id, 0);
      })
      .catch((err: unknown) => this.#log.warn({ err }, 'unpublished alerts not read; their summary waits'));
  }

  /** An alert was posted in announcement channel `chatId`: publish it, or keep it for the summary. */
  published(chatId: string, messageId: string, title = '', locale?: string): Promise<void> {
    return this.#turns(chatId, async () => {
      const c = await this.#channel(chatId);
      if (locale) c.locale = locale;
      if (c.times.length < PUBLISHES_PER_HOUR && c.held.length === 0 && (await this.#crosspost(chatId, messageId, c)))
        return;
      c.held.push({ messageId, title });
      await this.#save(chatId, c);
      this.#later(chatId, this.#waitOf(c));
    });
  }

  async #crosspost(chatId: string, messageId: string, c: Channel): Promise<boolean> {
    // Counted before it goes out: a crash during the call may count a publish that did not happen, never the reverse.
    c.times.push(this.#now());
    await this.#save(chatId, c);
    try {
      await within(this.#deadlineMs, (signal) =>
        this.#rest.post(Routes.channelMessageCrosspost(chatId, messageId), { signal }),
      );
      return true;
    } catch (err) {
      const limited = err instanceof RateLimitError || (err instanceof DiscordAPIError && err.status === 429);
      // Already published (40033) counts as done; anything else leaves it unpublished, never retried.
      if (err instanceof DiscordAPIError && err.code === 40033) return true;
      if (limited) {
        c.times = Array(PUBLISHES_PER_HOUR).fill(this.#now());
        await this.#save(chatId, c);
      }
      this.#log.warn({ chatId, messageId, err: (err as Error).message }, 'alert not published');
      return false;
    }
  }

  /** Until the oldest publish of the hour leaves the window (0: a publish is free). */
  #waitOf(c: Channel): number {
    return c.times.length < PUBLISHES_PER_HOUR ? 0 : Math.max(c.times[0]! + HOUR_MS - this.#now(), 0);
  }

  #later(chatId: string, ms: number): void {
    if (this.#timers.has(chatId)) return;
    this.#timers.add(chatId);
    this.#schedule(() => {
      this.#timers.delete(chatId);
      void this.flush(chatId).catch((err: unknown) => this.#log.warn({ err, chatId }, 'publish summary failed'));
    }, ms);
  }

  /** Posts and publishes one summary of the alerts held in `chatId`, if a publish is free. */
  flush(chatId: string): Promise<void> {
    return this.#turns(chatId, async () => {
      const c = await this.#channel(chatId);
      if (c.held.length === 0) return;
      if (c.times.length >= PUBLISHES_PER_HOUR) return this.#later(chatId, this.#waitOf(c));
      const t = translator((c.locale ?? 'en') as Locale);
      const titles = c.held.map((h) => h.title).filter(Boolean);
      const shown = [...new Set(titles)].slice(0, SUMMARY_TITLES);
      const content = t('destinations.unpublished', { count: c.held.length, tokens: shown.join(', ') || '-' }).slice(
        0,
        2000,
      );
      let sent: { id: string };
      try {
        // The same nonce for the same held alerts: a summary repeated after a crash is Discord's first one.
        const nonce = nonceFor(`summary:${chatId}:${c.held[0]!.messageId}:${c.held.length}`);
        sent = (await within(this.#deadlineMs, (signal) =>
          this.#rest.post(Routes.channelMessages(chatId), {
            body: { content, allowed_mentions: { parse: [] }, nonce, enforce_nonce: true },
            signal,
          }),
        )) as { id: string };
      } catch (err) {
        // Kept: the summary is tried again, nothing it names is lost.
        this.#log.warn({ chatId, err: (err as Error).message }, 'publish summary not posted; tried again');
        return this.#later(chatId, SUMMARY_RETRY_MS);
      }
      c.held = [];
      await this.#save(chatId, c);
      await this.#crosspost(chatId, sent.id, c);
    });
  }
}
