/**
 * The watcher's reading of the tweet feed, apart from what it does with the
 * tweets: every request counted against the budget (backing off on a refusal),
 * paging down to the high-water mark and its lookback window, and the memory of
 * when each tweet was first read. Kept here so the watcher's loop (watcher.ts)
 * and its matching (tick.ts) each stay one concern.
 */
import type { Logger } from 'pino';
import type { KolClient, TweetListItem } from '../api/index.ts';
import type { Kv } from '../store/strict.ts';
import type { FeedPosition } from '../store/subscriptions.ts';
import { LeaseLostError, type Lease } from '../store/lease.ts';
import { isAfter } from './matcher.ts';
import type { LoosestFilters } from './subindex.ts';
import type { FeedBudget } from './budget.ts';

/** The watcher's stored state: the high-water mark and how far back seen markers reach. */
export interface State {
  readonly hwm: FeedPosition | null;
  /** Since when every handled tweet has a seen marker: the lookback never reaches before it. */
  readonly seenFrom?: number;
}

/** The key of the watcher's State in its Kv. */
export const STATE_KEY = 'state';

/**
 * The head of the feed as the watcher's last read saw it: where a new subscription starts, so
 * `/subscribe` spends no feed request of its own. A key of its own (older versions never read it).
 */
export const HEAD_KEY = 'head';

export interface LastRead {
  /** The newest tweet on the read's first page; null: the feed was empty. */
  readonly head: FeedPosition | null;
  /** The read asked only for what some subscription could want (loosestFilters): the head of that, not of the feed. */
  readonly filtered: boolean;
  /** When the read was answered (ms since the epoch). */
  readonly at: number;
}

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

export const pos = (t: TweetListItem): FeedPosition => ({ tweetedAt: t.tweeted_at, id: t.id });

/**
 * Where a subscription made now starts: the head the watcher's last read saw, read from the
 * store, never from the feed (a /subscribe costs no request beyond the budget). A read that asked
 * only for what the other subscriptions want saw the head of that: a looser newcomer must not take
 * the tweets after it, up to the read, as new, so it starts at the read's time if that is later.
 * Before any read: the watcher's mark; before that, null (the watcher's first read starts at the head).
 */
export async function lastHead(state: Kv): Promise<FeedPosition | null> {
  const last = await state.get<LastRead>(HEAD_KEY);
  if (!last) return (await state.get<State>(STATE_KEY))?.hwm ?? null;
  if (!last.filtered) return last.head;
  const read: FeedPosition = { tweetedAt: new Date(last.at).toISOString(), id: '0' };
  return last.head && isAfter(last.head, read) ? last.head : read;
}

export interface FeedReaderOptions {
  readonly api: KolClient;
  readonly state: Kv;
  readonly lease: Lease;
  readonly log: Logger;
  /** Absent: requests unpaced, with the client's own retries (the cron watcher of old). */
  readonly budget: FeedBudget | undefined;
  readonly budgetMs: number;
  readonly pageSize: number;
  readonly maxBacklog: number;
  readonly lookbackMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Aborted when the watcher stops: a wait for the budget ends at once. */
  readonly signal: AbortSignal;
  readonly stopped: () => boolean;
  /** Told of every feed request as it goes out (each page, the head, one that fails or is refused). */
  readonly onRequest?: () => void;
}

export interface FeedReader {
  /** Marks a tick's start (its first request is not an extra page); returns the requests made so far. */
  beginTick(): number;
  /** Feed requests made since the reader was created (each page counts). */
  reads(): number;
  /** The newest tweet's position, or null on an empty feed. */
  head(): Promise<FeedPosition | null>;
  /**
   * New tweets since the mark, oldest first, with the count skipped past maxBacklog and
   * of those found behind the mark; adds each first read's tweet-to-read delay to `delays`.
   */
  fetchNew(
    state: State & { hwm: FeedPosition },
    /** The loosest filters any subscription allows (SubscriptionIndex.loosest). */
    filters: LoosestFilters,
    delays: number[],
    deep: boolean,
  ): Promise<{ tweets: TweetListItem[]; skipped: number; late: number }>;
  /** Tweet id -> when it was first read, oldest first. */
  readonly firstRead: ReadonlyMap<string, number>;
  /** When the whole lookback window was last re-read. */
  lookedBackAt(): number;
  /** The reader is slowed by an upstream refusal, and has said so. */
  slowed(): boolean;
}

export function createFeedReader(o: FeedReaderOptions): FeedReader {
  const { budget, now } = o;
  let lookedBackAt = -Infinity;
  let slowed = false;
  const firstRead = new Map<string, number>();
  let reads = 0;
  /** `reads` when the running tick began: its first request is not an extra page. */
  let readsAtTick = 0;

  /**
   * One feed request, counted against the budget: waits for its turn, backs off
   * on an upstream refusal (saying so once) and never retries behind the budget's
   * back. A leader that lost its lease stops reading at once.
   */
  async function feedRequest(params: Parameters<KolClient['getTweets']>[0]) {
    if (!budget) {
      reads++;
      o.onRequest?.();
      return o.api.getTweets(params, { budgetMs: o.budgetMs, cache: 'bypass' });
    }
    for (let w = budget.waitMs(now()); w > 0; w = budget.waitMs(now())) {
      if (o.stopped()) break;
      await o.sleep(w, o.signal);
    }
    if (o.stopped()) throw new Error('watcher stopping');
    if (o.lease.status() !== 'leader') throw new LeaseLostError('lease lost while reading the feed');
    budget.start(now(), reads > readsAtTick);
    reads++;
    // Counted as it leaves: a read that ends in a refusal or a failure cost a request all the same.
    o.onRequest?.();
    try {
      const r = await o.api.getTweets(params, { budgetMs: o.budgetMs, cache: 'bypass', attempts: 1, quiet: true });
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
    const h = t ? pos(t) : null;
    await noteHead(h, false);
    return h;
  }

  /** Keeps the head this read saw, for /subscribe. */
  async function noteHead(head: FeedPosition | null, filtered: boolean): Promise<void> {
    await o.state.set(HEAD_KEY, { head, filtered, at: now() } satisfies LastRead);
  }

  /**
   * The feed is read down to the mark minus a lookback window: a tweet the upstream
   * indexed late (its tweeted_at already behind the mark) and tweets sharing the mark's
   * second in another order are still found, and a seen marker per handled tweet keeps
   * any of them from being handled twice. At most maxBacklog are handled; older ones are counted.
   */
  async function fetchNew(
    state: State & { hwm: FeedPosition },
    filters: LoosestFilters,
    delays: number[],
    deep: boolean,
  ) {
    if (deep) lookedBackAt = now();
    const back = deep ? o.lookbackMs : Math.min(o.lookbackMs, SHALLOW_LOOKBACK_MS);
    const floor = Math.max(Date.parse(state.hwm.tweetedAt) - back, state.seenFrom ?? -Infinity);
    const newer: TweetListItem[] = [];
    const behind: TweetListItem[] = [];
    /** When each tweet was read in this tick (its first page). */
    const pageAt = new Map<string, number>();
    let cursor: string | undefined;
    const cursors = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await feedRequest({ limit: o.pageSize, ...filters, ...(cursor ? { cursor } : {}) });
      const at = now();
      if (page === 0) await noteHead(r.items[0] ? pos(r.items[0]) : null, Object.keys(filters).length > 0);
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
    const skipped = Math.max(0, all.length - o.maxBacklog);
    return { tweets: all.slice(skipped), skipped, late: late.length };
  }

  return {
    beginTick() {
      readsAtTick = reads;
      return reads;
    },
    reads: () => reads,
    head,
    fetchNew,
    firstRead,
    lookedBackAt: () => lookedBackAt,
    slowed: () => slowed,
  };
}
