/**
 * Number and date formatting for every command, in one place so a price looks
 * the same in a card, a table and an alert.
 *
 * Inputs are `number | string | null | undefined` because the API sends many
 * values as decimal strings ("0.000000012345"). Those are formatted from their
 * digits with exact decimal arithmetic, so no float noise (0.30000000000000004)
 * and no precision loss on 20-digit values ever reaches a user. Anything
 * missing or unparseable renders as "-".
 *
 * Tiny prices use the subscript-zero form common on DEX screens:
 * 0.00001234 -> "$0.0₄1234" (four zeros after the point, then 4 significant digits).
 */

export type Num = number | string | bigint | null | undefined;

export const MISSING = '-';

/** value = m × 10^e, sign kept apart so -0 and rounding are simple. */
interface Dec {
  readonly neg: boolean;
  readonly m: bigint;
  readonly e: number;
}

const DEC_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

function parse(value: Num): Dec | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return { neg: value < 0n, m: value < 0n ? -value : value, e: 0 };
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  // String(number) is the shortest round-trip form, so 0.1 stays "0.1".
  const text = (typeof value === 'number' ? String(value) : value).trim().replace(/_|,/g, '');
  const match = DEC_RE.exec(text);
  if (!match) return null;
  const [, sign, int = '', frac = '', exp = '0'] = match;
  if (int === '' && frac === '') return null;
  const e = Number(exp) - frac.length;
  if (!Number.isSafeInteger(e) || Math.abs(e) > 400) return null;
  const m = BigInt(int + frac || '0');
  return { neg: sign === '-' && m !== 0n, m, e };
}

const pow10 = (k: number): bigint => 10n ** BigInt(k);

/** Rounds half away from zero to `d` decimals (d may be negative: tens, hundreds). */
function round(x: Dec, d: number): Dec {
  if (-x.e <= d) return x;
  const k = -x.e - d;
  const div = pow10(k);
  let q = x.m / div;
  if ((x.m % div) * 2n >= div) q += 1n;
  return { neg: x.neg && q !== 0n, m: q, e: -d };
}

const digitCount = (m: bigint): number => (m === 0n ? 1 : m.toString().length);

/** Exponent of the most significant digit: 123.4 -> 2, 0.0012 -> -3. */
const magnitude = (x: Dec): number => digitCount(x.m) - 1 + x.e;

const isZero = (x: Dec): boolean => x.m === 0n;

function compareAbs(x: Dec, y: Dec): number {
  const e = Math.min(x.e, y.e);
  const a = x.m * pow10(x.e - e);
  const b = y.m * pow10(y.e - e);
  return a < b ? -1 : a > b ? 1 : 0;
}

const ONE: Dec = { neg: false, m: 1n, e: 0 };
const THOUSAND: Dec = { neg: false, m: 1000n, e: 0 };
const shift = (x: Dec, k: number): Dec => ({ ...x, e: x.e + k });
const abs = (x: Dec): Dec => ({ ...x, neg: false });

/** Thousands separators. A loop: the usual lookahead regex rescans the rest of the digits at each one. */
function group(int: string): string {
  let out = int.slice(0, ((int.length - 1) % 3) + 1);
  for (let i = out.length; i < int.length; i += 3) out += `,${int.slice(i, i + 3)}`;
  return out;
}

/** Without trailing zeros; `/0+$/` would be retried from every zero of a long run. */
function dropTrailingZeros(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === '0') end--;
  return s.slice(0, end);
}

/** Unsigned text with exactly `d` decimals (d >= 0), grouped thousands; optionally trailing zeros trimmed. */
function fixed(x: Dec, d: number, trim = false): string {
  const r = round(x, d);
  const digits = (r.m * pow10(r.e + d)).toString().padStart(d + 1, '0');
  const int = digits.slice(0, digits.length - d);
  let frac = digits.slice(digits.length - d);
  if (trim) frac = dropTrailingZeros(frac);
  return group(int) + (frac ? `.${frac}` : '');
}

const SUFFIXES = ['', 'K', 'M', 'B', 'T'] as const;

/** 1234567 -> "1.23M"; `decimals(scaled)` picks the precision for the scaled value. */
function scaled(x: Dec, decimals: (s: Dec) => number): string {
  let unit = Math.min(Math.floor(Math.max(magnitude(x), 0) / 3), SUFFIXES.length - 1);
  for (;;) {
    const s = shift(abs(x), -3 * unit);
    const d = decimals(s);
    const rounded = round(s, d);
    if (unit < SUFFIXES.length - 1 && compareAbs(rounded, THOUSAND) >= 0) {
      unit += 1;
      continue;
    }
    return fixed(rounded, d, true) + SUFFIXES[unit];
  }
}

const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
const subscript = (n: number): string => [...String(n)].map((c) => SUBSCRIPT[Number(c)]).join('');

function smallUsd(a: Dec): string {
  const r = round(a, 3 - magnitude(a));
  if (compareAbs(r, ONE) >= 0) return '1.00';
  const zeros = -magnitude(r) - 1;
  // Cents at least, as for dollar amounts: $0.30 rather than $0.3.
  if (zeros < 4)
    return fixed(r, Math.max(-r.e, 0), true)
      .replace(/^0\.(\d)$/, '0.$10')
      .replace(/^0$/, '0.00');
  const sig = dropTrailingZeros(r.m.toString());
  return `0.0${subscript(zeros)}${sig}`;
}

/**
 * US dollars: "$1.23M", "$950.2K", "$12.50", "$0.5123", "$0.0₄1234"; negatives "-$3.40".
 */
export function usd(value: Num): string {
  const x = parse(value);
  if (!x) return MISSING;
  if (isZero(x)) return '$0';
  const a = abs(x);
  let body: string;
  if (compareAbs(a, ONE) < 0) body = smallUsd(a);
  else if (compareAbs(round(a, 2), THOUSAND) < 0) body = fixed(a, 2);
  else body = scaled(a, (s) => Math.max(0, Math.min(2, 3 - magnitude(s))));
  if (body === '0' || body === '0.00') return '$0';
  return (x.neg ? '-$' : '$') + body;
}

/** Counts: "950", "1.2K", "123K", "3.4M". */
export function compact(value: Num): string {
  const x = parse(value);
  if (!x) return MISSING;
  const body = scaled(x, (s) => (magnitude(s) >= 2 ? 0 : 1));
  return (x.neg && body !== '0' ? '-' : '') + body;
}

/** Whole number with thousands separators: "12,345". */
export function int(value: Num): string {
  const x = parse(value);
  if (!x) return MISSING;
  const body = fixed(x, 0);
  return (x.neg && body !== '0' ? '-' : '') + body;
}

/** A score with one decimal: "82.4". */
export function score(value: Num): string {
  const x = parse(value);
  if (!x) return MISSING;
  const body = fixed(x, 1);
  return (x.neg && body !== '0.0' ? '-' : '') + body;
}

export interface PctOptions {
  /** Prefix "+" on positive values (for changes). */
  readonly sign?: boolean;
  /** Decimals; default 1, or 0 from 1,000% up. */
  readonly decimals?: number;
}

/**
 * A percentage. `input` says what the number is: `'fraction'` (0.123 -> "12.3%")
 * or `'percent'` (12.3 -> "12.3%"): the API uses both, so there is no default.
 */
export function pct(value: Num, input: 'fraction' | 'percent', opts: PctOptions = {}): string {
  const parsed = parse(value);
  if (!parsed) return MISSING;
  const x = input === 'fraction' ? shift(parsed, 2) : parsed;
  const d = Math.max(0, opts.decimals ?? (magnitude(round(x, 1)) >= 3 ? 0 : 1));
  let body = fixed(x, d);
  // Near a bound a rounded figure lies: a 99.99% loss is not a total one, a 99.99%
  // win rate not a perfect one. Keep the digits it takes to tell them apart.
  const whole = (b: string) => /^100(\.0*)?$/.test(b);
  if (whole(body) && Number(fixed(x, 12)) < 100) {
    for (let more = d + 1; whole(body) && more <= 12; more++) body = fixed(x, more, true);
  }
  const zero = /^[0.,]*$/.test(body);
  const sign = zero ? '' : x.neg ? '-' : opts.sign ? '+' : '';
  return `${sign}${body}%`;
}

export type AgeUnit = 'seconds' | 'minutes' | 'hours' | 'days';

const UNIT_SECONDS: Record<AgeUnit, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };
const DAY = 86400;
// A month of 365/12 days keeps 12 months equal to a year, so "1y 12mo" cannot happen.
const PARTS = [
  ['y', 365 * DAY],
  ['mo', (365 * DAY) / 12],
  ['d', DAY],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
] as const;

export function toNumber(value: Num): number | null {
  const x = parse(value);
  return x ? Number(`${x.neg ? '-' : ''}${x.m.toString()}e${x.e}`) : null;
}

export type DurationUnit = 'years' | 'months' | 'days' | 'hours' | 'minutes' | 'seconds';
const UNIT_NAMES: readonly DurationUnit[] = ['years', 'months', 'days', 'hours', 'minutes', 'seconds'];

/**
 * The largest non-zero unit and, when `count` is 2, the next unit if non-zero
 * (3d 4h, never 3d 12s); empty for less than a second. Shared with the
 * localised formats (src/i18n/format.ts), so every language rounds alike.
 */
export function durationParts(totalSeconds: number, count: 1 | 2): { unit: DurationUnit; n: number }[] {
  let rest = Math.floor(totalSeconds);
  const amounts = PARTS.map(([, size]) => {
    const n = Math.floor(rest / size);
    rest -= n * size;
    return n;
  });
  const first = amounts.findIndex((n) => n > 0);
  if (first < 0) return [];
  const out = [{ unit: UNIT_NAMES[first]!, n: amounts[first]! }];
  const next = amounts[first + 1];
  if (count === 2 && next) out.push({ unit: UNIT_NAMES[first + 1]!, n: next });
  return out;
}

function ageParts(totalSeconds: number, count: 1 | 2): string {
  const parts = durationParts(totalSeconds, count);
  if (parts.length === 0) return '0s';
  return parts.map((p) => `${p.n}${PARTS[UNIT_NAMES.indexOf(p.unit)]![0]}`).join(' ');
}

/** A duration: "3d 4h", "45m", "2y 3mo". `unit` is the unit of `value`. */
export function age(value: Num, unit: AgeUnit): string {
  const n = toNumber(value);
  if (n === null || !Number.isFinite(n) || n < 0) return MISSING;
  return ageParts(n * UNIT_SECONDS[unit], 2);
}

type When = string | number | Date | null | undefined;

function toMillis(when: When): number | null {
  if (when === null || when === undefined || when === '') return null;
  const ms = when instanceof Date ? when.getTime() : typeof when === 'number' ? when : Date.parse(when);
  return Number.isFinite(ms) ? ms : null;
}

/** "5m ago", "3h ago", "in 2d"; within a minute either way "just now". */
export function timeAgo(when: When, now: number | Date = Date.now()): string {
  const t = toMillis(when);
  const n = toMillis(now);
  if (t === null || n === null) return MISSING;
  const diff = (n - t) / 1000;
  if (Math.abs(diff) < 60) return 'just now';
  const text = ageParts(Math.abs(diff), 1);
  return diff > 0 ? `${text} ago` : `in ${text}`;
}

/** UTC calendar date: "2024-03-05". */
export function dateShort(when: When): string {
  const t = toMillis(when);
  if (t === null) return MISSING;
  const iso = new Date(t).toISOString();
  return iso.slice(0, 10);
}
