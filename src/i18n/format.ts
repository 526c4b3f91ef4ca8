/**
 * Numbers, percentages, durations and times for one locale.
 *
 * Market caps, prices and counts (the one decision, for every language): the
 * crypto convention, "$" in front and K/M/B/T after, as traders write them in
 * every community (CJK compact notation groups by 10^4, 万/亿, 만/억, and
 * mixing that with K/M/B in one card confuses). Only the decimal and group
 * separators follow the locale, so a card reads alike with its percentages:
 * ru "$1,23M · +12,3 %". The digits come from src/i18n/english.ts (exact
 * decimal arithmetic); English is that module unchanged, byte for byte.
 *
 * Percentages, durations and relative times go through Intl (sign and "%"
 * placement, unit words). Calendar dates stay ISO (2024-03-05) everywhere.
 * Tickers, addresses, handles and URLs never pass through here.
 */
import * as en from './english.ts';
import { durationParts, MISSING, toNumber, type AgeUnit, type Num, type PctOptions } from './english.ts';
import type { Locale } from './locales.ts';

type When = string | number | Date | null | undefined;

export interface Formats {
  readonly locale: Locale;
  /** "$1.23M", "$0.0₄1234"; ru "$1,23M". */
  usd(value: Num): string;
  /** Counts: "1.2K"; ru "1,2K". */
  compact(value: Num): string;
  /** "12,345"; ru "12 345". */
  int(value: Num): string;
  /** One decimal: "82.4"; ru "82,4". */
  score(value: Num): string;
  /** "+12.3%"; ru "+12,3 %", tr "+%12,3". */
  pct(value: Num, input: 'fraction' | 'percent', opts?: PctOptions): string;
  /** "3d 4h"; ru "3 д. 4 ч", zh "3天4小时". */
  age(value: Num, unit: AgeUnit): string;
  /** "5m ago"; ru "5 мин. назад", ko "5분 전". */
  timeAgo(when: When, now?: number | Date): string;
  dateShort(when: When): string;
}

const UNIT_SECONDS: Record<AgeUnit, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };
const RTF_UNIT = {
  years: 'year',
  months: 'month',
  days: 'day',
  hours: 'hour',
  minutes: 'minute',
  seconds: 'second',
} as const;

function toMillis(when: When): number | null {
  if (when === null || when === undefined || when === '') return null;
  const ms = when instanceof Date ? when.getTime() : typeof when === 'number' ? when : Date.parse(when);
  return Number.isFinite(ms) ? ms : null;
}

function localised(locale: Locale): Formats {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  // The English text uses ',' and '.' only as separators: swap both in one pass.
  const seps = (s: string): string => s.replace(/[.,]/g, (c) => (c === '.' ? decimal : group));
  // Years and months in words: narrow ones read as minutes in several languages
  // (es "1m", tr "1a" beside a "5m" window); the small units stay narrow.
  const duration = new Intl.DurationFormat(locale, {
    style: 'narrow',
    years: 'long',
    months: 'long',
    yearsDisplay: 'auto',
    monthsDisplay: 'auto',
  });
  // DurationFormat hides zero units: a zero age would be empty without this one.
  const zero = new Intl.DurationFormat(locale, { style: 'narrow', secondsDisplay: 'always' }).format({ seconds: 0 });
  const relative = new Intl.RelativeTimeFormat(locale, { style: 'short', numeric: 'auto' });
  const pctCache = new Map<string, Intl.NumberFormat>();
  const pctFormat = (sign: boolean, d: number): Intl.NumberFormat => {
    const key = `${sign}:${d}`;
    let f = pctCache.get(key);
    if (!f) {
      f = new Intl.NumberFormat(locale, {
        style: 'percent',
        signDisplay: sign ? 'exceptZero' : 'auto',
        minimumFractionDigits: d,
        maximumFractionDigits: d,
      });
      pctCache.set(key, f);
    }
    return f;
  };
  return {
    locale,
    usd: (v) => seps(en.usd(v)),
    compact: (v) => seps(en.compact(v)),
    int: (v) => seps(en.int(v)),
    score: (v) => seps(en.score(v)),
    pct(value, input, opts = {}) {
      const n = toNumber(value);
      if (n === null || !Number.isFinite(n)) return MISSING;
      const percent = input === 'fraction' ? n * 100 : n;
      const d = Math.max(0, opts.decimals ?? (Math.abs(Math.round(percent * 10) / 10) >= 1000 ? 0 : 1));
      const out = pctFormat(opts.sign ?? false, d).format(percent / 100);
      // -0.04% rounds to "-0.0%": show it as zero, as the English format does.
      return /[1-9]/.test(out) ? out : pctFormat(false, d).format(0);
    },
    age(value, unit) {
      const n = toNumber(value);
      if (n === null || !Number.isFinite(n) || n < 0) return MISSING;
      const p = durationParts(n * UNIT_SECONDS[unit], 2);
      return p.length ? duration.format(Object.fromEntries(p.map((x) => [x.unit, x.n]))) : zero;
    },
    timeAgo(when, now = Date.now()) {
      const t = toMillis(when);
      const n = toMillis(now);
      if (t === null || n === null) return MISSING;
      const diff = (n - t) / 1000;
      if (Math.abs(diff) < 60) return relative.format(0, 'second');
      const [p] = durationParts(Math.abs(diff), 1);
      return relative.format(diff > 0 ? -p!.n : p!.n, RTF_UNIT[p!.unit]);
    },
    dateShort: en.dateShort,
  };
}

const ENGLISH: Formats = {
  locale: 'en',
  usd: en.usd,
  compact: en.compact,
  int: en.int,
  score: en.score,
  pct: en.pct,
  age: en.age,
  timeAgo: en.timeAgo,
  dateShort: en.dateShort,
};

const cache = new Map<Locale, Formats>([['en', ENGLISH]]);

/** The formats of one locale (built once per locale). */
export function formats(locale: Locale): Formats {
  let f = cache.get(locale);
  if (!f) {
    f = localised(locale);
    cache.set(locale, f);
  }
  return f;
}
