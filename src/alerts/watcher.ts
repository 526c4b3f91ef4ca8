/**
 * The tweet-feed watcher, modelled on grammY's runner: a long-running loop with
 * explicit options, no overlapping ticks, and a stop() that resolves only after
 * the tick in flight has finished. By default it reads the feed as often as its
 * request budget allows (alerts/budget.ts: spent evenly, slower only when the
 * upstream refuses, never in a lull); with a cron expression it ticks on that
 * schedule instead, as it always did. Each tick:
 *   1. reads the feed newest first, paging with the cursor until it meets the
 *      high-water mark (so a burst larger than a page is not missed), using the
 *      loosest filters any subscription allows;
 *   2. matches the new tweets, oldest first, against every subscription;
 *   3. writes one outbox entry per (alert, destination), then moves the mark;
 *   4. asks delivery to drain the outbox.
 * Any failure before step 3 completes leaves the mark where it was: the next
 * tick fetches the same tweets and produces the same entry ids, so nothing is
 * lost and nothing is queued twice.
 *
 * This file is the schedule (paced loop or cron, no overlap, stop); step 1 is
 * feedReader.ts, steps 2-4 are tick.ts.
 */
import { setTimeout as delay } from 'node:timers/promises';
import cron from 'node-cron';
import type { Logger } from 'pino';
import type { KolClient } from '../api/index.ts';
import type { PageStore } from '../store/pages.ts';
import type { Kv } from '../store/strict.ts';
import type { SubscriptionStore } from '../store/subscriptions.ts';
import type { Outbox } from '../store/outbox.ts';
import type { Lease } from '../store/lease.ts';
import type { LinkSet } from '../domain/links.ts';
import type { Delivery } from './delivery.ts';
import { FeedBudget } from './budget.ts';
import { DEFAULT_FEED_REQUESTS_PER_MINUTE } from '../config/alerts.ts';
import type { Followups, RoundResult } from './calls/followups.ts';
import { createFeedReader } from './feedReader.ts';
import { createTicker, type TickResult } from './tick.ts';

export type { TickResult } from './tick.ts';

export interface WatcherOptions {
  readonly api: KolClient;
  readonly subscriptions: SubscriptionStore;
  readonly outbox: Outbox;
  /** Watcher state (high-water mark) and cooldowns. */
  readonly state: Kv;
  readonly pages: PageStore;
  readonly delivery: Delivery;
  readonly lease: Lease;
  readonly log: Logger;
  /**
   * node-cron expression: tick on this schedule instead of the budget's pace (and,
   * unless feedRequestsPerMinute is given too, without a budget, as before it existed).
   */
  readonly cron?: string;
  /** Feed requests (every page counted) in any minute; default 20, a read about every 3 s. */
  readonly feedRequestsPerMinute?: number;
  /** How often the paced reader runs a follow-up round, beside its reads; default 30 s. */
  readonly followupEveryMs?: number;
  /**
   * When a new alert's market request (operation 2) that has not answered gets a twin,
   * the first answer winning; default 400 ms (about a typical API's p90); false: never.
   */
  readonly marketHedgeMs?: number | false;
  /** Waits on the watcher's clock (tests pass a virtual one with `now`); resolves early on abort. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Feed page size (the upstream allows 1-30); default 30. */
  readonly pageSize?: number;
  /** Most tweets handled after downtime; older ones are counted and skipped. Default 1,000. */
  readonly maxBacklog?: number;
  /** How far behind the mark the feed is re-read for tweets indexed late; default 2 min. */
  readonly lookbackMs?: number;
  /**
   * How often the paced reader re-reads that window (it costs pages); its other reads
   * stop at the mark. Default 60 s. A tick asked for by hand or by cron always does.
   */
  readonly lookbackEveryMs?: number;
  /** Upstream budget per request of a tick; default 10 s. */
  readonly budgetMs?: number;
  /** How long author facts looked up from operation 7 are reused; default 10 min. */
  readonly authorTtlMs?: number;
  readonly now?: () => number;
  /** Call follow-ups, run by the leader after each tick; absent: none. */
  readonly followups?: Followups;
  readonly onFollowups?: (r: RoundResult) => void;
  readonly onTick?: (r: TickResult) => void;
  /** Every feed request the watcher makes (each page; refused and failed ones too), as it goes out. */
  readonly onFeedRequest?: () => void;
  /** Chart, trading and safety links on alerts (the operator's LINKS_*); absent: the defaults. */
  readonly links?: LinkSet;
  /** A scheduled tick failed (upstream or store); the next tick retries. */
  readonly onTickError?: (err: unknown) => void;
}

export interface Watcher {
  start(): void;
  /** One tick now; if one is running, waits for it instead of starting another. */
  tick(): Promise<TickResult>;
  /** Drains the outbox soon, if this instance holds the lease (only the leader sends). */
  kick(): void;
  /** Stops scheduling, waits for the running tick, then stops delivery. */
  stop(): Promise<void>;
  /** Ticks failed in a row (the feed not read), and when the leader last read it: for /readyz. */
  feed(): { readonly failedTicks: number; readonly lastReadAt: number | null };
}

/** Failed ticks in a row after which the watcher counts as blind: alive, scheduled, and reading nothing. */
export const BLIND_AFTER_TICKS = 3;

const sleepFor = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => {});

export function createWatcher(o: WatcherOptions): Watcher {
  const now = o.now ?? Date.now;
  const budgetMs = o.budgetMs ?? 10_000;
  const lookbackMs = o.lookbackMs ?? 120_000;
  const lookbackEveryMs = o.lookbackEveryMs ?? 60_000;
  const sleep = o.sleep ?? sleepFor;
  // WATCH_CRON as it always was; otherwise the paced reader and its budget.
  const budget =
    o.cron !== undefined && o.feedRequestsPerMinute === undefined
      ? undefined
      : new FeedBudget(o.feedRequestsPerMinute ?? DEFAULT_FEED_REQUESTS_PER_MINUTE);
  const followupEveryMs = o.followupEveryMs ?? 30_000;
  const abort = new AbortController();
  let loopDone: Promise<void> | undefined;
  let round: Promise<void> | undefined;
  let roundAt = -Infinity;
  let task: ReturnType<typeof cron.schedule> | undefined;
  let inflight: Promise<TickResult> | undefined;
  let stopped = false;

  /** Starts a drain without waiting; a store fault pauses delivery until the next tick. */
  function kick(): void {
    o.delivery.drain().catch((err: unknown) => o.log.warn({ err }, 'delivery paused'));
  }

  const reader = createFeedReader({
    api: o.api,
    state: o.state,
    lease: o.lease,
    log: o.log,
    budget,
    budgetMs,
    pageSize: o.pageSize ?? 30,
    maxBacklog: o.maxBacklog ?? 1000,
    lookbackMs,
    now,
    sleep,
    signal: abort.signal,
    stopped: () => stopped,
    ...(o.onFeedRequest ? { onRequest: o.onFeedRequest } : {}),
  });
  const runTick = createTicker({
    ...o,
    reader,
    now,
    budgetMs,
    lookbackMs,
    hedge: o.marketHedgeMs !== false ? { hedgeAfterMs: o.marketHedgeMs ?? 400 } : {},
    kick,
  });

  /** One follow-up round at a time, on the leader only. Its failure never fails a tick. */
  function followUp(): Promise<void> {
    if (!o.followups || stopped) return Promise.resolve();
    if (round) return round;
    const f0 = o.followups;
    roundAt = now();
    round = (async () => {
      try {
        const f = await f0.round();
        o.onFollowups?.(f);
        // New edits, or new samples that edits queued before them (a round repeated after a crash) wait for.
        if (f.queued || f.requests) kick();
      } catch (err) {
        o.log.warn({ err }, 'follow-up round failed; will retry');
      }
    })().finally(() => (round = undefined));
    return round;
  }

  let failedTicks = 0;
  let lastReadAt: number | null = null;
  function read(deep = true): Promise<TickResult> {
    if (inflight) return inflight;
    inflight = runTick(deep)
      .then(
        (r) => {
          failedTicks = 0;
          if (r.leader) lastReadAt = now();
          return r;
        },
        (err: unknown) => {
          failedTicks++;
          throw err;
        },
      )
      .finally(() => (inflight = undefined));
    return inflight;
  }

  /** A read, then the follow-up round it makes due (waited for: a caller's tick includes it). */
  async function tick(): Promise<TickResult> {
    const r = await read();
    if (r.leader) await followUp();
    return r;
  }

  function failed(err: unknown): void {
    o.onTickError?.(err);
    // A refused feed read was said once already (feedRequest); the next read waits its back-off.
    if (!reader.slowed() && !(stopped && abort.signal.aborted)) o.log.warn({ err }, 'watch tick failed; will retry');
  }

  /**
   * The paced reader: a read every budget interval, the pages of a burst drawn
   * from the same minute, and follow-up rounds beside the reads, never in front
   * of them (a new tweet is never kept waiting by a round of edits).
   */
  async function loop(b: FeedBudget): Promise<void> {
    let next = now();
    while (!stopped) {
      const wait = Math.max(next - now(), b.waitMs(now()));
      if (wait > 0) {
        await sleep(wait, abort.signal);
        continue;
      }
      next = now() + b.paceMs(now());
      try {
        const r = await read(now() - reader.lookedBackAt() >= lookbackEveryMs);
        if (r.leader && now() - roundAt >= followupEveryMs) void followUp();
      } catch (err) {
        failed(err);
      }
    }
  }

  return {
    start() {
      if (task || loopDone) return;
      if (o.cron === undefined && budget) loopDone = loop(budget);
      else
        task = cron.schedule(o.cron ?? '*/30 * * * * *', () => {
          if (stopped || inflight) return; // no overlap: a slow tick makes the next one wait its turn
          tick().catch(failed);
        });
      // Deliver whatever a previous run left in the outbox, without waiting for the first tick.
      void o.lease.acquire().then(
        (ok) => ok && kick(),
        () => {},
      );
    },
    tick,
    feed: () => ({ failedTicks, lastReadAt }),
    kick() {
      if (o.lease.status() === 'leader') kick();
    },
    async stop() {
      stopped = true;
      abort.abort();
      await task?.stop();
      task = undefined;
      await loopDone;
      await inflight?.catch(() => {});
      await round;
      await o.delivery.stop();
      await o.lease.release();
    },
  };
}
