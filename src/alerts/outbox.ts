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
import type { DestinationPlatform } from '../store/subscriptions.ts';
import type { Kv } from '../store/strict.ts';
import type { AlertContent } from './content.ts';

export type EntryState = 'pending' | 'inflight' | 'sent' | 'dead';

export interface OutboxEntry {
  /** `${first tweet id}:${subscription id}`: the same tweet and destination always give the same id. */
  readonly id: string;
  readonly subId: string;
  readonly platform: DestinationPlatform;
  readonly chatId: string;
  readonly isGroup: boolean;
  readonly content: AlertContent;
  readonly createdAt: number;
  state: EntryState;
  attempts: number;
  /** Earliest time of the next attempt (after a 429 or a transient failure). */
  notBefore: number;
  /** Platform message id once sent; why it died otherwise. */
  messageId?: string;
  error?: string;
}

interface Batch {
  readonly id: string;
  readonly entryIds: readonly string[];
  readonly createdAt: number;
}

/** How long finished entries are kept, so a re-fetch after a crash still finds them. */
const DONE_TTL_MS = 3 * 24 * 3600_000;
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
}

export function createOutbox(kv: Kv): Outbox {
  const batches = async () => (await kv.get<string[]>(PENDING)) ?? [];

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
      for (const e of fresh) await kv.set(`e:${e.id}`, e);
      const ids = entries.map((e) => e.id);
      await kv.set(`b:${batchId}`, { id: batchId, entryIds: ids, createdAt: Date.now() } satisfies Batch);
      const list = await batches();
      if (!list.includes(batchId)) await kv.set(PENDING, [...list, batchId]);
      return fresh.length;
    },
    async pending() {
      return (await entriesOf(await batches())).filter((e) => e.state === 'pending' || e.state === 'inflight');
    },
    async update(entry) {
      const done = entry.state === 'sent' || entry.state === 'dead';
      await kv.set(`e:${entry.id}`, entry, done ? DONE_TTL_MS : undefined);
    },
    async compact() {
      const list = await batches();
      const keep: string[] = [];
      let open = 0;
      for (const b of list) {
        const es = await entriesOf([b]);
        const n = es.filter((e) => e.state === 'pending' || e.state === 'inflight').length;
        if (n > 0) keep.push(b);
        else await kv.delete(`b:${b}`);
        open += n;
      }
      if (keep.length !== list.length) await kv.set(PENDING, keep);
      return open;
    },
    get: (id) => kv.get<OutboxEntry>(`e:${id}`),
  };
}
