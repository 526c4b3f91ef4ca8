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
 */
import { setTimeout as delay } from 'node:timers/promises';
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
import { planAlerts, type EarlyMarkets } from './plan.ts';
import { marketNow, type TokenRef } from './market.ts';
import type { ChainId } from '../domain/chains.ts';
import { LeaseLostError, type Lease } from '../store/lease.ts';
import { FeedBudget } from './budget.ts';
import { DEFAULT_FEED_REQUESTS_PER_MINUTE } from '../config.ts';
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
  /** Feed requests this tick made (each page counts). */
  readonly reads: number;
  /** For each tweet read for the first time this tick: ms from its tweet time to that read. */
  readonly firstReadMs: readonly number[];
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

/**
 * How far behind the mark every paced read looks (the full window is re-read once a
 * minute): tweets indexed a few seconds out of order are found at once, and one page
 * usually covers it.
 */
const SHALLOW_LOOKBACK_MS = 15_000;

/** First-read times remembered (for the delay metrics and the alerts' readAt). */
const MAX_FIRST_READS = 5_000;

const sleepFor = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => {});

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
  const lookbackEveryMs = o.lookbackEveryMs ?? 60_000;
  let lookedBackAt = -Infinity;
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
  /** The reader is slowed by an upstream refusal, and has said so. */
  let slowed = false;
  /** Tweet id -> when it was first read, oldest first. */
  const firstRead = new Map<string, number>();
  let reads = 0;
  /** `reads` when the running tick began: its first request is not an extra page. */
  let readsAtTick = 0;
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

  /**
   * One feed request, counted against the budget: waits for its turn, backs off
   * on an upstream refusal (saying so once) and never retries behind the budget's
   * back. A leader that lost its lease stops reading at once.
   */
  async function feedRequest(params: Parameters<KolClient['getTweets']>[0]) {
    if (!budget) return o.api.getTweets(params, { budgetMs, cache: 'bypass' });
    for (let w = budget.waitMs(now()); w > 0; w = budget.waitMs(now())) {
      if (stopped) break;
      await sleep(w, abort.signal);
    }
    if (stopped) throw new Error('watcher stopping');
    if (o.lease.status() !== 'leader') throw new LeaseLostError('lease lost while reading the feed');
    budget.start(now(), reads > readsAtTick);
    reads++;
    try {
      const r = await o.api.getTweets(params, { budgetMs, cache: 'bypass', attempts: 1, quiet: true });
      if (budget.succeeded() && slowed) {
        slowed = false;
        o.log.info({ perMinute: budget.perMinute }, 'feed reads back to their pace');
      }
      return r;
    } catch (err) {
      const slow = budget.failed(err, now());
      if (slow && !slowed) {
        slowed = true;
        o.log.warn(
          { reason: slow.reason, waitMs: slow.waitMs },
          'upstream refused a feed read: reading more slowly until it answers again',
        );
      }
      throw err;
    }
  }

  const hedge = o.marketHedgeMs !== false ? { hedgeAfterMs: o.marketHedgeMs ?? 400 } : {};

  /**
   * The market request for the tokens of tweets that match a subscription before any
   * author lookup, started now; the plan asks only for the others once the lookups are done.
   */
  function marketEarly(
    tweets: readonly TweetListItem[],
    first: Map<string, { facts: TweetFacts; subs: Subscription[]; waiting: Subscription[] }>,
    compiled: CompiledSubscriptions,
    t: number,
  ): EarlyMarkets {
    const refs = new Map<string, TokenRef>();
    for (const tweet of tweets) {
      let f = first.get(tweet.id);
      if (!f) {
        const facts = tweetFacts(tweet);
        if (!facts) continue;
        const waiting: Subscription[] = [];
        f = { facts, subs: compiled.match(facts, t, waiting), waiting };
        first.set(tweet.id, f);
      }
      if (f.subs.length)
        refs.set(f.facts.tokenKey, { chain: tweet.token.chain_id as ChainId, address: tweet.token.token_address });
    }
    return { keys: new Set(refs.keys()), result: marketNow(o.api, refs.values(), { budgetMs, log: o.log, ...hedge }) };
  }

  /**
   * Remembers when each new tweet (not one handled before) was first read, and adds
   * the tweet-to-read delays of those read for the first time to `out`.
   */
  function noteReads(items: readonly TweetListItem[], pageAt: ReadonlyMap<string, number>, out: number[]): void {
    for (const t of items) {
      if (firstRead.has(t.id)) continue;
      const at = pageAt.get(t.id) ?? now();
      firstRead.set(t.id, at);
      const ms = Date.parse(t.tweeted_at);
      if (Number.isFinite(ms)) out.push(Math.max(0, at - ms));
    }
    for (const id of firstRead.keys()) {
      if (firstRead.size <= MAX_FIRST_READS) break;
      firstRead.delete(id);
    }
  }

  async function head(): Promise<FeedPosition | null> {
    const r = await feedRequest({ limit: 1 });
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
  async function fetchNew(
    state: State & { hwm: FeedPosition },
    subs: readonly Subscription[],
    delays: number[],
    deep: boolean,
  ) {
    const filters = loosestFilters(subs);
    if (deep) lookedBackAt = now();
    const back = deep ? lookbackMs : Math.min(lookbackMs, SHALLOW_LOOKBACK_MS);
    const floor = Math.max(Date.parse(state.hwm.tweetedAt) - back, state.seenFrom ?? -Infinity);
    const newer: TweetListItem[] = [];
    const behind: TweetListItem[] = [];
    /** When each tweet was read in this tick (its first page). */
    const pageAt = new Map<string, number>();
    let cursor: string | undefined;
    const cursors = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await feedRequest({ limit: pageSize, ...filters, ...(cursor ? { cursor } : {}) });
      const at = now();
      for (const t of r.items) if (!pageAt.has(t.id)) pageAt.set(t.id, at);
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
    noteReads(all, pageAt, delays);
    const skipped = Math.max(0, all.length - maxBacklog);
    return { tweets: all.slice(skipped), skipped, late: late.length };
  }

  async function runTick(deep: boolean): Promise<TickResult> {
    const started = now();
    let mark: FeedPosition | null = null;
    let lookup: LookupStats = { requests: 0, cacheHits: 0, unknown: 0 };
    let held = 0;
    const readsBefore = reads;
    readsAtTick = reads;
    const firstReadMs: number[] = [];
    const result = (fetched: number, matched: number, queued: number, skipped: number, leader = true): TickResult => {
      const lagMs = mark ? Math.max(0, now() - Date.parse(mark.tweetedAt)) : null;
      const r = {
        fetched,
        matched,
        queued,
        skipped,
        ms: now() - started,
        leader,
        lagMs,
        lookup,
        held,
        reads: reads - readsBefore,
        firstReadMs,
      };
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
    const { tweets, skipped, late } = await fetchNew({ ...state, hwm: state.hwm }, subs, firstReadMs, deep);
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
    // While authors are looked up (op 7), the market (op 2) of tokens already alerted on is read beside it.
    const early = need.length ? marketEarly(tweets, first, compiled, t) : undefined;
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
      readAt: firstRead,
      ...(early ? { early } : {}),
      ...hedge,
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
    if (!slowed && !(stopped && abort.signal.aborted)) o.log.warn({ err }, 'watch tick failed; will retry');
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
        const r = await read(now() - lookedBackAt >= lookbackEveryMs);
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
