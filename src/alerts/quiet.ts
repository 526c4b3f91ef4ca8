/**
 * Quiet hours: a daily local-time window in which a destination's alerts are
 * held (in the outbox, durably) and summarised in one message when it ends.
 */
import { localTime, zonedInstant } from '../domain/zoned.ts';
import type { QuietHours } from '../store/subscriptions.ts';

/** When the quiet hours around `now` end, or undefined when `now` is outside them. */
export function quietUntil(q: QuietHours, now: number): number | undefined {
  const l = localTime(now, q.tz);
  const m = l.hour * 60 + l.minute;
  const wraps = q.from > q.to;
  const inside = wraps ? m >= q.from || m < q.to : m >= q.from && m < q.to;
  if (!inside) return undefined;
  const nextDay = wraps && m >= q.from ? 1 : 0;
  return zonedInstant(l.year, l.month, l.day + nextDay, Math.floor(q.to / 60), q.to % 60, q.tz);
}
