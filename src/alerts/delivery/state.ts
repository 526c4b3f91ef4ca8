/**
 * The one state a delivery instance keeps between sends, and the small steps
 * every other part shares (finish an entry, wake later, the destination's
 * language). Everything else delivery knows is in the outbox: this is only
 * what must not be forgotten between two reads of it in one process.
 */
import type { Logger } from 'pino';
import type { SubscriptionStore, DestinationPlatform } from '../../store/subscriptions.ts';
import type { Outbox, OutboxEntry } from '../../store/outbox.ts';
import type { ChatLanguages } from '../../store/languages.ts';
import type { Lease } from '../../store/lease.ts';
import type { CallStore } from '../../store/calls.ts';
import type { ChartPool } from '../../domain/charts.ts';
import type { MarketAtTime, TokenRef } from '../market.ts';
import { RecentSends } from '../merge.ts';
import { DEFAULT_LOCALE, translator, type Locale, type T } from '../../i18n/index.ts';
import { chatLocale } from '../../core/language.ts';
import type { Sender, SendResult } from './types.ts';
import { keyedTurns, type Turns } from '../../domain/turns.ts';

export interface DeliveryOptions {
  readonly outbox: Outbox;
  readonly subscriptions: SubscriptionStore;
  readonly senders: readonly Sender[];
  readonly log: Logger;
  /** Only the lease holder sends: checked before a drain and before every send. */
  readonly lease?: Pick<Lease, 'status'>;
  /** Destinations sent to at once; default 256. */
  readonly concurrency?: number;
  /**
   * How long transient failures (5xx, network) are retried before an alert is given up;
   * default 1 hour, so a platform outage of minutes loses nothing. 429s are always waited out.
   */
  readonly retryForMs?: number;
  readonly now?: () => number;
  /**
   * Market caps now (operation 2, as call tracking reads them), for the multiple since each
   * alert in a quiet-hours summary; without it the summary shows none.
   */
  readonly marketNow?: (tokens: readonly TokenRef[]) => Promise<ReadonlyMap<string, MarketAtTime>>;
  readonly onResult?: (entry: OutboxEntry, result: SendResult) => void;
  /** After each drain: entries still waiting (outbox depth). */
  readonly onDrained?: (pending: number) => void;
  /** Where accepted alerts are recorded as calls and follow-ups read them; absent: no call tracking. */
  readonly calls?: CallStore;
  /** Each destination's language (/language, seeded at /subscribe); English when absent or unreadable. */
  readonly languages?: ChatLanguages;
  /** Draws a digest's calls chart when it is sent, in the destination's language; absent: digests go without it. */
  readonly charts?: ChartPool;
  /** Follow-up edits at once, across destinations; default 8. Few: a new alert never queues behind many edits in a sender's pacer. */
  readonly followupConcurrency?: number;
}

export interface Delivery {
  /** Sends everything pending; concurrent calls share one run and trigger one more after it. */
  drain(): Promise<void>;
  /** Stops after in-flight sends finish; pending entries stay in the outbox. */
  stop(): Promise<void>;
}

export interface DeliveryState {
  readonly o: DeliveryOptions;
  readonly now: () => number;
  readonly senders: ReadonlyMap<DestinationPlatform, Sender>;
  readonly retryForMs: number;
  /** Accepted by the platform, but the store did not take the "sent": never send these again. */
  readonly unrecorded: Map<string, string>;
  /** Sends per chat (every thread together: platforms limit chats) in the last minute, for merging a burst it cannot take. */
  readonly recent: RecentSends;
  /**
   * Per chat (chatKeyOf), how many of its destinations (the chat, its topics) have alerts in
   * this run: they share the chat's minute, so each merges a burst against its share.
   */
  readonly sharing: Map<string, number>;
  /** Work that must not interleave for one key (a chat's topics moving to it), as a chain of promises. */
  readonly serials: Turns;
  /**
   * Destinations that moved during this run, their entries following: chats (group migration)
   * by chatKeyOf, threads gone to their chat (topics turned off) by destinationKey.
   */
  readonly moved: Map<string, { chatId: string; subId: string }>;
  /**
   * Destinations a queue is sending right now (destinationKey; `edit ` before it for follow-ups): one
   * queue per destination at a time, whichever run started it, so a run never waits for another.
   */
  readonly claimed: Set<string>;
  /** Entries a run found for a destination already claimed: sent, read afresh, when its queue ends. */
  readonly waiting: Map<string, OutboxEntry[]>;
  /** Per run reading the outbox: destinations released meanwhile, whose entries it may have read stale. */
  readonly reading: Set<Set<string>>;
  /** Queues started when a claimed destination was released (their runs ended long ago, or never waited). */
  readonly tasks: Set<Promise<void>>;
  /** Another run is wanted after this one (a destination moved). */
  again: boolean;
  /** A drain was asked for while follow-ups were being edited: they yield, so new alerts go first. */
  yieldFollowups: boolean;
  stopping: boolean;
  /** A store failure in this run: every worker stops before the run ends. */
  failed: unknown;
  /** The earliest timer set for a destination that must wait. */
  wakeAt: number;
  wakeTimer: NodeJS.Timeout | undefined;
  /** Starts another drain (what the wake timer calls). */
  drain: () => Promise<void>;
}

export function createState(o: DeliveryOptions, drain: () => Promise<void>): DeliveryState {
  const now = o.now ?? Date.now;
  return {
    o,
    now,
    senders: new Map(o.senders.map((s) => [s.platform, s])),
    retryForMs: o.retryForMs ?? 3_600_000,
    unrecorded: new Map(),
    recent: new RecentSends(now),
    sharing: new Map(),
    serials: keyedTurns(),
    moved: new Map(),
    claimed: new Set(),
    waiting: new Map(),
    reading: new Set(),
    tasks: new Set(),
    again: false,
    yieldFollowups: false,
    stopping: false,
    failed: undefined,
    wakeAt: Infinity,
    wakeTimer: undefined,
    drain,
  };
}

export const leading = (s: DeliveryState): boolean => !s.o.lease || s.o.lease.status() === 'leader';

/**
 * A destination that must wait (429, retry) does not hold a worker: it is
 * skipped until `at`, and a timer starts another drain then. New alerts for
 * every other destination go out meanwhile.
 */
export function wake(s: DeliveryState, at: number): void {
  if (s.stopping || at >= s.wakeAt) return;
  s.wakeAt = at;
  clearTimeout(s.wakeTimer);
  s.wakeTimer = setTimeout(
    () => {
      s.wakeAt = Infinity;
      s.drain().catch((err: unknown) => s.o.log.warn({ err }, 'delivery paused'));
    },
    Math.max(1, at - s.now()),
  );
}

/** An entry's last state: sent (with its message id) or dead (with why). */
export async function finish(s: DeliveryState, e: OutboxEntry, state: 'sent' | 'dead', detail: string): Promise<void> {
  e.state = state;
  if (state === 'sent') e.messageId = detail;
  else e.error = detail;
  await s.o.outbox.update(e);
}

/** The destination's language: the one way delivery learns it. A store fault costs the language, never the alert. */
export async function localeOf(
  s: DeliveryState,
  e: Pick<OutboxEntry, 'platform' | 'chatId' | 'threadId'>,
): Promise<Locale> {
  if (!s.o.languages) return DEFAULT_LOCALE;
  // An alert has no caller: the destination's choice, else English.
  return chatLocale(s.o.languages, e, (err) => s.o.log.warn({ err }, 'alert language unreadable; sending in English'));
}

export async function languageOf(
  s: DeliveryState,
  e: Pick<OutboxEntry, 'platform' | 'chatId' | 'threadId'>,
): Promise<T> {
  return translator(await localeOf(s, e));
}

/** Runs `fn` after every earlier call for `key` has settled (in this process: only the lease holder delivers). */
export function serial<T>(s: DeliveryState, key: string, fn: () => Promise<T>): Promise<T> {
  return s.serials(key, fn);
}

/** Follow-up edits wait behind every new alert. */
export const isFollowup = (e: OutboxEntry): boolean => e.content.kind === 'followup';
