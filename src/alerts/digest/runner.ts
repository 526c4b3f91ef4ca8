/**
 * Scheduled digests, run by the watcher's lease holder only. node-cron fires a
 * task per distinct schedule in its own time zone, and a check every minute
 * catches what a restart or a leader change missed. Each check posts, per
 * destination, the latest period not posted yet:
 *   1. the digest is built and written to the outbox under an id made of the
 *      destination and the period (the idempotency record: the outbox writes an
 *      id once, and only the lease holder sends it);
 *   2. the period is marked done, fenced by the lease.
 * A crash before 1 builds it again; between 1 and 2 writes the same id again,
 * which changes nothing; so each (destination, period) is posted exactly once.
 * A period found more than a few minutes after its time is posted late, marked so;
 * older missed periods are not posted at all (one late digest, never a backlog).
 */
import cron from 'node-cron';
import { announcePauseEnds } from '../pauses.ts';
import type { Lease } from '../../store/lease.ts';
import type { ChatLanguages } from '../../store/languages.ts';
import type { Outbox, OutboxEntry } from '../../store/outbox.ts';
import type { Kv } from '../../store/strict.ts';
import type { DigestSettings, Subscription, SubscriptionStore } from '../../store/subscriptions.ts';
import { digestData, type DigestDeps } from './build.ts';
import { cronExpression, latestPeriod, type DigestPeriod } from './schedule.ts';
import { threadPart } from '../../domain/destination.ts';

/** A digest checked this long after its time is marked late. */
export const LATE_AFTER_MS = 3 * 60_000;

export interface DigestOptions extends DigestDeps {
  readonly subscriptions: SubscriptionStore;
  readonly outbox: Outbox;
  /** Where posted periods are marked (the watcher's state). */
  readonly state: Kv;
  readonly languages?: ChatLanguages;
  readonly lease: Pick<Lease, 'status' | 'fenced'>;
  /** Delivery: asked to drain after a digest is queued. */
  readonly kick: () => void;
  readonly now?: () => number;
}

export interface Digests {
  /** Schedules the checks; idempotent. */
  start(): void;
  /** Posts every due digest not posted yet; the leader only. Returns the entries queued. */
  check(): Promise<OutboxEntry[]>;
  /** Builds and queues one digest now (`/digest now`), through the same path. */
  postNow(sub: Subscription): Promise<OutboxEntry>;
  stop(): Promise<void>;
}

const doneKey = (subId: string) => `digest:${subId}`;

export function digestEntryId(subId: string, key: string): string {
  return `digest:${key}:${subId}`;
}

/**
 * Gathers the digest's figures and writes them to the outbox under its period's id;
 * the entry as stored. Words and picture come when it is sent, in the destination's
 * language of that moment (alerts/delivery/compose.ts).
 */
export async function queueDigest(
  o: DigestDeps & { outbox: Pick<Outbox, 'enqueue' | 'get'> },
  sub: Subscription,
  period: DigestPeriod,
  late: boolean,
  now: number,
  skipped = 0,
): Promise<OutboxEntry> {
  const id = digestEntryId(sub.id, period.key);
  const existing = await o.outbox.get(id);
  if (existing) return existing;
  const entry: OutboxEntry = {
    id,
    subId: sub.id,
    platform: sub.platform,
    chatId: sub.chatId,
    ...threadPart(sub.threadId),
    isGroup: sub.isGroup,
    content: { kind: 'digest', key: period.key, data: await digestData(o, sub, period, late, skipped) },
    createdAt: now,
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  };
  // The batch is named by the entry: two writers of the same digest share one batch, so it is listed once.
  await o.outbox.enqueue(id, [entry]);
  return entry;
}

/** `/digest now`: the period that ends now (a day, or a week for weekly digests), through the same path. */
export function queueDigestNow(
  o: DigestDeps & { outbox: Pick<Outbox, 'enqueue' | 'get'> },
  sub: Subscription,
  now: number,
): Promise<OutboxEntry> {
  const weekly = sub.digest?.period === 'weekly';
  const period = {
    key: `${weekly ? 'weekly' : 'daily'}-now:${Math.floor(now / 60_000)}`,
    at: now,
    from: now - (weekly ? 7 : 1) * 86_400_000,
  };
  return queueDigest(
    o,
    { ...sub, digest: sub.digest ?? { period: 'daily', at: 0, tz: 'UTC', day: 1 } },
    period,
    false,
    now,
  );
}

export function createDigests(o: DigestOptions): Digests {
  const now = o.now ?? Date.now;
  const tasks = new Map<string, ReturnType<typeof cron.schedule>>();
  let minute: ReturnType<typeof cron.schedule> | undefined;
  let running: Promise<OutboxEntry[]> | undefined;
  let stopped = false;
  /** Subscriptions (all, and those with a digest), reread only when the store's version changed (a check runs every minute). */
  let cache: { version: string; all: Subscription[]; subs: Subscription[] } | undefined;

  async function loaded(): Promise<{ all: Subscription[]; subs: Subscription[] }> {
    const version = await o.subscriptions.version();
    if (cache?.version !== version) {
      const all = await o.subscriptions.all();
      cache = { version, all, subs: all.filter((s) => s.digest && !s.disabled && !s.movedTo) };
    }
    return cache;
  }

  async function runCheck(): Promise<OutboxEntry[]> {
    if (o.lease.status() !== 'leader') return [];
    const t = now();
    const { all, subs } = await loaded();
    const queued: OutboxEntry[] = [];
    // The same minute's check says in each destination whose pause ran out that it did (alerts/pauses.ts).
    try {
      queued.push(...(await announcePauseEnds({ ...o, fenced: (w) => o.lease.fenced(w) }, all, t)));
    } catch (err) {
      o.log.warn({ err }, 'pause ends not announced; next check tries again');
    }
    for (const sub of subs) {
      const settings = sub.digest!;
      const period = latestPeriod(settings, t);
      // A period scheduled before the digest was set up is not owed.
      if (period.at < (settings.since ?? 0)) continue;
      const done = await o.state.get<string>(doneKey(sub.id));
      if (done === period.key) continue;
      try {
        const late = t - period.at > LATE_AFTER_MS;
        const e = await queueDigest(o, sub, period, late, t, late ? skippedBefore(settings, period, done) : 0);
        await o.lease.fenced(() => o.state.set(doneKey(sub.id), period.key));
        queued.push(e);
      } catch (err) {
        o.log.warn({ err, sub: sub.id, period: period.key }, 'digest not built; next check tries again');
      }
    }
    if (queued.length) o.kick();
    reschedule(subs);
    return queued;
  }

  function check(): Promise<OutboxEntry[]> {
    running ??= runCheck().finally(() => (running = undefined));
    return running;
  }

  const fire = () => {
    if (!stopped) check().catch((err: unknown) => o.log.warn({ err }, 'digest check failed; next minute tries again'));
  };

  /** One node-cron task per distinct schedule, in its time zone: the check runs at the very minute. */
  function reschedule(subs: readonly Subscription[]): void {
    const want = new Map(subs.map((s) => [`${cronExpression(s.digest!)}|${s.digest!.tz}`, s.digest!]));
    for (const [k, task] of tasks) {
      if (want.has(k)) continue;
      void task.stop();
      tasks.delete(k);
    }
    for (const [k, d] of want)
      if (!tasks.has(k) && !stopped) tasks.set(k, cron.schedule(cronExpression(d), fire, { timezone: d.tz }));
  }

  return {
    start() {
      if (minute || stopped) return;
      minute = cron.schedule('30 * * * * *', fire);
      fire();
    },
    check,
    async postNow(sub) {
      const e = await queueDigestNow(o, sub, now());
      o.kick();
      return e;
    },
    async stop() {
      stopped = true;
      await minute?.stop();
      for (const task of tasks.values()) await task.stop();
      tasks.clear();
      await running?.catch(() => {});
    },
  };
}

/** Most earlier periods counted as skipped: enough for a year of daily digests, a bounded walk. */
const SKIPPED_MAX = 400;

/**
 * Periods between the last one posted (`done`) and `period`, none of them
 * posted: scheduled after the digest was set up and before this one.
 */
function skippedBefore(settings: DigestSettings, period: DigestPeriod, done: string | undefined): number {
  let n = 0;
  for (let p = latestPeriod(settings, period.at - 1); n < SKIPPED_MAX; p = latestPeriod(settings, p.at - 1)) {
    if (p.key === done || p.at < (settings.since ?? 0)) break;
    n++;
  }
  return n;
}
