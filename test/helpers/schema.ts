/**
 * "Data written by version N": test/store/versions/v<N>.json holds the rows a
 * populated store of that version contained (test/helpers/populated.ts wrote
 * them through that version's code; `npm run store-snapshot` records the
 * current version's). A migration to N + 1 is tested by seeding v<N> into a
 * fresh store, opening it with today's code, and reading it back.
 *
 * Expiry is kept relative (ttlMs from the moment of the snapshot), so seeded
 * rows live as long as they had left, whenever the test runs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { openStore, type Store } from '../../src/store/index.ts';
import type { RawRow } from '../../src/store/raw.ts';

export interface SnapshotRow {
  readonly key: string;
  readonly value: unknown;
  readonly ttlMs: number | null;
}

const file = (version: number) => new URL(`../store/versions/v${version}.json`, import.meta.url);

export async function readSnapshot(version: number): Promise<SnapshotRow[]> {
  return JSON.parse(await readFile(file(version), 'utf8')) as SnapshotRow[];
}

/** Rows as stored, their keyv envelope parsed so the file reads and diffs well. */
export async function snapshotOf(store: Store, now = Date.now()): Promise<SnapshotRow[]> {
  const rows: SnapshotRow[] = [];
  for await (const r of store.raw.rows())
    if (!r.key.startsWith('health::') && !r.key.startsWith('lease:'))
      rows.push({ key: r.key, value: JSON.parse(r.value), ttlMs: r.expiresAt === null ? null : r.expiresAt - now });
  return rows.sort((a, b) => (a.key < b.key ? -1 : 1));
}

export async function writeSnapshot(version: number, rows: readonly SnapshotRow[]): Promise<void> {
  await writeFile(file(version), `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
}

/** Raw rows for a snapshot, expiry re-based on `now` (keyv keeps its own copy inside the value too). */
export function rowsOf(snapshot: readonly SnapshotRow[], now = Date.now()): RawRow[] {
  return snapshot.map((r) => {
    const expiresAt = r.ttlMs === null ? null : now + r.ttlMs;
    const value = r.value as { expires?: number };
    return {
      key: r.key,
      value: JSON.stringify(expiresAt === null ? value : { ...value, expires: expiresAt }),
      expiresAt,
    };
  });
}

/**
 * Writes what a store of `version` held into the empty store at `url`, below
 * today's code (no schema check runs on these rows until the next open).
 */
export async function seedVersion(url: string, version: number): Promise<SnapshotRow[]> {
  const snapshot = await readSnapshot(version);
  const raw = await rawOnly(url);
  await raw.store.putRows(rowsOf(snapshot));
  await raw.close();
  return snapshot;
}

/** The backend of `url` with nothing on top: no schema check, no migration. */
export async function rawOnly(url: string) {
  const { SqliteKvStore } = await import('../../src/store/sqlite.ts');
  const { RedisKvStore } = await import('../../src/store/redis.ts');
  const { rawStore } = await import('../../src/store/raw.ts');
  const backend = url.startsWith('redis')
    ? await RedisKvStore.connect(url)
    : new SqliteKvStore(url.slice('sqlite:'.length));
  return { store: rawStore(backend), close: () => backend.disconnect() };
}

export { openStore };

/**
 * The layout of a set of rows, without their data: each key's kind (the space
 * and the key's first word) and the types of every field its values carry. Two
 * versions that store the same things have the same layout; a new field, a
 * renamed one, a new kind of key or a new space changes it.
 */
export function layoutOf(rows: readonly SnapshotRow[]): Record<string, string[]> {
  const kinds = new Map<string, Set<string>>();
  const walk = (at: string, v: unknown, out: Set<string>) => {
    if (Array.isArray(v)) {
      out.add(`${at}: array`);
      for (const x of v) walk(`${at}[]`, x, out);
    } else if (v && typeof v === 'object') {
      out.add(`${at}: object`);
      for (const [k, x] of Object.entries(v)) walk(`${at}.${/^\d+$|:/.test(k) ? '<id>' : k}`, x, out);
    } else out.add(`${at}: ${v === null ? 'null' : typeof v}`);
  };
  for (const r of rows) {
    const [space, rest = ''] = r.key.split('::');
    const kind = `${space}::${/^[a-z]+(?=:)|^[a-z]+$/.exec(rest)?.[0] ?? '<id>'}`;
    const out = kinds.get(kind) ?? new Set<string>();
    kinds.set(kind, out);
    walk('', (r.value as { value: unknown }).value, out);
  }
  return Object.fromEntries([...kinds].sort().map(([k, v]) => [k, [...v].sort()]));
}
