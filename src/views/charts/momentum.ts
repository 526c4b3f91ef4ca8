/**
 * Price after a shill relative to the price at the shill, one line per token,
 * on a log scale (a halving and a doubling are the same distance from 0%),
 * clamped to -99%..+9,900% so one moonshot does not flatten the rest.
 */
import { decimalRatio } from './decimal.ts';
import { signedPercent } from './format.ts';
import { circle, header, line, pathThrough, rect, svgDocument, textEl } from './svg.ts';
import { textWidth } from './font.ts';
import { drawableText, escapeXml, fitText, svgText } from './text.ts';
import { legibleSize, SERIES_COLOURS, THEME } from './theme.ts';
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

// Narrow, the legend under the plot: a phone shows the picture 390 px wide,
// where every word must stay at least 11 px tall (theme.ts).
const W = 600;
const TEXT = legibleSize(W);
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
  const w = input.words;
  const note =
    skipped === 0
      ? ''
      : w
        ? fillIn(w.skipped, { n: skipped }, w.locale)
        : ` · ${skipped} token${skipped === 1 ? '' : 's'} without a start price left out`;
  const head = header(
    W,
    input.title,
    (input.subtitle ?? w?.momentumSubtitle ?? 'Price change since the shill, log scale') + note,
  );
  const plot = { left: 84, top: head.bottom + 28, right: W - 16, bottom: head.bottom + 328 };
  const cols = [input.words?.shill ?? 'shill', ...WINDOWS];
  const xOf = (i: number): number => plot.left + 18 + (i * (plot.right - plot.left - 36)) / (cols.length - 1);
  const yOf = (r: number): number => {
    const t = (Math.log(Math.min(hi, Math.max(lo, r))) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
    return plot.bottom - t * (plot.bottom - plot.top);
  };

  const body: string[] = head.body;

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
      textEl(plot.left - 8, y + 6, escapeXml(tickLabel(t)), {
        size: TEXT,
        fill: THEME.muted,
        anchor: 'end',
      }),
    );
  }
  cols.forEach((c, i) => {
    const room = i === 0 ? 2 * (xOf(1) - xOf(0)) - 4 : xOf(1) - xOf(0);
    body.push(
      textEl(xOf(i), plot.bottom + 26, svgText(c, room, TEXT), { size: TEXT, fill: THEME.muted, anchor: 'middle' }),
    );
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
        size: TEXT,
        fill: THEME.muted,
        anchor: 'middle',
      }),
    );
  }
  const key = legend(series, { x: 16, y: plot.bottom + 48, width: W - 32 }, w);
  body.push(...key.body);
  return svgDocument(W, Math.round(key.bottom + 16), body);
}

/** Legend name sizes tried in turn, largest first; none below what a phone shows legibly. */
const LEGEND_SIZES = [TEXT + 2, TEXT + 1, TEXT] as const;

/**
 * One entry per line: its colour, its name, its latest change; in two columns
 * when every name fits one whole, else in one (names are never cut when they can be whole).
 */
function legend(
  series: readonly MomentumSeries[],
  box: { x: number; y: number; width: number },
  words?: ChartWords,
): { body: string[]; bottom: number } {
  if (series.length === 0) return { body: [], bottom: box.y - 32 };
  const rowH = 54;
  const names = series.map((s) => drawableText(s.symbol) || '?');
  const half = (box.width - 32) / 2 - 34;
  const columns = names.every((n) => textWidth(n, TEXT, true) <= half) ? 2 : 1;
  const colW = (box.width - 32) / columns;
  const nameRoom = colW - 34;
  const rows = Math.ceil(series.length / columns);
  const height = 44 + rowH * rows;
  const out = [rect(box.x, box.y, box.width, height, THEME.panel, `rx="12" stroke="${THEME.grid}"`)];
  out.push(
    textEl(box.x + 16, box.y + 30, svgText(words?.latest ?? 'Latest change', box.width - 32, TEXT), {
      size: TEXT,
      fill: THEME.muted,
    }),
  );
  series.forEach((s, k) => {
    const x = box.x + 16 + (k % columns) * colW;
    const y = box.y + 44 + Math.floor(k / columns) * rowH + 20;
    const last = [...s.ratios].reverse().find((r) => r !== null) ?? null;
    const lastAt = last === null ? -1 : s.ratios.lastIndexOf(last);
    out.push(rect(x, y - 14, 16, 16, SERIES_COLOURS[k]!, 'rx="3"'));
    // A long name gets a smaller size before it is cut: the legend is where the reader learns which line is which.
    const name = names[k]!;
    const size = LEGEND_SIZES.find((z) => textWidth(name, z, true) <= nameRoom) ?? LEGEND_SIZES.at(-1)!;
    out.push(textEl(x + 24, y, escapeXml(fitText(name, nameRoom, size, true)), { size, bold: true }));
    const change =
      last === null
        ? (words?.noData ?? 'no data')
        : words
          ? fillIn(words.changeAfter, { change: changeLabel(last), window: WINDOWS[lastAt]! })
          : `${changeLabel(last)} after ${WINDOWS[lastAt]}`;
    const fill = last === null ? THEME.faint : last >= 1 ? THEME.up : THEME.down;
    out.push(textEl(x + 24, y + TEXT + 6, svgText(change, nameRoom, TEXT), { size: TEXT, fill }));
  });
  return { body: out, bottom: box.y + height };
}
