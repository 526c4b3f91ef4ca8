/**
 * Price after a shill relative to the price at the shill, one line per token,
 * on a log scale (a halving and a doubling are the same distance from 0%),
 * clamped to -99%..+9,900% so one moonshot does not flatten the rest.
 */
import { decimalRatio } from './decimal.ts';
import { signedPercent } from './format.ts';
import { circle, header, line, pathThrough, rect, svgDocument, textEl } from './svg.ts';
import { textWidth } from './font.ts';
import { drawableText, escapeXml, fitText } from './text.ts';
import { FONT_SIZE, SERIES_COLOURS, THEME } from './theme.ts';
import { WINDOWS } from './windows.ts';
import type { Window } from './windows.ts';
import { fill as fillIn, type ChartWords } from './words.ts';

export interface MomentumToken {
  readonly symbol: string;
  /** Price at the shill, a decimal string (`price_init`). */
  readonly priceInit: string;
  /** Price after each window (`price_after5m`..; the API's `price_after1d` goes under '24h'). */
  readonly after: Partial<Record<Window, string | null>>;
}

export interface MomentumInput {
  readonly title: string;
  readonly subtitle?: string;
  readonly tokens: readonly MomentumToken[];
  /** Lines drawn, in input order; at most 8 (one per distinct colour). Default 8. */
  readonly maxTokens?: number;
  /** The chart's own words in the reader's language; English when absent. */
  readonly words?: ChartWords;
}

const W = 1000;
const H = 600;
const MIN_RATIO = 0.01;
const MAX_RATIO = 100;
const TICKS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10, 20, 50, 100];

export interface MomentumSeries {
  readonly symbol: string;
  /** Price ratio to the shill price per window (1 = unchanged), null where unknown. */
  readonly ratios: readonly (number | null)[];
}

/** Ratios per token, skipping tokens whose start price is unreadable or zero. */
export function momentumSeries(
  tokens: readonly MomentumToken[],
  max = SERIES_COLOURS.length,
): { series: MomentumSeries[]; skipped: number } {
  const series: MomentumSeries[] = [];
  let skipped = 0;
  for (const t of tokens) {
    if (series.length >= Math.min(max, SERIES_COLOURS.length)) break;
    const ratios = WINDOWS.map((w) => {
      const p = t.after[w];
      return p === null || p === undefined ? null : decimalRatio(p, t.priceInit);
    });
    if (decimalRatio('1', t.priceInit) === null) skipped++;
    else series.push({ symbol: t.symbol, ratios });
  }
  return { series, skipped };
}

function domain(ratios: readonly number[]): { lo: number; hi: number; ticks: number[] } {
  const clamp = (r: number): number => Math.min(MAX_RATIO, Math.max(MIN_RATIO, r));
  const lo = clamp(Math.min(0.8, ...ratios));
  const hi = clamp(Math.max(1.25, ...ratios));
  const loT = [...TICKS].reverse().find((t) => t <= lo) ?? MIN_RATIO;
  const hiT = TICKS.find((t) => t >= hi) ?? MAX_RATIO;
  let ticks = TICKS.filter((t) => t >= loT && t <= hiT);
  for (let k = 2; ticks.length > 9; k++)
    ticks = TICKS.filter((t, i) => t >= loT && t <= hiT && (t === 1 || t === loT || t === hiT || i % k === 0));
  return { lo: loT, hi: hiT, ticks };
}

const changeLabel = (ratio: number): string => signedPercent((ratio - 1) * 100);

/** Axis ticks are round ratios: whole percents read better there (+50%, -30%, +9,900%). */
function tickLabel(ratio: number): string {
  const p = Math.round((ratio - 1) * 100);
  return `${p > 0 ? '+' : p < 0 ? '-' : ''}${Math.abs(p).toLocaleString('en-US')}%`;
}

export function momentumSvg(input: MomentumInput): string {
  const { series, skipped } = momentumSeries(input.tokens, input.maxTokens);
  const all = series.flatMap((s) => s.ratios.filter((r): r is number => r !== null && r > 0));
  const { lo, hi, ticks } = domain(all);
  const plot = { left: 92, top: 100, right: 740, bottom: 520 };
  const cols = [input.words?.shill ?? 'shill', ...WINDOWS];
  const xOf = (i: number): number => plot.left + 18 + (i * (plot.right - plot.left - 36)) / (cols.length - 1);
  const yOf = (r: number): number => {
    const t = (Math.log(Math.min(hi, Math.max(lo, r))) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
    return plot.bottom - t * (plot.bottom - plot.top);
  };

  const w = input.words;
  const note =
    skipped === 0
      ? ''
      : w
        ? fillIn(w.skipped, { n: skipped }, w.locale)
        : ` · ${skipped} token${skipped === 1 ? '' : 's'} without a start price left out`;
  const body: string[] = header(
    W,
    input.title,
    (input.subtitle ?? w?.momentumSubtitle ?? 'Price change since the shill, log scale') + note,
  );

  for (const t of ticks) {
    const y = yOf(t);
    body.push(
      line(
        plot.left,
        y,
        plot.right,
        y,
        t === 1 ? THEME.axis : THEME.grid,
        t === 1 ? 1.5 : 1,
        t === 1 ? 'stroke-dasharray="6 5"' : '',
      ),
    );
    body.push(
      textEl(plot.left - 10, y + 4, escapeXml(tickLabel(t)), {
        size: FONT_SIZE.axis,
        fill: THEME.muted,
        anchor: 'end',
      }),
    );
  }
  cols.forEach((c, i) => {
    body.push(textEl(xOf(i), plot.bottom + 24, c, { size: FONT_SIZE.axis, fill: THEME.muted, anchor: 'middle' }));
  });

  series.forEach((s, k) => {
    const colour = SERIES_COLOURS[k]!;
    const pts = [1, ...s.ratios].map((r, i) =>
      r === null ? null : { x: xOf(i), y: yOf(r <= 0 ? MIN_RATIO : r), clamped: r < lo || r > hi || r <= 0 },
    );
    body.push(
      `<path d="${pathThrough(pts)}" fill="none" stroke="${colour}" stroke-width="2.5" stroke-linejoin="round" stroke-opacity="0.9"/>`,
    );
    for (const p of pts.slice(1)) {
      if (!p) continue;
      // Clamped points are hollow: the true value lies beyond the axis.
      body.push(
        p.clamped
          ? circle(p.x, p.y, 5, THEME.background, `stroke="${colour}" stroke-width="2"`)
          : circle(p.x, p.y, 3.2, colour),
      );
    }
  });

  if (series.length === 0) {
    body.push(
      textEl((plot.left + plot.right) / 2, (plot.top + plot.bottom) / 2, 'No price data yet', {
        size: FONT_SIZE.subtitle,
        fill: THEME.muted,
        anchor: 'middle',
      }),
    );
  }
  body.push(...legend(series, { x: 770, y: plot.top - 8, width: W - 770 - 28 }, w));
  return svgDocument(W, H, body);
}

/** Legend name sizes tried in turn, largest first. */
const LEGEND_SIZES = [15, 14, 13, 12, 11] as const;

function legend(
  series: readonly MomentumSeries[],
  box: { x: number; y: number; width: number },
  words?: ChartWords,
): string[] {
  if (series.length === 0) return [];
  const rowH = 50;
  const out = [rect(box.x, box.y, box.width, 44 + rowH * series.length, THEME.panel, `rx="12" stroke="${THEME.grid}"`)];
  out.push(
    textEl(box.x + 16, box.y + 28, escapeXml(words?.latest ?? 'Latest change'), { size: 14, fill: THEME.muted }),
  );
  series.forEach((s, k) => {
    const y = box.y + 44 + k * rowH + rowH / 2;
    const last = [...s.ratios].reverse().find((r) => r !== null) ?? null;
    const lastAt = last === null ? -1 : s.ratios.lastIndexOf(last);
    out.push(rect(box.x + 16, y - 12, 14, 14, SERIES_COLOURS[k]!, 'rx="3"'));
    // A long name gets a smaller size before it is cut: the legend is where the reader learns which line is which.
    const name = drawableText(s.symbol) || '?';
    const size = LEGEND_SIZES.find((z) => textWidth(name, z, true) <= box.width - 60) ?? LEGEND_SIZES.at(-1)!;
    const symbol = fitText(name, box.width - 60, size, true);
    out.push(textEl(box.x + 38, y, escapeXml(symbol), { size, bold: true }));
    const change =
      last === null
        ? (words?.noData ?? 'no data')
        : words
          ? fillIn(words.changeAfter, { change: changeLabel(last), window: WINDOWS[lastAt]! })
          : `${changeLabel(last)} after ${WINDOWS[lastAt]}`;
    const fill = last === null ? THEME.faint : last >= 1 ? THEME.up : THEME.down;
    out.push(textEl(box.x + 38, y + 18, escapeXml(change), { size: 12, fill }));
  });
  return out;
}
