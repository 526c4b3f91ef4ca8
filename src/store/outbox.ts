/**
 * The outbox: every alert is written here before the watcher's high-water mark
 * moves, and marked sent only after the platform accepted it. A crash anywhere
 * leaves either unsent entries (sent on restart) or an unmoved mark (the same
 * tweets fetched again, producing the same entry ids, which are not written twice).
 *
 * Layout on the key-value store, chosen so that one send costs one small write
 * even in a fan-out to 10,000 destinations:
 *   e:<entryId>   one entry, rewritten when its state changes
 *   b:<batchId>   the entry ids of one tick, written once
 *   pending       the ids of batches with unfinished entries (a short list)
 */
import type { ChainId } from '../domain/chains.ts';
import type { CardView } from '../domain/view.ts';
import type { StoredAction } from './pages.ts';
import type { Kv } from './strict.ts';
import type { DestinationPlatform } from './subscriptions.ts';

/*
 * An alert as data, stored in an entry so that it survives a restart
 * unchanged; views/cards/alert.ts turns it into a View when it is sent.
 */

/** A button on an alert, bound once for every destination (core/actions.ts); a View's Action in shape. */
export interface AlertButton extends Omit<StoredAction, 'chats'> {
  readonly label: string;
  readonly style?: 'primary' | 'secondary' | 'danger';
  readonly id?: string;
}

export interface AlertKol {
  readonly username: string;
  readonly displayName: string;
  /** null: unknown (shown as such, never as 0). */
  readonly followers: number | null;
  readonly score: number | null;
  readonly tweetUrl: string;
  readonly text: string;
  readonly tweetedAt: string;
}

export interface AlertToken {
  readonly name: string;
  readonly symbol: string;
  readonly chain: ChainId;
  readonly address: string;
  readonly score: number;
  /** At alert time (operation 2); null when it could not be read. */
  readonly marketCap: number | null;
  /** Absent in entries queued before liquidity was shown. */
  readonly liquidity?: number | null;
  readonly change1h: number | null;
  readonly change24h: number | null;
}

export type AlertContent =
  | {
      readonly kind: 'alert';
      readonly token: AlertToken;
      /** One or more KOLs that shilled the token within the cooldown, oldest first. */
      readonly kols: readonly AlertKol[];
      /** Why, in English (alerts stored by older builds have only this). */
      readonly reason: string;
      /** Why, filter by filter, rendered in the destination's language when sent. */
      readonly checks?: readonly StoredText[];
      /** Button ids prepared once per token for every destination (token card, KOL card, mute). */
      readonly actions: readonly AlertButton[];
      /** Chart, trading and safety links of the token's chain (domain/links.ts); absent in older entries. */
      readonly links?: readonly { readonly label: string; readonly url: string }[];
      readonly test?: boolean;
    }
  /**
   * A notice as text: an owner's notice, the catch-up notice (its count said in the
   * destination's language), or a pause-ended notice queued by schema version 14 or
   * older, in the language of that moment (sent as it was written).
   */
  | {
      readonly kind: 'notice';
      readonly text: string /** Tweets skipped (the catch-up notice), said in the destination's language. */;
      readonly skipped?: number;
    }
  /** A notice of what happened, as data: said in the destination's language when sent (views/cards/notice.ts). */
  | { readonly kind: 'notice'; readonly event: NoticeEvent }
  /**
   * More KOLs shilled a token already alerted to this destination within its
   * cooldown: the earlier alert (entry `of`) is edited to name them all.
   */
  | { readonly kind: 'more'; readonly of: string; readonly kols: readonly AlertKol[] }
  /**
   * Several alerts for one destination in one message: a burst larger than the
   * platform lets the destination take in the next minute, or what quiet hours held.
   * The members are marked 'merged' (pointing here) once this entry is stored.
   */
  | {
      readonly kind: 'merged';
      readonly why: 'burst' | 'quiet';
      readonly members: readonly string[];
      readonly items: readonly MergedItem[];
    }
  /**
   * A follow-up is due for a call (store/calls.ts): its alert is edited in place
   * with the call's latest figures. Sent after every new alert of the run.
   */
  | { readonly kind: 'followup'; readonly call: string; readonly point: number }
  /**
   * A scheduled digest (alerts/digest): its figures, gathered when due, said in the
   * destination's language and drawn when sent (views/cards/digest.ts), as alerts are.
   */
  | { readonly kind: 'digest'; readonly key: string; readonly data: DigestData }
  /**
   * A digest queued by schema version 13 or older: the card rendered when it was queued,
   * in the language of that moment, its picture as base64. Sent as it was written
   * (schema version 14); no build writes it any more.
   */
  | { readonly kind: 'digest'; readonly key: string; readonly view: RenderedCard; readonly picture?: StoredPicture };

/** What a notice stored as data says happened. */
export interface NoticeEvent {
  /** A pause with an end (`/alerts pause 2h`) ran out at `until` (epoch ms) and was cleared. */
  readonly what: 'pause-ended';
  readonly until: number;
}

/** A CardView without its picture, as JSON: what older digests stored. */
export type RenderedCard = Omit<CardView, 'picture'>;

export interface StoredPicture {
  readonly png64: string;
  readonly name: string;
  readonly alt: string;
}

/**
 * What a digest says, as figures: everything a reader's language changes (words,
 * digit grouping, the chart's legend) is left to the moment it is sent. `null`
 * where the upstream or the store did not answer (said as "unavailable").
 */
export interface DigestData {
  readonly weekly: boolean;
  /** The period (epoch ms), and the time zone its dates are said in. */
  readonly from: number;
  readonly at: number;
  readonly tz: string;
  /** Posted after its time; `skipped` earlier periods were not posted at all. */
  readonly late: boolean;
  readonly skipped: number;
  readonly tokens: DigestTokens;
  /** The best win rates of the period among KOLs with `min`+ tokens. */
  readonly kols: { readonly min: number; readonly rows: readonly DigestKol[] | null };
  readonly calls: DigestCalls;
  /** The chat's top callers with `min`+ calls; absent where its board is off. */
  readonly callers?: { readonly min: number; readonly rows: readonly DigestCaller[] | null };
}

/** The most shilled tokens: the watcher's own counts of the period, or the upstream's mention ranking. */
export type DigestTokens =
  | {
      readonly source: 'seen';
      readonly rows: readonly { readonly symbol: string; readonly chain: string; readonly tweets: number }[];
    }
  | {
      readonly source: 'ranking';
      readonly rows:
        | readonly {
            readonly symbol: string;
            /** One of the period's new tokens. */
            readonly fresh: boolean;
            readonly mentions: number;
            readonly marketCap: number | null;
          }[]
        | null;
    };

export interface DigestKol {
  readonly username: string;
  /** The win rate in the period's window, a fraction as the upstream wrote it. */
  readonly rate: string | number | null;
  readonly tokens: number;
}

/** A call's token and its multiple (peak over the alert's market cap). */
export interface DigestBest {
  readonly symbol: string;
  readonly multiple: number;
}

/** This destination's calls scorecard: 'off' without call tracking, 'none' without calls in the period. */
export type DigestCalls =
  | { readonly state: 'off' }
  | { readonly state: 'none' }
  | {
      readonly state: 'scored';
      readonly calls: number;
      readonly hitRate: number | null;
      /** Null: nothing moved. */
      readonly best: DigestBest | null;
      /** Market caps read now for only `live` of `tokens` tokens. */
      readonly partial?: { readonly live: number; readonly tokens: number };
      /** The chart's rows, best first. */
      readonly rows: readonly {
        readonly symbol: string;
        readonly kol: string;
        readonly peak: number;
        readonly now: number;
      }[];
    };

export interface DigestCaller {
  readonly name: string;
  readonly hitRate: number;
  readonly calls: number;
  readonly best: DigestBest;
}

/** One alert as a line of a merged message. */
export interface MergedItem {
  readonly token: AlertToken;
  readonly kols: readonly string[];
  /** When the alert was due (its entry's creation). */
  readonly at: number;
  /** The alert's token card button, if it had one. */
  readonly card?: AlertButton;
}

/** 'merged': sent as a line of another entry's message (`mergedInto`). */
export type EntryState = 'pending' | 'inflight' | 'sent' | 'dead' | 'merged';

/** Text stored to be said later in the destination's language: a catalogue key and its values (src/i18n/message.ts renders it). */
export interface StoredText {
  readonly key: string;
  readonly values?: Readonly<Record<string, unknown>>;
}

export interface OutboxEntry {
  /** `${first tweet id}:${subscription id}`: the same tweet and destination always give the same id. */
  readonly id: string;
  readonly subId: string;
  readonly platform: DestinationPlatform;
  readonly chatId: string;
  /** The forum topic it goes to (the subscription's); absent: the chat itself. */
  readonly threadId?: string;
  readonly isGroup: boolean;
  readonly content: AlertContent;
  readonly createdAt: number;
  /** When the watcher first read the alert's tweet (epoch ms); absent in entries of older builds. */
  readonly readAt?: number;
  state: EntryState;
  attempts: number;
  /** Earliest time of the next attempt (after a 429 or a transient failure). */
  notBefore: number;
  /** Platform message id once sent; why it died otherwise. */
  messageId?: string;
  error?: string;
  /** Held by quiet hours until this time; then summarised with the others held. */
  quietUntil?: number;
  /** The merged entry this one was sent in (state 'merged'). */
  mergedInto?: string;
}

interface Batch {
  readonly id: string;
  readonly entryIds: readonly string[];
  readonly createdAt: number;
}

/** How long finished entries are kept, so a repeated tick after a crash still finds them (and scans stay small). */
const DONE_TTL_MS = 6 * 3600_000;
const PENDING = 'pending';

export interface Outbox {
  /** Writes entries that do not exist yet as one batch; returns how many were new. */
  enqueue(batchId: string, entries: readonly OutboxEntry[]): Promise<number>;
  /** Unfinished entries, oldest batch first, in enqueue order within a batch. */
  pending(): Promise<OutboxEntry[]>;
  update(entry: OutboxEntry): Promise<void>;
  /** Drops finished batches from the pending list; returns the number of unfinished entries. */
  compact(): Promise<number>;
  get(id: string): Promise<OutboxEntry | undefined>;
  /**
   * Finds unfinished entries no pending batch refers to (a crash between writing
   * entries and indexing them, or another instance's write racing ours) and
   * indexes them again. A scan of the outbox: run when an instance becomes leader.
   */
  recover(): Promise<number>;
}

export function createOutbox(kv: Kv): Outbox {
  const batches = async () => (await kv.get<string[]>(PENDING)) ?? [];
  // The pending list is read, changed and written back; a tick's enqueue and a drain's
  // compact must not interleave, or one overwrites the other's change and a batch is lost.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = lock.then(fn, fn);
    lock = run.catch(() => undefined);
    return run;
  };

  async function entriesOf(batchIds: readonly string[]): Promise<OutboxEntry[]> {
    const bs = await kv.getMany<Batch>(batchIds.map((b) => `b:${b}`));
    const ids = bs.flatMap((b) => b?.entryIds ?? []);
    const es = await kv.getMany<OutboxEntry>(ids.map((id) => `e:${id}`));
    return es.filter((e): e is OutboxEntry => e !== undefined);
  }

  return {
    async enqueue(batchId, entries) {
      if (!entries.length) return 0;
      const existing = await kv.getMany<OutboxEntry>(entries.map((e) => `e:${e.id}`));
      const fresh = entries.filter((_, i) => existing[i] === undefined);
      // Entries first, then the batch, then the index: a crash in between leaves
      // only unreferenced entries, which the repeated tick references again.
      // In parallel chunks: on Redis the client pipelines them, a fan-out to 10,000 is not 10,000 round trips.
      for (let i = 0; i < fresh.length; i += 500)
        await Promise.all(fresh.slice(i, i + 500).map((e) => kv.set(`e:${e.id}`, e)));
      // A repeated tick writes the same batch again: keep the ids it had, so no entry
      // written by the first attempt is left without a batch pointing at it.
      const before = await kv.get<Batch>(`b:${batchId}`);
      const ids = [...new Set([...(before?.entryIds ?? []), ...entries.map((e) => e.id)])];
      await kv.set(`b:${batchId}`, {
        id: batchId,
        entryIds: ids,
        createdAt: before?.createdAt ?? Date.now(),
      } satisfies Batch);
      await exclusive(async () => {
        const list = await batches();
        if (!list.includes(batchId)) await kv.set(PENDING, [...list, batchId]);
      });
      return fresh.length;
    },
    async pending() {
      return (await entriesOf(await batches())).filter((e) => e.state === 'pending' || e.state === 'inflight');
    },
    async update(entry) {
      const done = entry.state === 'sent' || entry.state === 'dead' || entry.state === 'merged';
      await kv.set(`e:${entry.id}`, entry, done ? DONE_TTL_MS : undefined);
    },
    compact() {
      return exclusive(async () => {
        const list = await batches();
        const done = new Set<string>();
        let open = 0;
        for (const b of list) {
          const n = (await entriesOf([b])).filter((e) => e.state === 'pending' || e.state === 'inflight').length;
          if (n === 0) done.add(b);
          open += n;
        }
        if (done.size) {
          // Re-read just before writing: another instance may have added a batch meanwhile.
          await kv.set(
            PENDING,
            (await batches()).filter((b) => !done.has(b)),
          );
          for (const b of done) await kv.delete(`b:${b}`);
        }
        return open;
      });
    },
    get: (id) => kv.get<OutboxEntry>(`e:${id}`),
    async recover() {
      const indexed = new Set((await entriesOf(await batches())).map((e) => e.id));
      const orphans: string[] = [];
      for await (const [key, e] of kv.entries<OutboxEntry>()) {
        if (key.startsWith('e:') && e && (e.state === 'pending' || e.state === 'inflight') && !indexed.has(e.id))
          orphans.push(e.id);
      }
      if (!orphans.length) return 0;
      const batchId = `recovered-${Date.now()}`;
      await kv.set(`b:${batchId}`, { id: batchId, entryIds: orphans, createdAt: Date.now() } satisfies Batch);
      await exclusive(async () => kv.set(PENDING, [...(await batches()), batchId]));
      return orphans.length;
    },
  };
}
