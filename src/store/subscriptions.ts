/**
 * Subscriptions: one per destination (a Discord channel, a Telegram chat, or a
 * forum topic in one: domain/destination.ts).
 * A version counter changes on every write, so the watcher reloads the whole
 * set only when something changed, on any instance sharing the store.
 */
import { randomUUID } from 'node:crypto';
import type { ChainId } from '../domain/chains.ts';
import { destinationKey, type DestinationPlatform } from '../domain/destination.ts';
import { keyedTurns } from '../domain/turns.ts';
import type { Kv } from './strict.ts';
import { localJournal, type ChangeJournal, type JournalMark } from './journal.ts';

/** What a channel wants to hear about; alerts/filters.ts holds the defaults and reads them out. */
export interface AlertFilters {
  /** Empty: every chain. */
  readonly chains: readonly ChainId[];
  /** Token score (the token's avg_score, 0-100) at least this. */
  readonly minTokenScore: number;
  /** KOL score (ranking_score, 0-100) at least this. */
  readonly minKolScore: number;
  /** The author's follower count at least this. */
  readonly minFollowers: number;
  /** The author carries at least one of these labels; empty: any. */
  readonly labels: readonly string[];
  /** Tweet types (tweet, reply, quote, retweet); empty: all. */
  readonly tweetTypes: readonly string[];
  /** Only these KOLs (lower-case usernames); empty: anyone. */
  readonly allowKols: readonly string[];
  /** Never these KOLs. */
  readonly denyKols: readonly string[];
  /** One alert per token per channel per this many minutes. */
  readonly cooldownMinutes: number;
  /** Follow-up points in minutes after each alert, ascending; empty: off. Absent: the defaults (alerts/calls/record.ts). */
  readonly followups?: readonly number[];
  /**
   * Market filters, read from operation 2 at alert time (the figures the alert shows).
   * Absent: off, as for every subscription made before they existed. A filter on a
   * figure the upstream did not give holds the tweet (alerts/rules.ts).
   */
  readonly minMarketCap?: number;
  readonly maxMarketCap?: number;
  readonly minLiquidity?: number;
  /** Token age at most this many days (operation 2's token_age, read as days). */
  readonly maxAgeDays?: number;
  /** The tweet mentions at least one of these (lower-case words or $tickers); absent or empty: any. */
  readonly keywords?: readonly string[];
  /** A tweet mentioning any of these is held, counted like tweets held for unknown facts. */
  readonly blockKeywords?: readonly string[];
}

export type { DestinationPlatform } from '../domain/destination.ts';

export interface Subscription {
  /** destinationKey: `${platform}:${chatId}`, `:${threadId}` after it in a thread; one subscription per destination. */
  readonly id: string;
  readonly platform: DestinationPlatform;
  readonly chatId: string;
  /** The forum topic the alerts go to; absent: the chat itself (every subscription before schema version 4). */
  readonly threadId?: string;
  /** Telegram groups have their own send limit (20/min). */
  readonly isGroup: boolean;
  /** The Discord server (or Telegram group) it was made in; absent in subscriptions made before schema version 4. */
  readonly serverId?: string;
  /** The chat's name when it was made (a group's title, a channel's name), for the owner's list. */
  readonly name?: string;
  readonly filters: AlertFilters;
  /** Token keys (`chain:address`) this destination muted. */
  readonly mutedTokens: readonly string[];
  /** Epoch ms until which alerts are paused; null: not paused. Infinity is stored as a far date. */
  readonly pausedUntil: number | null;
  /** Only tweets after this feed position match: a new subscription starts at the head, no flood. */
  readonly startAfter: FeedPosition | null;
  /** Set when the destination is gone (kicked, deleted, no access); alerts stop until re-subscribed. */
  readonly disabled: { readonly reason: string; readonly at: number } | null;
  /** Set (with `disabled`) when the chat got a new id (a group upgraded to a supergroup): alerts still queued follow it. */
  readonly movedTo?: string;
  /** Quiet hours: alerts are held and summarised when they end. Absent: none. */
  readonly quiet?: QuietHours | null;
  /** A scheduled summary of the period posted here. Absent: none. */
  readonly digest?: DigestSettings | null;
  /** How alerts are posted beyond a plain message (Discord roles, announcement channels, forums). Absent: a plain message, as before schema version 7. */
  readonly posting?: DestinationPosting;
  readonly createdBy: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /**
   * The record's version: each write adds one (absent, in records written before schema
   * version 17: 0). A change made from a read (`replace`) is written only while the store
   * still holds the version it read, on every instance sharing the store.
   */
  readonly rev?: number;
}

/** What a destination asked of its alerts besides the message (Discord). */
export interface DestinationPosting {
  /** A role mentioned on each new alert (never on edits, follow-ups or summaries). */
  readonly pingRole?: string;
  /** The role is also pinged on summaries: merged bursts, quiet hours' summary, digests. */
  readonly pingSummaries?: true;
  /** An announcement channel whose alerts are published to the servers following it. */
  readonly publish?: true;
  /** A person's own subscription, made in a DM with the bot (where some refusals are spurious for a while). */
  readonly personal?: true;
  /** A forum channel: each token's alert opens a post, with these tags (where the forum requires one). */
  readonly forum?: { readonly tags: readonly string[] };
}

export interface QuietHours {
  /** Minutes since local midnight; the window may wrap past midnight (23:00-07:00). */
  readonly from: number;
  readonly to: number;
  /** IANA time zone. */
  readonly tz: string;
}

export interface DigestSettings {
  readonly period: 'daily' | 'weekly';
  /** Local time of day, minutes since midnight. */
  readonly at: number;
  /** IANA time zone. */
  readonly tz: string;
  /** Weekly digests: 0 Sunday ... 6 Saturday. */
  readonly day: number;
  /** When it was set: periods scheduled before are not owed. */
  readonly since?: number;
}

/** A place in the tweet feed: newest-first order is (tweetedAt desc, id desc). */
export interface FeedPosition {
  readonly tweetedAt: string;
  /** Tweet id as a string; compared numerically by length then text. */
  readonly id: string;
}

export function subscriptionId(platform: DestinationPlatform, chatId: string, threadId?: string): string {
  return destinationKey({ platform, chatId, threadId });
}

/** The subscription changed since it was read (another instance, or a write outside this one's turn): read again and redo. */
export class WriteConflict extends Error {
  override name = 'WriteConflict';
}

/**
 * Writes `value` (keyv's serialised form) at `key` only while the stored record's `rev`
 * (0 when absent, or for a record without one) is `expected`; false otherwise. Atomic across
 * every process sharing the store (store/redis.ts); absent, one process owns the store and
 * a per-key turn here stands in.
 */
export type Swap = (key: string, expected: number, value: string) => Promise<boolean>;

export interface SubscriptionStore {
  get(id: string): Promise<Subscription | undefined>;
  /** Writes the subscription whatever was stored (delivery, moves, the owner's stops): its version goes up by one. */
  put(sub: Subscription): Promise<void>;
  /**
   * Writes a subscription changed from what `get` returned (its `rev`; a new one: none), only
   * if nobody wrote it since; otherwise throws WriteConflict and writes nothing.
   */
  replace(sub: Subscription): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Every subscription (including disabled and paused ones). */
  all(): Promise<Subscription[]>;
  /** The same, one at a time: a million need not all be alive at once (the watcher's index keeps lean copies). */
  each(): AsyncIterable<Subscription>;
  /** The subscriptions of a chat's threads (forum topics), not the chat's own; by one prefix scan. */
  threadsOf(platform: DestinationPlatform, chatId: string): Promise<Subscription[]>;
  /** Changes whenever any subscription changes. */
  version(): Promise<string>;
  /**
   * The subscriptions changed since `since` (their ids; read each for its state now, absent:
   * deleted), or `ids: null` when everything must be read again: the first call, or a change
   * the journal cannot account for (journal.ts). Read the cursor before reading everything.
   */
  changes(since: ChangeCursor | null): Promise<SubscriptionChanges>;
}

/** Where a reader of changes stands: the version it saw and the journal entry it read last. */
export interface ChangeCursor {
  readonly version: string;
  readonly journal: JournalMark;
}

export interface SubscriptionChanges {
  readonly cursor: ChangeCursor;
  readonly ids: readonly string[] | null;
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * The watcher holds every subscription: equal lists share one array (empty ones
 * above all, and the block lists and labels many communities copy from each
 * other), so 100,000 subscriptions stay within the memory target.
 */
function compactor() {
  const lists = new Map<string, readonly string[]>();
  const shared = <T extends string>(xs: readonly T[]): readonly T[] => {
    if (!xs.length) return EMPTY;
    const key = xs.join('\u0000');
    let hit = lists.get(key);
    if (!hit) {
      hit = Object.freeze([...xs]);
      lists.set(key, hit);
    }
    return hit as readonly T[];
  };
  // Whole filters too: most subscriptions keep the defaults, and a million copies of them cost 200 MB.
  const filters = new Map<string, AlertFilters>();
  return (s: Subscription): Subscription => {
    const f = s.filters;
    const key = JSON.stringify(f);
    let same = filters.get(key);
    if (!same) {
      same = sharedLists(f);
      filters.set(key, same);
    }
    return { ...s, mutedTokens: shared(s.mutedTokens), filters: same };
  };
  function sharedLists(f: AlertFilters): AlertFilters {
    return {
      ...f,
      chains: shared(f.chains),
      labels: shared(f.labels),
      tweetTypes: shared(f.tweetTypes),
      allowKols: shared(f.allowKols),
      denyKols: shared(f.denyKols),
      ...(f.keywords ? { keywords: shared(f.keywords) } : {}),
      ...(f.blockKeywords ? { blockKeywords: shared(f.blockKeywords) } : {}),
    };
  }
}

/**
 * `rows(prefix)`: the space's stored values whose keys start with `prefix`, read by the
 * backend's own prefix scan (store/raw.ts); absent, a scan of every entry stands in.
 */
export function createSubscriptionStore(
  kv: Kv,
  rows?: (prefix: string) => AsyncIterable<unknown>,
  journal: ChangeJournal = localJournal(),
  swap?: Swap,
): SubscriptionStore {
  const VERSION = '_version';
  // A fresh random token, not a counter: two instances bumping at once must both
  // change it, and a read-modify-write counter could land on the same number.
  const bump = async (id: string) => {
    const version = randomUUID();
    await kv.set(VERSION, version);
    // Only a hint (journal.ts): when it is not written, readers reload everything.
    await journal.append(id, version).catch(() => {});
  };
  const version = async () => (await kv.get<string>(VERSION)) ?? '';
  const turns = keyedTurns();
  const revOf = (s: Subscription | undefined) => s?.rev ?? 0;
  /** The write, if the stored version is still `expected`. */
  const write = (sub: Subscription, expected: number): Promise<boolean> => {
    const next = { ...sub, rev: expected + 1 };
    if (swap) return swap(sub.id, expected, JSON.stringify({ value: next }));
    return turns(sub.id, async () => {
      if (revOf(await kv.get<Subscription>(sub.id)) !== expected) return false;
      await kv.set(sub.id, next);
      return true;
    });
  };
  const store: SubscriptionStore = {
    get: (id) => kv.get<Subscription>(id),
    async put(sub) {
      // Over whatever is stored: its version plus one, so a change read before this write is refused.
      while (!(await write(sub, revOf(await kv.get<Subscription>(sub.id)))));
      await bump(sub.id);
    },
    async replace(sub) {
      if (!(await write(sub, revOf(sub)))) throw new WriteConflict(`subscription ${sub.id} changed meanwhile`);
      await bump(sub.id);
    },
    async delete(id) {
      const had = (await kv.get(id)) !== undefined;
      if (had) {
        await kv.delete(id);
        await bump(id);
      }
      return had;
    },
    async all() {
      const out: Subscription[] = [];
      for await (const sub of store.each()) out.push(sub);
      return out;
    },
    async *each() {
      const compact = compactor();
      // Below keyv where the backend can: its decoding costs more than the rows' JSON (issue #42).
      if (rows) {
        for await (const v of rows('')) if (v && typeof v === 'object' && 'id' in v) yield compact(v as Subscription);
      } else
        for await (const [key, value] of kv.entries<Subscription>()) if (key !== VERSION && value) yield compact(value);
    },
    async threadsOf(platform, chatId) {
      const prefix = `${subscriptionId(platform, chatId)}:`;
      const out: Subscription[] = [];
      if (rows) {
        for await (const v of rows(prefix)) if (v) out.push(v as Subscription);
      } else for await (const [key, v] of kv.entries<Subscription>()) if (key.startsWith(prefix) && v) out.push(v);
      return out.sort((a, b) => (a.id < b.id ? -1 : 1));
    },
    version,
    async changes(since) {
      // The journal's head before the version: an entry written between the two reads is read again next time.
      const head = await journal.head().catch(() => undefined);
      const now = await store.version();
      const reload = { cursor: { version: now, journal: head ?? { seq: 0, version: '' } }, ids: null };
      if (!since || !head) return reload;
      if (now === since.version && head.seq === since.journal.seq && head.version === since.journal.version)
        return { cursor: since, ids: [] };
      const entries = await journal.after(since.journal).catch(() => null);
      if (!entries) return reload;
      // A version no entry accounts for was written by someone the journal cannot see.
      if (now !== since.version && entries.at(-1)?.version !== now) return reload;
      const last = entries.at(-1);
      return {
        cursor: { version: now, journal: last ? { seq: last.seq, version: last.version } : since.journal },
        ids: [...new Set(entries.map((e) => e.id))],
      };
    },
  };
  return store;
}
