/**
 * The store below keyv: rows as stored, with their expiry. Backup, restore,
 * migrate-store and the schema lock work here, so they carry every key space
 * byte for byte whatever its shape, and need no change when a shape changes.
 */
import { SqliteKvStore } from './sqlite.ts';
import { RedisKvStore } from './redis.ts';
import { editList } from './list.ts';

export interface RawRow {
  /** `<space>::<key>`, as keyv namespaces it (no Redis prefix). */
  readonly key: string;
  /** keyv's serialised value, untouched. */
  readonly value: string;
  /** Epoch ms, or null: kept. */
  readonly expiresAt: number | null;
}

export interface RawStore {
  rows(prefix?: string): AsyncIterable<RawRow>;
  /** `replace`: the store holds exactly these rows afterwards (Redis leases excepted). */
  putRows(rows: readonly RawRow[], replace?: boolean): Promise<void>;
  /** Set-if-absent-or-expired, atomic across every process sharing the store. */
  take(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Adds `add` to, and removes `drop` from, the list of strings at `key` (a keyv value,
   * kept without expiry; removed when empty), atomic across every process sharing the
   * store: indexes that any instance appends to lose no entry to a concurrent writer.
   */
  listEdit(key: string, add: readonly string[], drop?: readonly string[]): Promise<void>;
}

/** What keyv keeps in a Map (the memory: store). */
type MapEntry = { value: string; expires?: number | undefined };

export function rawStore(backend: SqliteKvStore | RedisKvStore | Map<string, unknown>): RawStore {
  if (backend instanceof SqliteKvStore)
    return {
      async *rows(prefix) {
        yield* backend.rows(prefix);
      },
      putRows: async (rows, replace) => backend.putRows(rows, replace),
      take: (key, value, ttlMs) => backend.take(key, value, ttlMs),
      delete: async (key) => void (await backend.delete(key)),
      listEdit: async (key, add, drop) => backend.listEdit(key, add, drop),
    };
  if (backend instanceof RedisKvStore)
    return {
      rows: (prefix) => backend.rows(prefix),
      putRows: (rows, replace) => backend.putRows(rows, replace),
      take: (key, value, ttlMs) => backend.take(key, value, ttlMs),
      delete: async (key) => void (await backend.delete(key)),
      listEdit: (key, add, drop) => backend.listEdit(key, add, drop),
    };
  const map = backend as Map<string, MapEntry>;
  const live = (e: MapEntry | undefined, now: number) => e !== undefined && (e.expires ?? Infinity) > now;
  return {
    async *rows(prefix = '') {
      const now = Date.now();
      for (const [key, e] of [...map].sort(([a], [b]) => (a < b ? -1 : 1)))
        if (key.startsWith(prefix) && live(e, now)) yield { key, value: e.value, expiresAt: e.expires ?? null };
    },
    async putRows(rows, replace) {
      if (replace) map.clear();
      for (const r of rows) map.set(r.key, { value: r.value, expires: r.expiresAt ?? undefined });
    },
    async take(key, value, ttlMs) {
      const now = Date.now();
      if (live(map.get(key), now)) return false;
      map.set(key, { value, expires: now + ttlMs });
      return true;
    },
    delete: async (key) => void map.delete(key),
    async listEdit(key, add, drop) {
      const e = map.get(key);
      const next = editList(live(e, Date.now()) ? e!.value : undefined, add, drop);
      if (next === null) map.delete(key);
      else map.set(key, { value: next });
    },
  };
}
