/**
 * The picture engine: pure functions from plain data to SVG strings, and one
 * rasteriser to PNG with the shipped font. Nothing here talks to the API or a chat platform.
 */
export { mindmapSvg } from './mindmap.ts';
export { mindmapLayout } from './mindmapLayout.ts';
export type {
  MindmapInput,
  MindmapOptions,
  MindmapLayout,
  LayoutNode,
  LayoutEdge,
  NodeId,
  Box,
  PlacedLabel,
} from './mindmapLayout.ts';
export { winRateSvg, winRatePercents } from './winRate.ts';
export type { WinRateInput } from './winRate.ts';
export { momentumSvg, momentumSeries } from './momentum.ts';
export type { MomentumInput, MomentumToken, MomentumSeries } from './momentum.ts';
export { priceStripSvg, priceLine } from './priceStrip.ts';
export type { PriceStripInput, PricePoint } from './priceStrip.ts';
export { callsSvg, CALLS_CHART_MAX_ROWS } from './calls.ts';
export type { CallsChartInput, CallsChartRow } from './calls.ts';
export { callCardSvg } from './callCard.ts';
export type { CallCardInput } from './callCard.ts';
export { renderPng } from './render.ts';
export type { RenderOptions } from './render.ts';
export { decimalRatio } from './decimal.ts';
export { escapeXml } from './text.ts';
export { WINDOWS } from './windows.ts';
export type { Window } from './windows.ts';
