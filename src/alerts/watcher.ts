/**
 * The tweet-feed watcher, modelled on grammY's runner: a long-running loop with
 * explicit options, no overlapping ticks, and a stop() that resolves only after
 * the tick in flight has finished. Each tick:
 *   1. reads the feed newest first, paging with the cursor until it meets the
 *      high-water mark (so a burst larger than a page is not missed), using the
 *      loosest filters any subscription allows;
 *   2. matches the new tweets, oldest first, against every subscription;
 *   3. writes one outbox entry per (alert, destination), then moves the mark;
 *   4. asks delivery to drain the outbox.
 * Any failure before step 3 completes leaves the mark where it was: the next
 * tick fetches the same tweets and produces the same entry ids, so nothing is
 * lost and nothing is queued twice.
 */
import cron from 'node-cron';
import type { Logger } from 'pino';
import type { KolClient, TweetListItem } from '../api/index.ts';
import type { PageStore } from '../store/pages.ts';
import type { Kv } from '../store/strict.ts';
import type { FeedPosition, Subscription, SubscriptionStore } from '../store/subscriptions.ts';
import type { Delivery } from './delivery.ts';
import { fnv1a } from './hash.ts';
import {
  compile,
  hasUnknowns,
  isAfter,
  loosestFilters,
  tweetFacts,
  type CompiledSubscriptions,
  type Match,
  type TweetFacts,
} from './matcher.ts';
import { createAuthorLookup, type AuthorFacts, type LookupStats } from './authors.ts';
import { recordHeld } from './held.ts';
import { recordShills } from './shills.ts';
import type { Outbox } from '../store/outbox.ts';
import { planAlerts } from './plan.ts';
import type { Lease } from '../store/lease.ts';
import type { Followups, RoundResult } from './calls/followups.ts';
import type { LinkSet } from '../domain/links.ts';

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
  /** node-cron expression; default every 30 s. */
  readonly cron?: string;
  /** Feed page size (the upstream allows 1-30); default 30. */
  readonly pageSize?: number;
  /** Most tweets handled after downtime; older ones are counted and skipped. Default 1,000. */
  readonly maxBacklog?: number;
  /** How far behind the mark the feed is re-read for tweets indexed late; default 2 min. */
  readonly lookbackMs?: number;
  /** Upstream budget per request of a tick; default 10 s. */
  readonly budgetMs?: number;
  /** How long author facts looked up from operation 7 are reused; default 10 min. */
  readonly authorTtlMs?: number;
  readonly now?: () => number;
  /** Call follow-ups, run by the leader after each tick; absent: none. */
  readonly followups?: Followups;
  readonly onFollowups?: (r: RoundResult) => void;
  readonly onTick?: (r: TickResult) => void;
  /** Chart, trading and safety links on alerts (the operator's LINKS_*); absent: the defaults. */
  readonly links?: LinkSet;
  /** A scheduled tick failed (upstream or store); the next tick retries. */
  readonly onTickError?: (err: unknown) => void;
}

export interface TickResult {
  readonly fetched: number;
  readonly matched: number;
  readonly queued: number;
  readonly skipped: number;
  readonly ms: number;
  readonly leader: boolean;
  /** Age of the newest tweet handled (the high-water mark), for the lag metric. */
  readonly lagMs: number | null;
  /** Author lookups of this tick (op-7 requests, cache hits, tweets left with unknown facts). */
  readonly lookup: LookupStats;
  /** (tweet, subscription) pairs held back because a filter needed an unknown fact. */
  readonly held: number;
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

interface State {
  readonly hwm: FeedPosition | null;
  /** Since when every handled tweet has a seen marker: the lookback never reaches before it. */
  readonly seenFrom?: number;
}

/** How often the leader scans the outbox for unindexed entries. */
const RECOVER_EVERY_MS = 10 * 60_000;

/** Most feed pages one tick reads (a runaway cursor must not loop forever). */
const MAX_PAGES = 400;

const STATE_KEY = 'state';

const pos = (t: TweetListItem): FeedPosition => ({ tweetedAt: t.tweeted_at, id: t.id });

/** A short fingerprint of a set of tweet ids, order-independent. */
const hashIds = (ids: readonly string[]): string => fnv1a([...ids].sort().join('')).toString(36);

export function createWatcher(o: WatcherOptions): Watcher {
  const now = o.now ?? Date.now;
  const pageSize = o.pageSize ?? 30;
  const maxBacklog = o.maxBacklog ?? 1000;
  const budgetMs = o.budgetMs ?? 10_000;
  const lookbackMs = o.lookbackMs ?? 120_000;
  let task: ReturnType<typeof cron.schedule> | undefined;
  let inflight: Promise<TickResult> | undefined;
  let stopped = false;
  let leading = false;
  let recoveredAt = 0;
  /** The hour this process last marked as read (digests' "most shilled" covers only hours read). */
  let markedHour = -1;
  let cache: { version: string; subs: Subscription[]; compiled: CompiledSubscriptions } | undefined;
  const authors = createAuthorLookup({
    api: o.api,
    log: o.log,
    now,
    ...(o.authorTtlMs !== undefined ? { ttlMs: o.authorTtlMs } : {}),
  });

  /** Starts a drain without waiting; a store fault pauses delivery until the next tick. */
  function kick(): void {
    o.delivery.drain().catch((err: unknown) => o.log.warn({ err }, 'delivery paused'));
  }

  async function subscriptions() {
    const version = await o.subscriptions.version();
    if (!cache || cache.version !== version) {
      const subs = await o.subscriptions.all();
      cache = { version, subs, compiled: compile(subs) };
    }
    return cache;
  }

  async function head(): Promise<FeedPosition | null> {
    const r = await o.api.getTweets({ limit: 1 }, { budgetMs, cache: 'bypass' });
    const t = r.items[0];
    return t ? { tweetedAt: t.tweeted_at, id: t.id } : null;
  }

  /**
   * New tweets since the mark, oldest first. The feed is read down to the mark
   * minus a lookback window: a tweet the upstream indexed late (its tweeted_at
   * already behind the mark) and tweets sharing the mark's second in another
   * order are still found, and a seen marker per handled tweet keeps any of them
   * from being handled twice. At most maxBacklog are handled; older ones are counted.
   */
  async function fetchNew(state: State & { hwm: FeedPosition }, subs: readonly Subscription[]) {
    const filters = loosestFilters(subs);
    const floor = Math.max(Date.parse(state.hwm.tweetedAt) - lookbackMs, state.seenFrom ?? -Infinity);
    const newer: TweetListItem[] = [];
    const behind: TweetListItem[] = [];
    let cursor: string | undefined;
    const cursors = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await o.api.getTweets(
        { limit: pageSize, ...filters, ...(cursor ? { cursor } : {}) },
        { budgetMs, cache: 'bypass' },
      );
      let oldest = Infinity;
      for (const t of r.items) {
        const ms = Date.parse(t.tweeted_at);
        if (!Number.isFinite(ms)) {
          o.log.warn({ tweet: t.id }, 'tweet without a readable time skipped');
          continue;
        }
        oldest = Math.min(oldest, ms);
        if (isAfter(pos(t), state.hwm)) newer.push(t);
        else if (ms >= floor) behind.push(t);
      }
      if (oldest < floor || !r.next_cursor || cursors.has(r.next_cursor)) break;
      cursors.add(r.next_cursor);
      cursor = r.next_cursor;
    }
    const seen = await o.state.getMany<number>(behind.map((t) => `seen:${t.id}`));
    const late = behind.filter((_, i) => seen[i] === undefined);
    const unique = new Map([...newer, ...late].map((t) => [t.id, t]));
    const all = [...unique.values()].sort((a, b) => (isAfter(pos(a), pos(b)) ? 1 : isAfter(pos(b), pos(a)) ? -1 : 0));
    const skipped = Math.max(0, all.length - maxBacklog);
    return { tweets: all.slice(skipped), skipped, late: late.length };
  }

  async function runTick(): Promise<TickResult> {
    const started = now();
    let mark: FeedPosition | null = null;
    let lookup: LookupStats = { requests: 0, cacheHits: 0, unknown: 0 };
    let held = 0;
    const result = (fetched: number, matched: number, queued: number, skipped: number, leader = true): TickResult => {
      const lagMs = mark ? Math.max(0, now() - Date.parse(mark.tweetedAt)) : null;
      const r = { fetched, matched, queued, skipped, ms: now() - started, leader, lagMs, lookup, held };
      o.onTick?.(r);
      return r;
    };
    if (!(await o.lease.acquire())) {
      leading = false;
      return result(0, 0, 0, 0, false);
    }
    if (!leading || now() - recoveredAt > RECOVER_EVERY_MS) {
      // Newly leader (start, takeover), and now and then: pick up entries no batch points at
      // (a crash mid-write, or another instance's index write racing ours).
      const n = await o.outbox.recover();
      if (n) o.log.warn({ entries: n }, 'recovered unindexed outbox entries');
      leading = true;
      recoveredAt = now();
    }
    const state = (await o.state.get<State>(STATE_KEY)) ?? { hwm: null };
    mark = state.hwm;
    const { subs, compiled } = await subscriptions();
    if (!state.hwm || compiled.size === 0) {
      // First start, or nobody listening: start from the head, never from history.
      const h = await head();
      if (h && (!state.hwm || isAfter(h, state.hwm))) {
        // Nothing before the head was marked seen: the lookback must not reach behind it.
        await o.lease.fenced(() =>
          o.state.set(STATE_KEY, { hwm: h, seenFrom: Date.parse(h.tweetedAt) + 1 } satisfies State),
        );
        mark = h;
      }
      kick();
      return result(0, 0, 0, 0);
    }
    const loaded = cache!.version;
    const { tweets, skipped, late } = await fetchNew({ ...state, hwm: state.hwm }, subs);
    if (late) o.log.info({ late }, 'tweets indexed late found behind the mark');
    if ((await o.subscriptions.version()) !== loaded) {
      // A subscription changed while the feed was read (a new one starts at the head it saw):
      // matching with the old set could move the mark past its first tweets. Next tick, again.
      return result(0, 0, 0, 0);
    }
    if (!tweets.length) {
      const hour = Math.floor(now() / 3_600_000);
      if (hour !== markedHour) {
        await recordShills(o.state, [], '', now());
        markedHour = hour;
      }
      kick();
      return result(0, 0, 0, 0);
    }
    // The mark only moves forward: late tweets lie behind it.
    const newest = tweets.at(-1)!;
    const newHwm: FeedPosition = isAfter(pos(newest), state.hwm) ? pos(newest) : state.hwm;
    // The same tweets give the same batch id: a repeated tick merges into its batch.
    const batchId = `t${newHwm.id}-${hashIds(tweets.map((x) => x.id))}`;
    const t = now();
    // Author facts the feed lacks are looked up only for tweets some subscription could want.
    // That first match is kept: a tweet the lookup adds nothing to is not matched again.
    const first = new Map<string, { facts: TweetFacts; subs: Subscription[]; waiting: Subscription[] }>();
    const need = tweets.filter((tweet) => {
      const facts = tweetFacts(tweet);
      if (!facts || !hasUnknowns(facts)) return false;
      const waiting: Subscription[] = [];
      const subs = compiled.match(facts, t, waiting);
      first.set(tweet.id, { facts, subs, waiting });
      return subs.length > 0 || waiting.length > 0;
    });
    let found = new Map<string, AuthorFacts>();
    if (need.length) ({ facts: found, stats: lookup } = await authors.fill(need, { budgetMs }));
    const matches: Match[] = [];
    const heldBy = new Map<string, number>();
    for (const tweet of tweets) {
      const extra = found.get(tweet.id);
      const earlier = extra ? undefined : first.get(tweet.id);
      const facts = earlier?.facts ?? tweetFacts(tweet, extra);
      if (!facts) continue;
      const waiting: Subscription[] = earlier?.waiting ?? [];
      for (const sub of earlier?.subs ?? compiled.match(facts, t, waiting)) matches.push({ facts, sub });
      for (const s of waiting) heldBy.set(s.id, (heldBy.get(s.id) ?? 0) + 1);
      held += waiting.length;
    }
    const plan = await planAlerts({
      matches,
      skipped,
      subs,
      batchId,
      api: o.api,
      pages: o.pages,
      state: o.state,
      now: t,
      budgetMs,
      log: o.log,
      ...(o.links ? { links: o.links } : {}),
    });
    for (const [id, n] of plan.held) heldBy.set(id, (heldBy.get(id) ?? 0) + n);
    for (const n of plan.held.values()) held += n;
    if (held)
      o.log.info(
        { held, unknown: lookup.unknown },
        'tweets held back: a filter needs a figure no source gave, or the tweet has a blocked word',
      );
    await o.outbox.enqueue(batchId, plan.entries);
    await plan.commitCooldowns();
    if (heldBy.size) await recordHeld(o.state, heldBy, batchId, t);
    await recordShills(o.state, tweets, batchId, t);
    markedHour = Math.floor(t / 3_600_000);
    if (o.followups && plan.markets.size)
      await o.followups.sighted(plan.markets).catch((err: unknown) => o.log.warn({ err }, 'call peaks not updated'));
    await Promise.all(tweets.map((x) => o.state.set(`seen:${x.id}`, 1, lookbackMs * 3)));
    await o.lease.fenced(() => o.state.set(STATE_KEY, { ...state, hwm: newHwm } satisfies State));
    mark = newHwm;
    kick();
    return result(tweets.length, matches.length, plan.entries.length, skipped);
  }

  /** After the feed: due follow-ups, on the leader only. Their failure never fails the tick. */
  async function tickAndFollowUp(): Promise<TickResult> {
    const r = await runTick();
    if (r.leader && o.followups && !stopped) {
      try {
        const f = await o.followups.round();
        o.onFollowups?.(f);
        // New edits, or new samples that edits queued before them (a round repeated after a crash) wait for.
        if (f.queued || f.requests) kick();
      } catch (err) {
        o.log.warn({ err }, 'follow-up round failed; will retry');
      }
    }
    return r;
  }

  let failedTicks = 0;
  let lastReadAt: number | null = null;
  function tick(): Promise<TickResult> {
    if (inflight) return inflight;
    inflight = tickAndFollowUp()
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

  return {
    start() {
      if (task) return;
      task = cron.schedule(o.cron ?? '*/30 * * * * *', () => {
        if (stopped || inflight) return; // no overlap: a slow tick makes the next one wait its turn
        tick().catch((err: unknown) => {
          o.onTickError?.(err);
          o.log.warn({ err }, 'watch tick failed; will retry');
        });
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
      await task?.stop();
      task = undefined;
      await inflight?.catch(() => {});
      await o.delivery.stop();
      await o.lease.release();
    },
  };
}
