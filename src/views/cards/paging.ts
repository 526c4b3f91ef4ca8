/**
 * Next/Previous buttons. Each carries the full option set of the page it opens,
 * so a pressed button is just the command run again (and works the same on
 * every platform, from a stored key).
 */
import type { Action } from '../../domain/view.ts';
import { fmt, type T } from './lang.ts';

type Options = Readonly<Record<string, unknown>>;

/** Stored options must survive JSON: undefined values are dropped. */
function defined(o: Options): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export interface OffsetPage {
  readonly offset: number;
  readonly limit: number;
  /** Rows on this page. */
  readonly shown: number;
  /** All matching rows, when the API says. */
  readonly total?: number;
}

function hasNextOffset(p: OffsetPage): boolean {
  return p.total !== undefined ? p.offset + p.shown < p.total : p.shown >= p.limit;
}

export function offsetActions(command: string, input: Options, p: OffsetPage, t: T): Action[] {
  const out: Action[] = [];
  if (p.offset > 0) {
    out.push({
      label: t('paging.previous'),
      command,
      options: defined({ ...input, offset: Math.max(0, p.offset - p.limit) }),
    });
  }
  if (hasNextOffset(p))
    out.push({ label: t('paging.next'), command, options: defined({ ...input, offset: p.offset + p.limit }) });
  return out;
}

/** "11-20 of 160", or "11-20" when the total is unknown; "no results" for an empty page. */
export function rangeText(p: OffsetPage, t: T): string {
  if (p.shown === 0) return t(p.offset > 0 ? 'paging.noMore' : 'paging.none');
  const span = `${p.offset + 1}-${p.offset + p.shown}`;
  return p.total !== undefined ? t('paging.of', { span, total: fmt(t).int(p.total) }) : span;
}

/** Marks "the first page" in the stack of earlier cursors (a cursor is never this). */
const FIRST_PAGE = '-';
/** Earlier pages remembered for Previous; older ones fall off. */
export const BACK_MAX = 10;

export interface CursorPage {
  /** The cursor that opened this page; undefined on the first page. */
  readonly cursor: string | undefined;
  /** Cursors of earlier pages, oldest first. */
  readonly back: readonly string[] | undefined;
  readonly next: string | null;
}

/**
 * Cursor APIs only go forward, so Next also pushes this page's cursor on a
 * small stack that Previous pops.
 */
export function cursorActions(command: string, input: Options, p: CursorPage, t: T): Action[] {
  const back = [...(p.back ?? [])];
  const out: Action[] = [];
  const prev = back.at(-1);
  if (p.cursor !== undefined && prev !== undefined) {
    const rest = back.slice(0, -1);
    out.push({
      label: t('paging.previous'),
      command,
      options: defined({
        ...input,
        cursor: prev === FIRST_PAGE ? undefined : prev,
        back: rest.length ? rest : undefined,
      }),
    });
  }
  if (p.next) {
    const pushed = [...back, p.cursor ?? FIRST_PAGE].slice(-BACK_MAX);
    out.push({ label: t('paging.next'), command, options: defined({ ...input, cursor: p.next, back: pushed }) });
  }
  return out;
}
