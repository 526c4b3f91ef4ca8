/**
 * Option pieces several commands share (not a command: the registry skips
 * files starting with `_`). Each command still declares its own options
 * object, so its help and validation stay in its own file.
 */
import type { CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { BACK_MAX } from '../src/views/cards/paging.ts';

type NumberOption = ReturnType<typeof opt.number<false>>;

/** `min_<key>` and `max_<key>`, inclusive bounds. */
export function range<const K extends string>(key: K, o: { min?: number; max?: number } = {}) {
  return {
    [`min_${key}`]: opt.number({ ...o }),
    [`max_${key}`]: opt.number({ ...o }),
  } as { [P in `min_${K}` | `max_${K}`]: NumberOption };
}

/** Says which pair is upside down, in the names the user typed. */
export function checkBounds(input: Readonly<Record<string, unknown>>, example: string): void {
  for (const [key, lo] of Object.entries(input)) {
    if (!key.startsWith('min_') || typeof lo !== 'number') continue;
    const hi = input[`max_${key.slice(4)}`];
    if (typeof hi === 'number' && lo > hi)
      throw new UserError({ key: 'errors.bounds', values: { min: key, lo, max: `max_${key.slice(4)}`, hi } }, example);
  }
}

export { DEFAULT_MIN_TOKENS } from '../src/domain/score.ts';

export const order = () =>
  opt.choice(['desc', 'asc'], {
    noun: 'order',
    aliases: { down: 'desc', descending: 'desc', up: 'asc', ascending: 'asc' },
  });

export function apiOrder(order: 'asc' | 'desc' | undefined, fallback: 'asc' | 'desc' = 'desc'): 'ASC' | 'DESC' {
  return (order ?? fallback) === 'asc' ? 'ASC' : 'DESC';
}

export const limit = (def: number, max: number) => opt.integer({ min: 1, max, default: def });

export const offset = () => opt.integer({ min: 0, default: 0 });

export const cursor = () => opt.string({ max: 512, internal: true });

export const back = () =>
  opt.list(opt.string({ max: 512 }), {
    max: BACK_MAX,
    internal: true,
  });

export const labels = () =>
  opt.list(opt.string({ max: 40 }), {
    max: 10,
  });

/** The upstream wants win and rug rates as fractions; people type percents. */
export function percentToFraction(v: number | undefined): string | undefined {
  return v === undefined ? undefined : String(Number((v / 100).toPrecision(12)));
}

export const numText = (v: number | undefined): string | undefined => (v === undefined ? undefined : String(v));

export const callOpts = (ctx: CommandContext) => ({ signal: ctx.signal, budgetMs: ctx.budgetMs });

const WHEN =
  /^(\d{1,4})\s*(m|min|h|d|w)$|^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** A point in time: a date (2024-05-01, ISO time allowed) or how long ago (30m, 24h, 7d, 2w). */
export const when = () => opt.string({ pattern: WHEN, hint: 'when', max: 40 });

const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Milliseconds since the epoch for a `when` value; dates without a zone are UTC. */
export function whenMs(text: string, now: number, example: string): number {
  const rel = /^(\d{1,4})\s*(m|min|h|d|w)$/i.exec(text.trim());
  const ms = rel
    ? now - Number(rel[1]) * UNIT_MS[rel[2]!.toLowerCase()]!
    : Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) || text.length === 10 ? text : `${text}Z`);
  if (!Number.isFinite(ms)) throw new UserError({ key: 'errors.badDate', values: { text } }, example);
  if (ms > now) throw new UserError({ key: 'errors.future', values: { text } }, example);
  if (ms < 0) throw new UserError({ key: 'errors.before1970', values: { text } }, example);
  return ms;
}

/**
 * A `when` value as the win-rate table's startDate/endDate: a plain date is
 * passed as typed (the service reads an end date as the whole day), anything
 * else as an ISO timestamp.
 */
export function whenDate(text: string | undefined, now: number, example: string): string | undefined {
  if (text === undefined) return undefined;
  const ms = whenMs(text, now, example);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : new Date(ms).toISOString();
}
