/**
 * When a destination's digest is due, in its own time zone: the latest
 * scheduled instant at or before now, the period it covers and its key. The
 * key names the period by its local date, so a daylight-saving change (a 23 or
 * 25 hour day) still gives one digest per day.
 */
import { localTime, zonedInstant } from '../../domain/zoned.ts';
import type { DigestSettings } from '../../store/subscriptions.ts';

export interface DigestPeriod {
  /** `daily:2026-03-29`, `weekly:2026-03-30`: one digest per (destination, key). */
  readonly key: string;
  /** When it is scheduled. */
  readonly at: number;
  /** The start of the period it covers (the previous scheduled instant). */
  readonly from: number;
}

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

export function latestPeriod(s: DigestSettings, now: number): DigestPeriod {
  const l = localTime(now, s.tz);
  const h = Math.floor(s.at / 60);
  const min = s.at % 60;
  const step = s.period === 'daily' ? 1 : 7;
  // Days back to the latest scheduled day: today (if its time has come) or earlier.
  let back = s.period === 'daily' ? 0 : (l.weekday - s.day + 7) % 7;
  let at = zonedInstant(l.year, l.month, l.day - back, h, min, s.tz);
  if (at > now) {
    back += step;
    at = zonedInstant(l.year, l.month, l.day - back, h, min, s.tz);
  }
  const from = zonedInstant(l.year, l.month, l.day - back - step, h, min, s.tz);
  return { key: `${s.period}:${iso(l.year, l.month, l.day - back)}`, at, from };
}

/** The next scheduled instant after now (for /digest's answer and the node-cron expression). */
export function cronExpression(s: DigestSettings): string {
  return `${s.at % 60} ${Math.floor(s.at / 60)} * * ${s.period === 'daily' ? '*' : s.day}`;
}
