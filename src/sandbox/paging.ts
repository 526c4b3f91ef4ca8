// Ordering and paging. DESC is the exact reverse of ASC over (sort value, id), so ties are stable.
// Cursors encode the last item's position (sort value and id), not an offset, so items added
// while a client pages never shift what the next page returns.
import { bad } from './params.ts';

export interface HasId {
  id: number;
}

export function sortByKey<T extends HasId>(items: T[], key: (t: T) => number, desc: boolean): T[] {
  const d = desc ? -1 : 1;
  return items.sort((a, b) => (key(a) - key(b) || a.id - b.id) * d);
}

export function offsetPage<T>(items: readonly T[], offset: number, limit: number): T[] {
  return items.slice(offset, offset + limit);
}

export interface Position {
  v: number;
  id: number;
}

export function encodeCursor(sort: string, desc: boolean, pos: Position): string {
  return Buffer.from(JSON.stringify({ s: sort, o: desc ? 'desc' : 'asc', v: pos.v, id: pos.id })).toString('base64');
}

export function decodeCursor(raw: string | undefined, sort: string, desc: boolean): Position | undefined {
  if (raw === undefined || raw === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    throw bad('cursor is not valid');
  }
  const c = parsed as { s?: unknown; o?: unknown; v?: unknown; id?: unknown } | null;
  if (!c || typeof c.v !== 'number' || typeof c.id !== 'number') throw bad('cursor is not valid');
  if (c.s !== sort || c.o !== (desc ? 'desc' : 'asc')) throw bad('cursor belongs to another sort order');
  return { v: c.v, id: c.id };
}

export interface CursorPage<T> {
  items: T[];
  next: Position | null;
}

/**
 * One page from `sorted` (ascending by (key, id)), walking down when desc, starting just past
 * `after`, keeping items that pass `keep`. `next` is null when no further item would match.
 */
export function cursorPage<T extends HasId>(
  sorted: readonly T[],
  key: (t: T) => number,
  desc: boolean,
  after: Position | undefined,
  limit: number,
  keep: (t: T) => boolean,
): CursorPage<T> {
  const cmp = (t: T, p: Position) => key(t) - p.v || t.id - p.id;
  let i: number;
  if (!after) {
    i = desc ? sorted.length - 1 : 0;
  } else {
    // First index whose position is > after (asc) or >= after (desc, then step back one).
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = cmp(sorted[mid] as T, after);
      if (c < 0 || (!desc && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    i = desc ? lo - 1 : lo;
  }
  const step = desc ? -1 : 1;
  const items: T[] = [];
  let more = false;
  for (; i >= 0 && i < sorted.length; i += step) {
    const t = sorted[i] as T;
    if (!keep(t)) continue;
    if (items.length === limit) {
      more = true;
      break;
    }
    items.push(t);
  }
  const last = items.at(-1);
  return { items, next: more && last ? { v: key(last), id: last.id } : null };
}
