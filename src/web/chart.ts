/**
 * A call's follow-up points as an SVG drawn into the page (no picture to fetch,
 * no script): market cap at the call, then at each sampled point, on a log scale
 * so a 10x and a rug both fit. Colours come from the stylesheet's classes, so
 * light and dark follow prefers-color-scheme; the text alternative is the
 * <title>/<desc> and the table of points under it.
 */
import type { Call } from '../store/calls.ts';
import { h, type Html } from './html.ts';

const W = 640;
const H = 240;
const PAD = { left: 16, right: 16, top: 16, bottom: 24 };

export interface ChartPoint {
  readonly at: number;
  readonly marketCap: number;
}

/** The call's market caps from the call on: the call itself first, then its samples in order. */
export function chartPoints(c: Pick<Call, 'at' | 'marketCap' | 'samples'>): ChartPoint[] {
  const first = c.marketCap !== null && c.marketCap > 0 ? [{ at: c.at, marketCap: c.marketCap }] : [];
  return [...first, ...c.samples.filter((s) => s.marketCap > 0).map((s) => ({ at: s.at, marketCap: s.marketCap }))];
}

/** The line chart; `alt` is its text alternative (already in the page's language). */
export function followupChart(points: readonly ChartPoint[], title: string, alt: string): Html {
  const t0 = points[0]!.at;
  const span = Math.max(1, points.at(-1)!.at - t0);
  const logs = points.map((p) => Math.log(p.marketCap));
  const lo = Math.min(...logs);
  const hi = Math.max(...logs);
  const range = hi - lo || 1;
  const x = (at: number) => PAD.left + ((at - t0) / span) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - lo) / range) * (H - PAD.top - PAD.bottom);
  const xy = points.map((p, i) => [x(p.at), logs.length > 1 ? y(logs[i]!) : H / 2] as const);
  const d = xy.map(([px, py], i) => `${i ? 'L' : 'M'}${px.toFixed(1)} ${py.toFixed(1)}`).join(' ');
  const base = y(logs[0]!);
  return h`<svg id="call-chart" class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" data-points="${points.length}" preserveAspectRatio="none">
<title id="chart-title">${title}</title>
<desc id="chart-desc">${alt}</desc>
<line class="base" x1="${PAD.left}" x2="${W - PAD.right}" y1="${base.toFixed(1)}" y2="${base.toFixed(1)}"/>
<path class="line" d="${d}"/>
${xy.map(([px, py]) => h`<circle class="dot" cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="4"/>`)}
</svg>`;
}
