/**
 * A channel's calls: one row per call, best first, with bars of the peak and
 * the current multiple on a log scale around 1x, the hit threshold dashed, and
 * the summary figures under the title. One row per call and fixed columns for
 * the names and figures: no two labels can meet.
 */
import { header, line, rect, svgDocument, textEl } from './svg.ts';
import { textWidth } from './font.ts';
import { fitText, svgText } from './text.ts';
import { legibleSize, THEME } from './theme.ts';

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

// Narrow, each call on two lines (names and figures, then its bars): a phone
// shows the picture 390 px wide, where every word must stay 11 px tall (theme.ts).
const W = 600;
const TEXT = legibleSize(W);
const ROW_H = 58;
const PLOT = { left: 28, right: W - 28 };
const TICKS = [0.01, 0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 100, 1000];

export function callsSvg(input: CallsChartInput): string {
  // Best first whatever order the caller kept (the store's is by time): peak, then now.
  const rows = [...input.rows].sort((a, b) => b.peak - a.peak || b.now - a.now).slice(0, CALLS_CHART_MAX_ROWS);
  const values = rows.flatMap((r) => [r.peak, r.now]).filter((v) => v > 0 && Number.isFinite(v));
  const lo = Math.max(0.01, Math.min(0.5, ...values) / 1.2);
  const hi = Math.min(1000, Math.max(input.threshold * 1.5, ...values) * 1.2);
  const xOf = (v: number) =>
    PLOT.left +
    ((Math.log(Math.min(hi, Math.max(lo, v))) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) *
      (PLOT.right - PLOT.left);
  const head = header(W, input.title, input.subtitle);
  const body: string[] = head.body;

  // Legend under the title block.
  const legendY = head.bottom + 26;
  const peakW = textWidth(fitText(input.legend.peak, 200, TEXT), TEXT);
  body.push(
    rect(PLOT.left, legendY - 13, 16, 12, THEME.neutral),
    textEl(PLOT.left + 22, legendY, svgText(input.legend.peak, 200, TEXT), { size: TEXT, fill: THEME.muted }),
    rect(PLOT.left + 22 + peakW + 24, legendY - 10, 16, 7, THEME.up),
    textEl(PLOT.left + 22 + peakW + 46, legendY, svgText(input.legend.now, 200, TEXT), {
      size: TEXT,
      fill: THEME.muted,
    }),
  );

  // The figures column's head: which of the two multiples is which.
  body.push(
    textEl(PLOT.right, legendY, svgText(`${input.legend.peak} · ${input.legend.now}`, 220, TEXT), {
      size: TEXT,
      fill: THEME.muted,
      anchor: 'end',
    }),
  );

  const top = legendY + 18;
  const bottom = top + Math.max(1, rows.length) * ROW_H;
  const H = bottom + 44;
  for (const t of TICKS) {
    if (t < lo || t > hi) continue;
    const x = xOf(t);
    const dashed = t === input.threshold;
    body.push(
      line(
        x,
        top,
        x,
        bottom,
        t === 1 ? THEME.axis : dashed ? THEME.accent : THEME.grid,
        t === 1 ? 1.5 : 1,
        dashed ? 'stroke-dasharray="6 5"' : '',
      ),
    );
    body.push(
      textEl(x, bottom + 28, `${t}x`, {
        size: TEXT,
        fill: dashed ? THEME.accent : THEME.muted,
        anchor: 'middle',
      }),
    );
  }
  if (!rows.length) body.push(textEl(PLOT.left, top + 30, '—', { size: TEXT, fill: THEME.faint }));

  const one = xOf(1);
  rows.forEach((r, i) => {
    const y = top + i * ROW_H;
    const figures = svgText(r.figures, 200, TEXT);
    const figuresW = textWidth(fitText(r.figures, 200, TEXT), TEXT);
    body.push(
      textEl(PLOT.left, y + TEXT + 4, svgText(r.label, PLOT.right - PLOT.left - figuresW - 16, TEXT), {
        size: TEXT,
        halo: true,
      }),
      textEl(PLOT.right, y + TEXT + 4, figures, { size: TEXT, fill: THEME.muted, anchor: 'end', halo: true }),
    );
    const barY = y + TEXT + 12;
    const peakX = xOf(r.peak);
    body.push(rect(Math.min(one, peakX), barY, Math.abs(peakX - one), 20, THEME.neutral, 'opacity="0.55"'));
    const nowX = xOf(r.now);
    body.push(rect(Math.min(one, nowX), barY + 6, Math.abs(nowX - one), 8, r.now >= 1 ? THEME.up : THEME.down));
    // A flat call has bars of no length: a mark on the 1x line says it is there and went nowhere.
    if (Math.abs(peakX - one) < 3 && Math.abs(nowX - one) < 3)
      body.push(rect(one - 4, barY, 8, 20, THEME.neutral, 'rx="2"'));
  });
  body.push(line(PLOT.left, bottom, PLOT.right, bottom, THEME.axis, 1));
  return svgDocument(W, Math.round(H), body);
}
