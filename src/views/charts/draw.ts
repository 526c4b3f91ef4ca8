/**
 * Chart input to PNG by kind. Kinds rather than functions, so the work can be
 * handed to a worker thread as plain data (see pool.ts).
 */
import { mindmapSvg } from './mindmap.ts';
import type { MindmapInput } from './mindmapLayout.ts';
import { momentumSvg, type MomentumInput } from './momentum.ts';
import { priceStripSvg, type PriceStripInput } from './priceStrip.ts';
import { renderPng } from './render.ts';
import { winRateSvg, type WinRateInput } from './winRate.ts';
import { callsSvg, type CallsChartInput } from './calls.ts';
import { callCardSvg, type CallCardInput } from './callCard.ts';
import type { ChartInputs, ChartKind } from '../../domain/charts.ts';

declare module '../../domain/charts.ts' {
  /** The kinds the views draw, each with its input (the port in domain/charts.ts names none). */
  interface ChartInputs {
    readonly mindmap: MindmapInput;
    readonly winrate: WinRateInput;
    readonly momentum: MomentumInput;
    readonly 'price-strip': PriceStripInput;
    readonly calls: CallsChartInput;
    readonly 'call-card': CallCardInput;
  }
}

const SVG: { readonly [K in ChartKind]: (input: ChartInputs[K]) => string } = {
  mindmap: (i) => mindmapSvg(i),
  winrate: winRateSvg,
  momentum: momentumSvg,
  'price-strip': priceStripSvg,
  calls: callsSvg,
  'call-card': callCardSvg,
};

/**
 * Every picture leaves 1000 px wide: the charts are laid out narrow so their
 * words stay legible on a phone (theme.ts), and drawn sharp for the phone's dense screen.
 */
export const RASTER_WIDTH = 1000;

export function drawChart<K extends ChartKind>(kind: K, input: ChartInputs[K]): Uint8Array {
  const svg = SVG[kind] as (input: ChartInputs[K]) => string;
  if (!svg) throw new Error(`unknown chart kind ${String(kind)}`);
  return renderPng(svg(input), { width: RASTER_WIDTH });
}
