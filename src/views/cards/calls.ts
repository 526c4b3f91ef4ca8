/**
 * The `/calls` scorecard as views: a table of calls or of KOLs under its
 * summary line, and the picture's input. Words come from the catalogue;
 * figures from domain/score.ts.
 */
import type { Formats } from '../../i18n/format.ts';
import type { T } from '../../i18n/index.ts';
import {
  HIT_MULTIPLE,
  isRugged,
  sortCalls,
  type KolRow,
  type Scored as ScoredOf,
  type Summary as SummaryOf,
} from '../../domain/score.ts';
import type { Call } from '../../store/calls.ts';
import { CALLS_CHART_MAX_ROWS, type CallsChartInput } from '../charts/calls.ts';
import type { Column } from '../../domain/view.ts';
import { tokenKeyOf } from '../../domain/chains.ts';
import { multiple } from './callLine.ts';
import { rateOf, ticker } from './common.ts';

type Scored = ScoredOf<Call>;
type Summary = SummaryOf<Call>;

export interface CallsPage {
  readonly title: string;
  readonly summary: string;
  readonly columns: readonly Column[];
  readonly rows: readonly Readonly<Record<string, string>>[];
}

/** "12 calls · hit rate 42% (peak reached 2x) · median now 1.1x · best: $PEPE by @ansem, peak 3.1x" */
export function summaryLine(s: Summary, t: T, f: Formats): string {
  const parts = [t('calls.count', { count: s.calls })];
  if (s.hitRate !== null)
    parts.push(
      t('calls.hitRate', {
        rate: f.pct(s.hitRate * 100, 'percent', { decimals: 0 }),
        threshold: multiple(HIT_MULTIPLE, f),
      }),
    );
  if (s.median !== null) parts.push(t('calls.median', { multiple: multiple(s.median, f) }));
  if (!s.best && s.scored > 0) parts.push(t('calls.nothingMoved'));
  if (s.best)
    parts.push(
      t('calls.best', {
        symbol: ticker(s.best.call.token.symbol, s.best.call.token.name),
        kol: s.best.call.kols[0] ?? '?',
        peak: multiple(s.best.peak, f),
      }),
    );
  return parts.join(' · ');
}

/** A call's "now" in a row: the multiple without its percentage, "0x (rugged)" for a token worth nothing. */
export function nowText(s: Pick<Scored, 'now'>, f: Formats, t?: T): string {
  return t && isRugged(s) ? t('calls.rugged') : multiple(s.now, f).replace(/ \(.*\)$/, '');
}

export function callRows(
  scored: readonly Scored[],
  offset: number,
  f: Formats,
  now: number,
  live?: { readonly gone: ReadonlySet<string>; readonly t: T },
): Record<string, string>[] {
  const gone = (s: Scored) => live?.gone.has(tokenKeyOf(s.call.token.chain, s.call.token.address)) ?? false;
  return scored.map((s, i) => ({
    n: String(offset + i + 1),
    token: ticker(s.call.token.symbol, s.call.token.name),
    kol: s.call.kols.length > 1 ? `@${s.call.kols[0]} +${s.call.kols.length - 1}` : `@${s.call.kols[0] ?? '?'}`,
    when: f.timeAgo(s.call.at, now),
    // The upstream no longer knows the token: there is no "now" to show, only what was sampled.
    now: live && gone(s) ? live.t('calls.gone') : nowText(s, f, live?.t),
    peak: multiple(s.peak, f),
  }));
}

export function callColumns(t: T): Column[] {
  return [
    { key: 'n', label: '#', align: 'right' },
    { key: 'token', label: t('calls.colToken') },
    { key: 'kol', label: t('calls.colKol') },
    { key: 'when', label: t('calls.colWhen') },
    { key: 'now', label: t('calls.colNow'), align: 'right' },
    { key: 'peak', label: t('calls.colPeak'), align: 'right' },
  ];
}

export function kolRows(rows: readonly KolRow[], offset: number, f: Formats, t: T): Record<string, string>[] {
  return rows.map((r, i) => ({
    n: String(offset + i + 1),
    kol: `@${r.kol}`,
    calls: f.int(r.summary.calls),
    // The hit rate's base is the calls with a sample, which can be fewer than the calls.
    hit:
      r.summary.hitRate === null
        ? '-'
        : rateOf(f.pct(r.summary.hitRate * 100, 'percent', { decimals: 0 }), f.int(r.summary.scored), t),
    median: multiple(r.summary.median, f).replace(/ \(.*\)$/, ''),
  }));
}

export function kolColumns(t: T): Column[] {
  return [
    { key: 'n', label: '#', align: 'right' },
    { key: 'kol', label: t('calls.colKol') },
    { key: 'calls', label: t('calls.colCalls'), align: 'right' },
    { key: 'hit', label: t('calls.colHitRate'), align: 'right' },
    { key: 'median', label: t('calls.colMedian'), align: 'right' },
  ];
}

/** The picture's input: the period's calls with a known multiple, best first. */
export function callsChart(scored: readonly Scored[], s: Summary, title: string, t: T, f: Formats): CallsChartInput {
  const rows = sortCalls(
    scored.filter((x) => x.now !== null),
    'best',
  )
    .slice(0, CALLS_CHART_MAX_ROWS)
    .map((x) => ({
      label: `${ticker(x.call.token.symbol, x.call.token.name)} · @${x.call.kols[0] ?? '?'}`,
      peak: x.peak!,
      now: x.now!,
      figures: `${multiple(x.peak, f)} · ${nowText(x, f, t)}`,
    }));
  return {
    title,
    subtitle: summaryLine(s, t, f),
    rows,
    threshold: HIT_MULTIPLE,
    legend: { peak: t('calls.legendPeak'), now: t('calls.legendNow') },
  };
}
