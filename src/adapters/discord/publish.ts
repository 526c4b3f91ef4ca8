/**
 * Publishing alerts in announcement channels to the servers that follow them.
 * Discord allows about 10 crossposts per channel per hour and answers the 11th
 * with a 429 that lasts the rest of the hour. So each channel's publishes are
 * counted in a sliding hour (stricter than any hour Discord may count): the
 * first 10 alerts are published, the rest stay posted but unpublished, and when
 * a publish is free again one summary of them is posted and published. A
 * crosspost is never retried: a 429 (another instance used the hour) only
 * adds its alert to the summary.
 */
import { DiscordAPIError, RateLimitError, Routes, type REST } from 'discord.js';
import type { Logger } from 'pino';
import { translator, type Locale } from '../../i18n/index.ts';
import { SEND_DEADLINE_MS, within } from './deadline.ts';

export const PUBLISHES_PER_HOUR = 10;
export const HOUR_MS = 3_600_000;
/** Titles listed in a summary; the rest are counted. */
const SUMMARY_TITLES = 20;

interface Channel {
  /** When each publish in the last hour went out, ascending. */
  times: number[];
  /** Alerts posted unpublished since the last summary. */
  held: { messageId: string; title: string }[];
  locale?: string;
  timer?: boolean;
}

export interface PublisherOptions {
  readonly now?: () => number;
  /** Runs `fn` after `ms` (tests pass their own, to let an hour pass at once). */
  readonly schedule?: (fn: () => void, ms: number) => void;
  /** The longest a crosspost or a summary may take (deadline.ts). */
  readonly deadlineMs?: number | undefined;
}

export class Publisher {
  readonly #rest: REST;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #schedule: (fn: () => void, ms: number) => void;
  readonly #deadlineMs: number;
  readonly #channels = new Map<string, Channel>();

  constructor(rest: REST, log: Logger, o: PublisherOptions = {}) {
    this.#rest = rest;
    this.#log = log;
    this.#now = o.now ?? Date.now;
    this.#schedule = o.schedule ?? ((fn, ms) => setTimeout(fn, ms).unref());
    this.#deadlineMs = o.deadlineMs ?? SEND_DEADLINE_MS;
  }

  #channel(id: string): Channel {
    let c = this.#channels.get(id);
    if (!c) {
      c = { times: [], held: [] };
      this.#channels.set(id, c);
    }
    c.times = c.times.filter((t) => this.#now() - t < HOUR_MS);
    return c;
  }

  /** An alert was posted in announcement channel `chatId`: publish it, or keep it for the summary. */
  async published(chatId: string, messageId: string, title = '', locale?: string): Promise<void> {
    const c = this.#channel(chatId);
    if (locale) c.locale = locale;
    if (c.times.length < PUBLISHES_PER_HOUR && c.held.length === 0 && (await this.#crosspost(chatId, messageId, c)))
      return;
    c.held.push({ messageId, title });
    this.#later(chatId, c);
  }

  async #crosspost(chatId: string, messageId: string, c: Channel): Promise<boolean> {
    c.times.push(this.#now());
    try {
      await within(this.#deadlineMs, (signal) =>
        this.#rest.post(Routes.channelMessageCrosspost(chatId, messageId), { signal }),
      );
      return true;
    } catch (err) {
      const limited = err instanceof RateLimitError || (err instanceof DiscordAPIError && err.status === 429);
      // Already published (40033) counts as done; anything else leaves it unpublished, never retried.
      if (err instanceof DiscordAPIError && err.code === 40033) return true;
      if (limited) c.times = Array(PUBLISHES_PER_HOUR).fill(this.#now());
      this.#log.warn({ chatId, messageId, err: (err as Error).message }, 'alert not published');
      return false;
    }
  }

  /** Wakes when the oldest publish of the hour leaves the window. */
  #later(chatId: string, c: Channel): void {
    if (c.timer) return;
    c.timer = true;
    const wait = c.times.length < PUBLISHES_PER_HOUR ? 0 : c.times[0]! + HOUR_MS - this.#now();
    this.#schedule(
      () => {
        c.timer = false;
        void this.flush(chatId).catch((err: unknown) => this.#log.warn({ err, chatId }, 'publish summary failed'));
      },
      Math.max(wait, 0),
    );
  }

  /** Posts and publishes one summary of the alerts held in `chatId`, if a publish is free. */
  async flush(chatId: string): Promise<void> {
    const c = this.#channel(chatId);
    if (c.held.length === 0) return;
    if (c.times.length >= PUBLISHES_PER_HOUR) return this.#later(chatId, c);
    const held = c.held;
    c.held = [];
    const t = translator((c.locale ?? 'en') as Locale);
    const titles = held.map((h) => h.title).filter(Boolean);
    const shown = [...new Set(titles)].slice(0, SUMMARY_TITLES);
    const content = t('destinations.unpublished', { count: held.length, tokens: shown.join(', ') || '-' }).slice(
      0,
      2000,
    );
    const sent = (await within(this.#deadlineMs, (signal) =>
      this.#rest.post(Routes.channelMessages(chatId), { body: { content, allowed_mentions: { parse: [] } }, signal }),
    )) as { id: string };
    await this.#crosspost(chatId, sent.id, c);
  }
}
