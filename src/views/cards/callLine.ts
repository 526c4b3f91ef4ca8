/**
 * The line a follow-up edits into an alert, and the follow-up setting in
 * words. Kept apart from the scorecard so alert delivery loads no chart code.
 */
import type { Call } from '../../store/calls.ts';
import type { Formats } from '../../i18n/format.ts';
import type { T } from '../../i18n/index.ts';
/** A multiple as traders write it: "2.4x", "12x", a loss with its percentage "0.42x (-58%)". */
export function multiple(x: number | null, f: Formats): string {
  if (x === null || !Number.isFinite(x)) return '-';
  const digits = x >= 10 ? 0 : x >= 1 ? 1 : 2;
  const n = new Intl.NumberFormat(f.locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(x);
  return x < 1 ? `${n}x (${f.pct((x - 1) * 100, 'percent', { sign: true })})` : `${n}x`;
}

/** A follow-up point (minutes) as a short duration: "1h", "24h" → "1d". */
export function pointLabel(minutes: number, f: Formats): string {
  return f.age(minutes, 'minutes');
}

/** The line under an alert: "Since alert (6h): 2.4x · mcap $1.2M → $2.9M · peak 3.1x". Undefined before the first sample. */
export function followupLine(call: Call, t: T, f: Formats): string | undefined {
  const s = call.samples.at(-1);
  if (!s || call.marketCap === null || !(call.marketCap > 0)) return undefined;
  const peak = Math.max(call.peak ?? 0, s.marketCap, call.marketCap);
  const values = {
    point: pointLabel(s.point ?? Math.round((s.at - call.at) / 60_000), f),
    multiple: multiple(s.marketCap / call.marketCap, f),
    from: f.usd(call.marketCap),
    to: f.usd(s.marketCap),
    peak: multiple(peak / call.marketCap, f),
  };
  return s.late ? t('calls.sinceAlertLate', values) : t('calls.sinceAlert', values);
}

/** "Follow-ups: 1h, 6h, 1d after each alert, edited into it", or "Follow-ups: off". */
export function followupsSetting(points: readonly number[], t: T, f: Formats): string {
  return points.length
    ? t('calls.followupsOn', { points: points.map((m) => pointLabel(m, f)).join(', ') })
    : t('calls.followupsOff');
}
