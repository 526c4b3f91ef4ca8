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

/**
 * The lines over an alert, one per follow-up point answered so far, each kept as later points
 * come ("Since alert (1h): 1.4x · mcap $1.2M → $1.7M", then 6h, 24h), and the highest market
 * cap the bot sampled (follow-ups and the watcher's later sightings: not a traded high).
 * Undefined before the first sample.
 */
export function followupLine(call: Call, t: T, f: Formats): string | undefined {
  const base = call.marketCap;
  if (!call.samples.length || base === null || !(base > 0)) return undefined;
  const lines = call.samples.map((s) => {
    const values = {
      point: pointLabel(s.point ?? Math.round((s.at - call.at) / 60_000), f),
      multiple: multiple(s.marketCap / base, f),
      from: f.usd(base),
      to: f.usd(s.marketCap),
    };
    return s.late ? t('calls.sinceAlertLate', values) : t('calls.sinceAlert', values);
  });
  const peak = Math.max(call.peak ?? 0, base, ...call.samples.map((s) => s.marketCap));
  lines.push(t('calls.peakSampled', { peak: multiple(peak / base, f), cap: f.usd(peak) }));
  return lines.join('\n');
}

/** "Follow-ups: 1h, 6h, 1d after each alert, edited into it", or "Follow-ups: off". */
export function followupsSetting(points: readonly number[], t: T, f: Formats): string {
  return points.length
    ? t('calls.followupsOn', { points: points.map((m) => pointLabel(m, f)).join(', ') })
    : t('calls.followupsOff');
}
