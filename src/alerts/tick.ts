/**
 * One watcher tick, from the tweets read to the outbox: match them against every
 * subscription (looking up author facts only where a filter needs them), plan
 * the alerts, queue them, then move the mark. It owns the order that makes a
 * tick safe to repeat (the mark moves last) and nothing of scheduling, which
 * stays in watcher.ts; the feed itself is read by feedReader.ts.
 */
import type { Logger } from 'pino';
import type { KolClient, TweetListItem } from '../api/index.ts';
import type { PageStore } from '../store/pages.ts';
import type { Kv } from '../store/strict.ts';
import type { ChangeCursor, FeedPosition, Subscription, SubscriptionStore } from '../store/subscriptions.ts';
import type { Outbox } from '../store/outbox.ts';
import type { Lease } from '../store/lease.ts';
import type { ChainId } from '../domain/chains.ts';
import type { LinkSet } from '../domain/links.ts';
import { fnv1a } from './hash.ts';
import { hasUnknowns, isAfter, tweetFacts, type Match, type TweetFacts } from './matcher.ts';
import { compileLean, leanSubscription, type CompiledSubscriptions, type SubscriptionIndex } from './subindex.ts';
import { createAuthorLookup, type AuthorFacts, type LookupStats } from './authors.ts';
import { recordHeld } from './held.ts';
import { recordShills } from './shills.ts';
import { planAlerts, type EarlyMarkets } from './plan.ts';
import { marketNow, type TokenRef } from './market.ts';
import type { Followups } from './calls/followups.ts';
import { pos, STATE_KEY, type FeedReader, type State } from './feedReader.ts';

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

/** What a tick works with: the watcher's stores and options, its feed reader and its drain. */
export interface TickDeps {
  readonly api: KolClient;
  readonly subscriptions: SubscriptionStore;
  readonly outbox: Outbox;
  readonly state: Kv;
  readonly pages: PageStore;
  readonly lease: Lease;
  readonly log: Logger;
  readonly reader: FeedReader;
  readonly now: () => number;
  readonly budgetMs: number;
  readonly lookbackMs: number;
  readonly authorTtlMs?: number;
  /** The market request's hedge (see WatcherOptions.marketHedgeMs). */
  readonly hedge: { readonly hedgeAfterMs?: number };
  readonly followups?: Followups;
  readonly links?: LinkSet;
  readonly onTick?: (r: TickResult) => void;
  /** Starts a drain of the outbox without waiting. */
  readonly kick: () => void;
}

/** How often the leader scans the outbox for unindexed entries. */
const RECOVER_EVERY_MS = 10 * 60_000;

/** A short fingerprint of a set of tweet ids, order-independent. */
const hashIds = (ids: readonly string[]): string => fnv1a([...ids].sort().join('')).toString(36);

type FirstMatch = { facts: TweetFacts; subs: Subscription[]; waiting: Subscription[] };

/** The tick runner: `deep` re-reads the whole lookback window. Callers keep ticks from overlapping. */
export function createTicker(o: TickDeps): (deep: boolean) => Promise<TickResult> {
  const { now, budgetMs, reader } = o;
  let leading = false;
  let recoveredAt = 0;
  /** The hour this process last marked as read (digests' "most shilled" covers only hours read). */
  let markedHour = -1;
  /** The index of every live subscription, kept one change at a time (issue #42). */
  let cache: { cursor: ChangeCursor; compiled: SubscriptionIndex } | undefined;
  const authors = createAuthorLookup({
    api: o.api,
    log: o.log,
    now,
    ...(o.authorTtlMs !== undefined ? { ttlMs: o.authorTtlMs } : {}),
  });

  /** The index brought up to date: only the subscriptions changed since the last tick are read again. */
  async function subscriptions() {
    const changed = await o.subscriptions.changes(cache?.cursor ?? null);
    if (!cache || changed.ids === null) {
      // The cursor was read first: a change made while everything is read comes again next time.
      cache = { cursor: changed.cursor, compiled: await compileLean(o.subscriptions.each()) };
      return cache;
    }
    const ids = changed.ids;
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100);
      const now = await Promise.all(batch.map((id) => o.subscriptions.get(id)));
      batch.forEach((id, j) => {
        const sub = now[j];
        if (sub) cache!.compiled.put(leanSubscription(sub));
        else cache!.compiled.remove(id);
      });
    }
    cache.cursor = changed.cursor;
    return cache;
  }

  /**
   * The market request for the tokens of tweets that match a subscription before any
   * author lookup, started now; the plan asks only for the others once the lookups are done.
   */
  function marketEarly(
    tweets: readonly TweetListItem[],
    first: Map<string, FirstMatch>,
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
    return {
      keys: new Set(refs.keys()),
      result: marketNow(o.api, refs.values(), { budgetMs, log: o.log, ...o.hedge }),
    };
  }

  return async function runTick(deep: boolean): Promise<TickResult> {
    const started = now();
    let mark: FeedPosition | null = null;
    let lookup: LookupStats = { requests: 0, cacheHits: 0, unknown: 0 };
    let held = 0;
    const readsBefore = reader.beginTick();
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
        reads: reader.reads() - readsBefore,
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
    const { compiled } = await subscriptions();
    if (!state.hwm || compiled.size === 0) {
      // First start, or nobody listening: start from the head, never from history.
      const h = await reader.head();
      if (h && (!state.hwm || isAfter(h, state.hwm))) {
        // Nothing before the head was marked seen: the lookback must not reach behind it.
        await o.lease.fenced(() =>
          o.state.set(STATE_KEY, { hwm: h, seenFrom: Date.parse(h.tweetedAt) + 1 } satisfies State),
        );
        mark = h;
      }
      o.kick();
      return result(0, 0, 0, 0);
    }
    const loaded = cache!.cursor.version;
    const { tweets, skipped, late } = await reader.fetchNew(
      { ...state, hwm: state.hwm },
      compiled.loosest(),
      firstReadMs,
      deep,
    );
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
      o.kick();
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
    const first = new Map<string, FirstMatch>();
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
      // Told only when tweets were skipped: no copy of a million subscriptions otherwise.
      subs: skipped > 0 ? [...compiled.live()] : [],
      batchId,
      api: o.api,
      pages: o.pages,
      state: o.state,
      now: t,
      budgetMs,
      log: o.log,
      ...(o.links ? { links: o.links } : {}),
      readAt: reader.firstRead,
      ...(early ? { early } : {}),
      ...o.hedge,
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
    await Promise.all(tweets.map((x) => o.state.set(`seen:${x.id}`, 1, o.lookbackMs * 3)));
    await o.lease.fenced(() => o.state.set(STATE_KEY, { ...state, hwm: newHwm } satisfies State));
    mark = newHwm;
    o.kick();
    return result(tweets.length, matches.length, plan.entries.length, skipped);
  };
}
