/**
 * A channel's calls: one row per call, best first, with bars of the peak and
 * the current multiple on a log scale around 1x, the hit threshold dashed, and
 * the summary figures under the title. One row per call and fixed columns for
 * the names and figures: no two labels can meet.
 */
import { header, line, rect, svgDocument, textEl } from './svg.ts';
import { svgText } from './text.ts';
import { FONT_SIZE, THEME } from './theme.ts';

export interface CallsChartRow {
  /** "SYMBOL · @kol" */
  readonly label: string;
  readonly peak: number;
  readonly now: number;
  /** The figures beside the bars, already formatted in the reader's language ("3.1x · 2.4x"). */
  readonly figures: string;
}

export interface CallsChartInput {
  readonly title: string;
  /** The summary: calls, hit rate, median, best. */
  readonly subtitle: string;
  readonly rows: readonly CallsChartRow[];
  /** The hit threshold (a multiple), drawn dashed. */
  readonly threshold: number;
  readonly legend: { readonly peak: string; readonly now: string };
}

/** Rows drawn at most: more would not read on a phone. */
export const CALLS_CHART_MAX_ROWS = 15;

const W = 1000;
const ROW_H = 30;
const TOP = 112;
const LABEL_X = 28;
const LABEL_W = 230;
const PLOT = { left: 270, right: 800 };
const FIGURES_X = 815;
const TICKS = [0.01, 0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 100, 1000];

export function callsSvg(input: CallsChartInput): string {
  const rows = input.rows.slice(0, CALLS_CHART_MAX_ROWS);
  const values = rows.flatMap((r) => [r.peak, r.now]).filter((v) => v > 0 && Number.isFinite(v));
  const lo = Math.max(0.01, Math.min(0.5, ...values) / 1.2);
  const hi = Math.min(1000, Math.max(input.threshold * 1.5, ...values) * 1.2);
  const xOf = (v: number) =>
    PLOT.left +
    ((Math.log(Math.min(hi, Math.max(lo, v))) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) *
      (PLOT.right - PLOT.left);
  const bottom = TOP + Math.max(1, rows.length) * ROW_H;
  const H = bottom + 56;
  const body: string[] = header(W, input.title, input.subtitle);

  // Legend, right of the title block's second line.
  body.push(
    rect(PLOT.left, 82, 14, 10, THEME.neutral),
    textEl(PLOT.left + 20, 91, svgText(input.legend.peak, 120, FONT_SIZE.axis), {
      size: FONT_SIZE.axis,
      fill: THEME.muted,
    }),
  );
  body.push(
    rect(PLOT.left + 150, 84, 14, 6, THEME.up),
    textEl(PLOT.left + 170, 91, svgText(input.legend.now, 120, FONT_SIZE.axis), {
      size: FONT_SIZE.axis,
      fill: THEME.muted,
    }),
  );

  for (const t of TICKS) {
    if (t < lo || t > hi) continue;
    const x = xOf(t);
    const dashed = t === input.threshold;
    body.push(
      line(
        x,
        TOP - 6,
        x,
        bottom,
        t === 1 ? THEME.axis : dashed ? THEME.accent : THEME.grid,
        t === 1 ? 1.5 : 1,
        dashed ? 'stroke-dasharray="6 5"' : '',
      ),
    );
    body.push(
      textEl(x, bottom + 20, `${t}x`, {
        size: FONT_SIZE.axis,
        fill: dashed ? THEME.accent : THEME.muted,
        anchor: 'middle',
      }),
    );
  }
  if (!rows.length) body.push(textEl(PLOT.left, TOP + 20, '—', { size: FONT_SIZE.label, fill: THEME.faint }));

  const one = xOf(1);
  rows.forEach((r, i) => {
    const y = TOP + i * ROW_H;
    const mid = y + ROW_H / 2;
    body.push(textEl(LABEL_X, mid + 5, svgText(r.label, LABEL_W, FONT_SIZE.label), { size: FONT_SIZE.label }));
    const peakX = xOf(r.peak);
    body.push(rect(Math.min(one, peakX), y + 5, Math.abs(peakX - one), ROW_H - 10, THEME.neutral, 'opacity="0.55"'));
    const nowX = xOf(r.now);
    body.push(rect(Math.min(one, nowX), mid - 4, Math.abs(nowX - one), 8, r.now >= 1 ? THEME.up : THEME.down));
    body.push(
      textEl(FIGURES_X, mid + 5, svgText(r.figures, W - FIGURES_X - 16, FONT_SIZE.value), {
        size: FONT_SIZE.value,
        fill: THEME.muted,
      }),
    );
  });
  body.push(line(PLOT.left, bottom, PLOT.right, bottom, THEME.axis, 1));
  return svgDocument(W, Math.round(H), body);
}
