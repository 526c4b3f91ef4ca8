/**
 * A token's price over the last day as a small line, from the only prices the
 * API gives: operation 2's changes over 24h, 4h, 1h and 5m (each: now against
 * then). Every point is the price then relative to 24h ago (the oldest known
 * point), so the line shows the day's path, which the card's text cannot. No
 * figures on the line: the card's text states them in the reader's format, and
 * a second rounding here would disagree with it. Nothing worth a line (fewer
 * than two windows known, or no move at all): no picture (`priceLine` is null).
 */
import type { ChartWords } from './words.ts';
import { finite } from './format.ts';
import { circle, header, line, pathThrough, svgDocument, textEl } from './svg.ts';
import { svgText } from './text.ts';
import { legibleSize, THEME } from './theme.ts';

export interface PriceStripInput {
  readonly symbol: string;
  /** Percent change per window, as the API's `changes` (m5, h1, h4, h24). */
  readonly changes: {
    readonly m5: number | null;
    readonly h1: number | null;
    readonly h4: number | null;
    readonly h24: number | null;
  };
  readonly title?: string;
  /** The chart's own words in the reader's language; English when absent. */
  readonly words?: ChartWords;
}

const W = 600;
const TEXT = legibleSize(W);
/** Oldest first, ending now: the windows' keys and their axis labels. */
const POINTS = [
  ['h24', '-24h'],
  ['h4', '-4h'],
  ['h1', '-1h'],
  ['m5', '-5m'],
] as const;
/** Below this (in percent) on every window the line would be flat: nothing to show. */
const MIN_MOVE = 0.1;

export interface PricePoint {
  /** The axis label: the window, or the word for now. */
  readonly label: string;
  /** Percent change against the oldest known point; null where the window is unknown. */
  readonly change: number | null;
}

/** The line's points, oldest first and now last, or null when a line would say nothing the text does not. */
export function priceLine(changes: PriceStripInput['changes'], nowWord = 'now'): PricePoint[] | null {
  // Price then over price now, from "now against then" in percent; a change of -100% or less has no price then.
  const then = POINTS.map(([key]) => {
    const c = finite(changes[key]);
    return c === null || c <= -100 ? null : 1 / (1 + c / 100);
  });
  const known = then.filter((v): v is number => v !== null);
  if (known.length < 2) return null;
  if (POINTS.every(([key]) => Math.abs(finite(changes[key]) ?? 0) < MIN_MOVE)) return null;
  const base = then.find((v) => v !== null)!;
  return [
    ...POINTS.map(([, label], i) => ({ label, change: then[i] == null ? null : (then[i]! / base - 1) * 100 })),
    { label: nowWord, change: (1 / base - 1) * 100 },
  ];
}

/** Round axis ticks in percent, about four across the range. */
function ticks(lo: number, hi: number): number[] {
  const span = Math.max(hi - lo, 0.2);
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const tickLabel = (v: number): string =>
  `${v > 0 ? '+' : v < 0 ? '-' : ''}${Math.abs(v).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;

export function priceStripSvg(input: PriceStripInput): string {
  const points = priceLine(input.changes, input.words?.now) ?? [];
  const head = header(W, input.title ?? `${input.symbol} price change`, undefined);
  const body: string[] = head.body;
  const values = points.map((p) => p.change).filter((v): v is number => v !== null);
  const t = ticks(Math.min(0, ...values), Math.max(0, ...values));
  const lo = t[0]!;
  const hi = t.at(-1)!;
  const plot = { left: 84, right: W - 28, top: head.bottom + 24, bottom: head.bottom + 214 };
  const xOf = (i: number) => plot.left + 16 + (i * (plot.right - plot.left - 32)) / POINTS.length;
  const yOf = (v: number) => plot.bottom - ((v - lo) / (hi - lo || 1)) * (plot.bottom - plot.top);

  for (const v of t) {
    const zero = v === 0;
    body.push(
      line(
        plot.left,
        yOf(v),
        plot.right,
        yOf(v),
        zero ? THEME.axis : THEME.grid,
        1,
        zero ? 'stroke-dasharray="6 5"' : '',
      ),
      textEl(plot.left - 8, yOf(v) + 6, tickLabel(v), { size: TEXT, fill: THEME.muted, anchor: 'end' }),
    );
  }
  const labels = [...POINTS.map(([, l]) => l), input.words?.now ?? 'now'];
  labels.forEach((l, i) => {
    body.push(
      textEl(xOf(i), plot.bottom + 28, svgText(l, 100, TEXT), { size: TEXT, fill: THEME.muted, anchor: 'middle' }),
    );
  });
  const last = values.at(-1) ?? 0;
  const colour = last > 0 ? THEME.up : last < 0 ? THEME.down : THEME.neutral;
  const pts = points.map((p, i) => (p.change === null ? null : { x: xOf(i), y: yOf(p.change) }));
  // Unknown windows are skipped, not zero: the line joins the known ones.
  body.push(
    `<path d="${pathThrough(pts.filter((p) => p !== null))}" fill="none" stroke="${colour}" stroke-width="3.5" stroke-linejoin="round"/>`,
  );
  for (const p of pts) if (p) body.push(circle(p.x, p.y, 5, colour, `stroke="${THEME.background}" stroke-width="2"`));
  return svgDocument(W, Math.round(plot.bottom + 48), body);
}
