/**
 * The operator's store tools behind `npm run backup`, `npm run restore` and
 * `npm run migrate-store`. They work on raw rows (raw.ts), so every key space in
 * spaces.ts moves byte for byte, whatever its shape and schema version, and
 * each ends by reading the destination back and comparing it row by row.
 *
 * Backups: an SQLite store is copied with VACUUM INTO, online and consistent
 * while the bot writes (copying a WAL database's file is not); a Redis store is
 * exported as JSON lines (one header, then one row per line). Either restores
 * into either kind of store.
 */
import { mkdirSync, openSync, readSync, closeSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SqliteKvStore } from './sqlite.ts';
import { RedisKvStore } from './redis.ts';
import { rawStore, type RawRow, type RawStore } from './raw.ts';
import { carriedSpaces, KEY_SPACES, REDIS_RUNTIME_PREFIXES, spaceOf, type KeySpace } from './spaces.ts';
import { MARK_KEY, type SchemaMark } from './schema.ts';
import { describeStore } from './index.ts';

/** The tables an SQLite store holds: everything lives in `kv` (test/store/spaces.test.ts keeps this honest). */
export const SQLITE_TABLES = ['kv'] as const;

export class ToolError extends Error {
  override name = 'ToolError';
}

export interface Backend {
  readonly raw: RawStore;
  readonly kind: 'sqlite' | 'redis';
  readonly where: string;
  readonly sqlite: SqliteKvStore | undefined;
  readonly redis: RedisKvStore | undefined;
  close(): Promise<void>;
}

/** The store at `url` below keyv: no schema check, no migration (a tool must work on any version). */
export async function openBackend(url: string): Promise<Backend> {
  const where = describeStore(url);
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    const redis = await RedisKvStore.connect(url, { timeoutMs: 5_000 });
    return { raw: rawStore(redis), kind: 'redis', where, sqlite: undefined, redis, close: () => redis.disconnect() };
  }
  if (!url.startsWith('sqlite:')) throw new ToolError(`${url}: a store URL is sqlite:<path> or redis://host:port`);
  const sqlite = new SqliteKvStore(url.slice('sqlite:'.length));
  return { raw: rawStore(sqlite), kind: 'sqlite', where, sqlite, redis: undefined, close: () => sqlite.disconnect() };
}

/** Rows per carried key space, each listed (0 when empty), then anything outside the list. */
export function countBySpace(rows: Iterable<RawRow>): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(carriedSpaces().map((s) => [s, 0]));
  for (const r of rows) {
    const s = spaceOf(r.key) ?? `unknown:${r.key.split(/::|:/)[0]}`;
    counts[s] = (counts[s] ?? 0) + 1;
  }
  return counts;
}

/** Rows that move with the data: every carried space; never the probe or the Redis leases. */
function carried(rows: Iterable<RawRow>): RawRow[] {
  const out: RawRow[] = [];
  for (const r of rows) {
    if (REDIS_RUNTIME_PREFIXES.some((p) => r.key.startsWith(p))) continue;
    const space = spaceOf(r.key);
    if (space === undefined) throw new ToolError(`key ${r.key} belongs to no key space in store/spaces.ts`);
    if (KEY_SPACES[space].carry) out.push(r);
  }
  return out;
}

export async function carriedRows(raw: RawStore): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  for await (const r of raw.rows()) rows.push(r);
  return carried(rows);
}

const schemaOf = (rows: readonly RawRow[]): number => {
  const row = rows.find((r) => r.key === `meta::${MARK_KEY}`);
  return row ? ((JSON.parse(row.value) as { value: SchemaMark }).value.version ?? 0) : 0;
};

/** Reads the destination back: every source row must be there, equal (a row that expired meanwhile excepted). */
async function verify(raw: RawStore, rows: readonly RawRow[]): Promise<void> {
  const there = new Map<string, string>();
  for await (const r of raw.rows()) there.set(r.key, r.value);
  const now = Date.now();
  const missing = rows.filter((r) => there.get(r.key) !== r.value && (r.expiresAt === null || r.expiresAt > now));
  if (missing.length)
    throw new ToolError(
      `read-back found ${missing.length} rows missing or different, such as ${missing[0]!.key}; nothing was lost at the source`,
    );
}

export interface BackupResult {
  readonly path: string;
  readonly counts: Record<string, number>;
  readonly schema: number;
}

/** An online, consistent backup of the store at `url` into `path` (.sqlite for SQLite, .jsonl for Redis). */
export async function backup(url: string, path: string): Promise<BackupResult> {
  const b = await openBackend(url);
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (b.sqlite) {
      b.sqlite.backupTo(path);
      const rows = await readBackup(path);
      return { path, counts: countBySpace(rows), schema: schemaOf(rows) };
    }
    // Redis has no snapshot a client can read: the export is key by key (see docs/deploy.md for RDB/AOF).
    const rows = await carriedRows(b.raw);
    const header = { kolradar: 'backup', from: b.where, at: new Date().toISOString(), schema: schemaOf(rows) };
    await writeFile(path, [header, ...rows].map((r) => `${JSON.stringify(r)}\n`).join(''));
    return { path, counts: countBySpace(rows), schema: schemaOf(rows) };
  } finally {
    await b.close();
  }
}

const isSqliteFile = (path: string): boolean => {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    return head.toString('latin1') === 'SQLite format 3\0';
  } finally {
    closeSync(fd);
  }
};

/** The rows a backup file holds, of either format; checks an SQLite file's integrity first. */
export async function readBackup(path: string): Promise<RawRow[]> {
  if (isSqliteFile(path)) {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const ok = db.prepare('PRAGMA integrity_check').get() as { integrity_check: string };
      if (ok.integrity_check !== 'ok') throw new ToolError(`${path} is damaged: ${ok.integrity_check}`);
      const now = Date.now();
      const rows = db.prepare('SELECT key, value, expires FROM kv ORDER BY key').all() as {
        key: string;
        value: string;
        expires: number | null;
      }[];
      return carried(
        rows
          .filter((r) => r.expires === null || r.expires > now)
          .map((r) => ({ key: r.key, value: r.value, expiresAt: r.expires })),
      );
    } finally {
      db.close();
    }
  }
  const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
  const header = lines.length ? (JSON.parse(lines[0]!) as { kolradar?: string }) : {};
  if (header.kolradar !== 'backup') throw new ToolError(`${path} is not a kolradar backup`);
  const now = Date.now();
  return carried(
    lines
      .slice(1)
      .map((l) => JSON.parse(l) as RawRow)
      .filter((r) => r.expiresAt === null || r.expiresAt > now),
  );
}

export interface RestoreResult {
  readonly counts: Record<string, number>;
  readonly schema: number;
  /** Alerts queued, in flight or held for quiet hours at the backup: they go out from the restored store (again, if they went out after the backup). */
  readonly queued: number;
}

/**
 * Replaces the store at `url` with the backup at `path` (the bot stopped), then
 * reads it back. On Redis it refuses while an instance holds the watcher lease.
 */
export async function restore(url: string, path: string): Promise<RestoreResult> {
  const rows = await readBackup(path);
  const b = await openBackend(url);
  try {
    if (b.redis && (await b.redis.client.exists('kolradar:lease:watcher')))
      throw new ToolError(`a running instance holds the watcher lease on ${b.where}: stop every instance first`);
    await b.raw.putRows(rows, true);
    await verify(b.raw, rows);
    return { counts: countBySpace(rows), schema: schemaOf(rows), queued: queuedIn(rows) };
  } finally {
    await b.close();
  }
}

/** Outbox entries not finished: what the next start sends. */
function queuedIn(rows: readonly RawRow[]): number {
  let n = 0;
  for (const r of rows)
    if (r.key.startsWith('outbox::e:')) {
      const state = (JSON.parse(r.value) as { value?: { state?: string } }).value?.state;
      if (state === 'pending' || state === 'inflight') n++;
    }
  return n;
}

export interface MoveResult {
  readonly counts: Record<string, number>;
  readonly schema: number;
}

/**
 * Copies every carried key space from one store to another and reads it back.
 * The destination must hold no kolradar data (`replace` to overwrite it).
 */
export async function moveStore(from: string, to: string, o: { replace?: boolean } = {}): Promise<MoveResult> {
  if (from === to) throw new ToolError('--from and --to name the same store');
  const src = await openBackend(from);
  try {
    const dst = await openBackend(to);
    try {
      const rows = await carriedRows(src.raw);
      if (!o.replace && (await carriedRows(dst.raw)).length)
        throw new ToolError(`${dst.where} already holds kolradar data; empty it or pass --replace`);
      await dst.raw.putRows(rows, o.replace ?? false);
      await verify(dst.raw, rows);
      return { counts: countBySpace(rows), schema: schemaOf(rows) };
    } finally {
      await dst.close();
    }
  } finally {
    await src.close();
  }
}

/** "sub 5, lang 4, …" in the list's order, for the one line a tool prints. */
export const formatCounts = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');

export type { KeySpace };
