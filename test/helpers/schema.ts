/**
 * "Data written by version N": test/store/versions/v<N>.json holds the rows a
 * populated store of that version contained (test/helpers/populated.ts wrote
 * them through that version's code; `npm run store-snapshot` records the
 * current version's). A migration to N + 1 is tested by seeding v<N> into a
 * fresh store, opening it with today's code, and reading it back.
 *
 * Expiry is kept relative (ttlMs from the moment of the snapshot), so seeded
 * rows live as long as they had left, whenever the test runs. Every other time a
 * snapshot carries (calls, outbox times, tweets, the feed's mark, hour buckets in
 * keys) is moved by the same whole number of hours to just before now
 * (`rebased`): a seeded store is as old when the test runs as it was when it was
 * recorded, whatever the date, and the time of day it was recorded at is kept to
 * the hour's fraction (so a tweet-time order, a quiet window's minutes and a
 * follow-up's point stay what they were).
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

const HOUR = 3_600_000;
/** Epoch milliseconds between 2020 and 2050: the only numbers taken for times. */
const isInstant = (n: number) => Number.isInteger(n) && n >= 1_577_836_800_000 && n < 2_524_608_000_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A 13-digit instant standing alone inside a key or an id (never part of a longer run of digits). */
const INSTANT_IN_TEXT = /(?<![0-9])1[5-9]\d{11}(?![0-9])/g;

/** When a snapshot was recorded: a row with an expiry carries it exactly (expires - ttlMs). */
export function recordedAt(rows: readonly SnapshotRow[]): number {
  for (const r of rows) {
    const expires = (r.value as { expires?: unknown } | null)?.expires;
    if (r.ttlMs !== null && typeof expires === 'number') return expires - r.ttlMs;
  }
  throw new Error('the snapshot has no row with an expiry to tell when it was recorded');
}

/** How far a snapshot's times move so that it was recorded within the hour before `now`. */
export function shiftFor(rows: readonly SnapshotRow[], now = Date.now()): number {
  return Math.floor((now - recordedAt(rows)) / HOUR) * HOUR;
}

/** The rows with every time they carry moved by `shift` (a whole number of hours). */
export function rebased(rows: readonly SnapshotRow[], shift: number): SnapshotRow[] {
  if (shift % HOUR !== 0) throw new Error('snapshots move by whole hours, or their hour buckets would not follow');
  const text = (s: string) =>
    ISO.test(s)
      ? new Date(Date.parse(s) + shift).toISOString()
      : s.replace(INSTANT_IN_TEXT, (d) => (isInstant(Number(d)) ? String(Number(d) + shift) : d));
  const move = (v: unknown): unknown => {
    if (typeof v === 'number') return isInstant(v) ? v + shift : v;
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(move);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), move(x)]));
    return v;
  };
  // The watcher's per-hour counts of shilled tokens are keyed by the hour's number.
  const key = (k: string) =>
    text(k).replace(/^(watch::shills:)(\d+)$/, (_, p: string, h: string) => `${p}${Number(h) + shift / HOUR}`);
  return rows.map((r) => ({ key: key(r.key), value: move(r.value), ttlMs: r.ttlMs }));
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
export async function seedVersion(url: string, version: number, now = Date.now()): Promise<SnapshotRow[]> {
  const recorded = await readSnapshot(version);
  const snapshot = rebased(recorded, shiftFor(recorded, now));
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
