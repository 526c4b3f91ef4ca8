/**
 * Each answer's picture: its chart input built by the views, its name and alt
 * text, drawn through drawPicture (draw.ts). What a picture shows is decided
 * in views/cards/pictureInputs.ts; whether and where it is drawn, here.
 */
import type { KolTokenItem, MindmapGraph, TokenAnalyticsItem, TokenSummary } from '../api/index.ts';
import { type ResolvedKol, kolRef } from '../core/resolve.ts';
import type { Call } from '../store/calls.ts';
import type { CallsChartInput } from '../views/charts/calls.ts';
import { ticker } from '../views/cards/common.ts';
import { ENGLISH, fmt, type T } from '../views/cards/lang.ts';
import { callCardInput } from '../views/cards/memberCalls.ts';
import {
  mindmapChart,
  momentumChart,
  priceStripChart,
  winRateChart,
  type WinRateChartInput,
} from '../views/cards/pictureInputs.ts';
import { WINDOWS } from '../views/cards/windows.ts';
import { drawPicture, type Drawn, type PictureCtx } from './draw.ts';

// ---- /mindmap (operation 1) ----

export function mindmapPicture(
  ctx: PictureCtx,
  graph: MindmapGraph,
  centre: TokenSummary | undefined,
  hours: number,
): Promise<Drawn> {
  const t = ctx.t ?? ENGLISH;
  const name = centre ? ticker(centre.symbol, centre.name) : t('mindmap.thisToken');
  const linked = Math.max(0, graph.nodes.length - 1);
  return drawPicture(ctx, {
    kind: 'mindmap',
    name: 'mindmap.png',
    alt: () => t('chart.mindmapAlt', { name, count: linked, n: linked, hours }),
    // A lone token says nothing the text does not: no picture then.
    input: () => (graph.edges.length > 0 ? mindmapChart(graph, centre, hours, t) : undefined),
  });
}

// ---- /kol: win rate (operation 4's summary) with scores (operation 6) ----

export function winRatePicture(ctx: PictureCtx, data: WinRateChartInput): Promise<Drawn> {
  const t = ctx.t ?? ENGLISH;
  const { pct } = fmt(t);
  const at = (label: string): string =>
    pct(data.momentum.summary[WINDOWS.find((w) => w.label === label)!.summaryKey], 'fraction', { decimals: 0 });
  const rates =
    data.momentum.total > 0
      ? t('chart.winRateAltRates', { h1: at('1h'), h24: at('24h'), d7: at('7d') })
      : t('chart.winRateAltNone');
  return drawPicture(ctx, {
    kind: 'winrate',
    name: 'winrate.png',
    alt: () => t('chart.winRateAlt', { who: kolRef(data.kol), rates }),
    input: () => winRateChart(data, t),
  });
}

// ---- /momentum: price after the shill per token (operation 4 items) ----

export function momentumPicture(
  ctx: PictureCtx,
  kol: ResolvedKol,
  items: readonly KolTokenItem[],
  sort: string,
  now: number,
): Promise<Drawn> {
  const who = kolRef(kol);
  const t = ctx.t ?? ENGLISH;
  return drawPicture(ctx, {
    kind: 'momentum',
    name: 'momentum.png',
    alt: (input) => t('chart.momentumAlt', { symbols: input.tokens.map((x) => x.symbol).join(', '), who }),
    input: () => {
      const chart = momentumChart(t('chart.momentumTitle', { who }), items, sort, now, t);
      return chart.tokens.length > 0 ? chart : undefined;
    },
  });
}

// ---- /token: price change strip (operation 2's changes) ----

export function priceStripPicture(ctx: PictureCtx, item: TokenAnalyticsItem): Promise<Drawn> {
  const c = item.changes;
  const t = ctx.t ?? ENGLISH;
  const { pct } = fmt(t);
  const p = (v: number) => pct(v, 'percent', { sign: true });
  return drawPicture(ctx, {
    kind: 'price-strip',
    name: 'price-strip.png',
    alt: () =>
      `${t('chart.priceTitle', { symbol: ticker(item.token.symbol, item.token.name) })}: 5m ${p(c.m5)}, 1h ${p(c.h1)}, 4h ${p(c.h4)}, 24h ${p(c.h24)}`,
    input: () => priceStripChart(item, t),
  });
}

// ---- /calls: peak and now per call (the chat's scorecard) ----

export function callsPicture(ctx: PictureCtx, input: CallsChartInput): Promise<Drawn> {
  return drawPicture(ctx, {
    kind: 'calls',
    name: 'calls.png',
    alt: (i) => `${i.title}. ${i.subtitle}`,
    input: () => (input.rows.length ? input : undefined),
  });
}

// ---- /stats: a member's call as a card ----

export function callCardPicture(ctx: PictureCtx, c: Call, t: T, now: number): Promise<Drawn> {
  return drawPicture(ctx, {
    kind: 'call-card',
    name: 'call.png',
    alt: (i) =>
      t('board.cardAlt', {
        symbol: ticker(c.token.symbol, c.token.name),
        name: c.member?.name ?? '?',
        multiple: i.multiple,
      }),
    input: () => callCardInput(c, t, now),
  });
}
