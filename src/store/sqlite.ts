/**
 * A keyv store on `node:sqlite`: persistent state with no native build at
 * install (the sqlite3 package compiles with node-gyp, which breaks on Node 24
 * here). Keyv serialises values and checks expiry itself; this table keeps the
 * expiry too so that expired rows can be swept instead of growing forever.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { editList } from './list.ts';

const SWEEP_EVERY_MS = 60_000;

export class SqliteKvStore {
  readonly opts: { dialect: 'sqlite'; path: string };
  readonly #db: DatabaseSync;
  readonly #get: StatementSync;
  /** Test hook: makes every call fail, to prove a store outage loses nothing. */
  failing = false;
  readonly #set: StatementSync;
  readonly #del: StatementSync;
  readonly #sweep: StatementSync;
  readonly #take: StatementSync;
  readonly #put: StatementSync;
  #lastSweep = 0;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.opts = { dialect: 'sqlite', path };
    this.#db = new DatabaseSync(path);
    // WAL lets a reader and the writer work at once; NORMAL sync is durable across
    // process crashes (the case that matters: SIGKILL), at a fraction of FULL's cost.
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER);
      CREATE INDEX IF NOT EXISTS kv_expires ON kv (expires) WHERE expires IS NOT NULL;
    `);
    this.#get = this.#db.prepare('SELECT value, expires FROM kv WHERE key = ?');
    this.#set = this.#db.prepare(
      'INSERT INTO kv (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires',
    );
    this.#del = this.#db.prepare('DELETE FROM kv WHERE key = ?');
    this.#sweep = this.#db.prepare('DELETE FROM kv WHERE expires IS NOT NULL AND expires <= ?');
    // One statement, so atomic across every process on the file: a row that is absent or expired is taken.
    this.#take = this.#db.prepare(
      'INSERT INTO kv (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires WHERE kv.expires IS NOT NULL AND kv.expires <= ?',
    );
    this.#put = this.#db.prepare(
      'INSERT INTO kv (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires',
    );
  }

  /** True when `key` was absent or expired and is now `value` for `ttlMs`: one winner among every process on the file. */
  async take(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.#check();
    const now = Date.now();
    return Number(this.#take.run(key, value, now + ttlMs, now).changes) > 0;
  }

  /** See RawStore.listEdit: read and write in one immediate transaction, so one writer at a time across processes. */
  listEdit(key: string, add: readonly string[], drop: readonly string[] = []): void {
    this.#check();
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const row = this.#get.get(key) as { value: string; expires: number | null } | undefined;
      const live = row && (row.expires === null || row.expires > Date.now()) ? row.value : undefined;
      const next = editList(live, add, drop);
      if (next === null) this.#del.run(key);
      else this.#put.run(key, next, null);
      this.#db.exec('COMMIT');
    } catch (err) {
      this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  /** Raw rows as stored (keyv's serialised values), for backup, restore and migrate-store. */
  *rows(prefix = ''): Generator<{ key: string; value: string; expiresAt: number | null }> {
    this.#check();
    const now = Date.now();
    const rows = (
      prefix
        ? // The range walks the key index (a million subscriptions must not be read to list one chat's
          // topics); the prefix test keeps it exact.
          this.#db
            .prepare(
              'SELECT key, value, expires FROM kv WHERE key >= ? AND key < ? AND substr(key, 1, ?) = ? ORDER BY key',
            )
            .iterate(prefix, `${prefix}\u{10FFFF}\u{10FFFF}`, prefix.length, prefix)
        : this.#db.prepare('SELECT key, value, expires FROM kv ORDER BY key').iterate()
    ) as Iterable<{ key: string; value: string; expires: number | null }>;
    for (const r of rows)
      if (r.expires === null || r.expires > now) yield { key: r.key, value: r.value, expiresAt: r.expires };
  }

  /** Writes raw rows in one transaction (after emptying the table with `replace`): a restore is all or nothing. */
  putRows(rows: readonly { key: string; value: string; expiresAt: number | null }[], replace = false): void {
    this.#check();
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      if (replace) this.#db.exec('DELETE FROM kv');
      for (const r of rows) this.#put.run(r.key, r.value, r.expiresAt);
      this.#db.exec('COMMIT');
    } catch (err) {
      this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  /**
   * An online, consistent copy to `path` while the bot runs (VACUUM INTO reads one
   * snapshot of the WAL database; copying the file would not be consistent).
   */
  backupTo(path: string): void {
    this.#check();
    this.#db.prepare('VACUUM INTO ?').run(path);
  }

  #check(): void {
    if (this.failing) throw new Error('sqlite store unavailable (simulated)');
  }

  async get(key: string): Promise<string | undefined> {
    this.#check();
    const row = this.#get.get(key) as { value: string; expires: number | null } | undefined;
    if (!row) return undefined;
    if (row.expires !== null && row.expires <= Date.now()) return undefined;
    return row.value;
  }

  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    this.#check();
    const now = Date.now();
    this.#set.run(key, typeof value === 'string' ? value : JSON.stringify(value), ttl && ttl > 0 ? now + ttl : null);
    if (now - this.#lastSweep > SWEEP_EVERY_MS) {
      this.#lastSweep = now;
      this.#sweep.run(now);
    }
    return true;
  }

  async delete(key: string): Promise<boolean> {
    this.#check();
    return Number(this.#del.run(key).changes) > 0;
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async getMany(keys: string[]): Promise<(string | undefined)[]> {
    return Promise.all(keys.map((k) => this.get(k)));
  }

  /** Keyv's namespaced scans (subscriptions) come through here; keys carry the `ns::` prefix. */
  async *iterator(namespace?: string): AsyncGenerator<[string, string]> {
    this.#check();
    const now = Date.now();
    // Lazily, row by row: 100,000 subscriptions must not sit in memory twice.
    const rows = (
      namespace
        ? this.#db
            .prepare('SELECT key, value, expires FROM kv WHERE key >= ? AND key < ?')
            .iterate(`${namespace}::`, `${namespace}:;`)
        : this.#db.prepare('SELECT key, value, expires FROM kv').iterate()
    ) as Iterable<{ key: string; value: string; expires: number | null }>;
    for (const row of rows) if (row.expires === null || row.expires > now) yield [row.key, row.value];
  }

  /** The tables in the file: what backup and migrate-store must know about (test/store/spaces.test.ts). */
  tables(): string[] {
    const rows = this.#db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    return rows.map((r) => String((r as { name: string }).name));
  }

  async clear(): Promise<void> {
    this.#db.exec('DELETE FROM kv');
  }

  async disconnect(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
