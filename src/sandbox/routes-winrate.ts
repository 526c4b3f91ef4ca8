// Operations 4.4 (token momentum by KOL) and 4.5 (KOL win-rate table).
import type { Ctx } from './ctx.ts';
import { offsetPage, sortByKey } from './paging.ts';
import { type Params, bad, rangeFilter } from './params.ts';
import { round } from './prng.ts';
import { HORIZONS, type Shill } from './types.ts';
import { SUMMARY_KEYS, momentumItem, priceAfterMantissa, shillWins } from './views-token.ts';
import { kolFromPath, kolHasLabel } from './routes-kol.ts';
import { type WinRateRow, winRateItem, winRateRows } from './winrate.ts';

type ShillKey = (s: Shill) => number;
const SHORT = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '24h', '7d'];

/** sortField of op 4 -> value. Horizons order by price change at that horizon (price_afterX / price_init). */
const MOMENTUM_SORT_KEYS: Record<string, ShillKey> = {
  shillTime: (s) => s.shillMs,
  ...Object.fromEntries(SHORT.map((h, i) => [h, (s: Shill) => priceAfterMantissa(s, i) / s.priceInitMantissa])),
  weightedPerformanceScore: (s) => s.weighted_performance_score,
  consistencyScore: (s) => s.consistency_score,
  areaUnderCurveScore: (s) => s.area_under_curve_score,
  unifiedPerformanceScore: (s) => s.unified_performance_score,
  engagementScore: (s) => s.engagement,
  scoreV2: (s) => s.unified_performance_score,
  sScoreV2: (s) => s.weighted_performance_score,
  aScoreV2: (s) => s.area_under_curve_score,
  lScoreV2: (s) => s.consistency_score,
  eScoreV2: (s) => s.engagement,
};

export function kolTokens(ctx: Ctx, p: Params, xUserId: string) {
  const { store } = ctx;
  const chain = p.chain('chainId');
  const sortField = p.oneOf('sortField', Object.keys(MOMENTUM_SORT_KEYS), 'shillTime');
  const desc = p.desc('sortOrder', 'DESC', false);
  const startTime = p.num('startTime');
  const kol = kolFromPath(store, xUserId);
  const shills = (store.shillsByKol.get(kol.id) ?? []).filter(
    (s) =>
      (chain === undefined || store.token(s.tokenId).chain_id === chain) &&
      (startTime === undefined || s.shillMs > startTime * 1000),
  );
  sortByKey(shills, MOMENTUM_SORT_KEYS[sortField] as ShillKey, desc);
  const summary: Record<string, number> = {};
  HORIZONS.forEach((_, i) => {
    const wins = shills.filter((s) => shillWins(s, i)).length;
    summary[SUMMARY_KEYS[i] as string] = shills.length ? round(wins / shills.length, 4) : 0;
  });
  return { items: shills.map((s) => momentumItem(s, store.token(s.tokenId))), total: shills.length, summary };
}

type RowKey = (r: WinRateRow) => number;
const LONG = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '7d'];

/** sortField of op 5 -> value; scoreV2 and its s/a/l/e parts are the performance scores the spec names. */
const WIN_RATE_SORT_KEYS: Record<string, RowKey> = {
  ...Object.fromEntries(LONG.map((h, i) => [`winRateAfter${h}`, (r: WinRateRow) => r.rates[i] ?? 0])),
  weightedPerformanceScore: (r) => r.wps,
  consistencyScore: (r) => r.cons,
  areaUnderCurveScore: (r) => r.auc,
  unifiedPerformanceScore: (r) => r.ups,
  numTokensCountedWinRate: (r) => r.n,
  likeScore: (r) => r.kol.stat.like_score,
  shareScore: (r) => r.kol.stat.share_score,
  mentionScore: (r) => r.kol.stat.mention_score,
  activeScore: (r) => r.kol.stat.active_score,
  engagementScore: (r) => r.engagement,
  scoreV2: (r) => r.ups,
  sScoreV2: (r) => r.wps,
  aScoreV2: (r) => r.auc,
  lScoreV2: (r) => r.cons,
  eScoreV2: (r) => r.engagement,
};

export function winRateTable(ctx: Ctx, p: Params) {
  const offset = p.int('offset', 0, 0);
  const limit = p.int('limit', 10, 1, 30);
  const labels = p.list('labels');
  const chain = p.chain('chainId');
  const sortField = p.oneOf('sortField', Object.keys(WIN_RATE_SORT_KEYS), 'winRateAfter5m');
  const desc = p.desc('sortOrder', 'DESC', false);
  const from = p.date('startDate');
  const to = p.date('endDate', true);
  if (from !== undefined && to !== undefined && from > to) throw bad('startDate is after endDate');
  const inRange = rangeFilter<WinRateRow>(p, [
    ['minScoreV2', 'maxScoreV2', (r) => r.ups],
    ['minSScoreV2', 'maxSScoreV2', (r) => r.wps],
    ['minAScoreV2', 'maxAScoreV2', (r) => r.auc],
    ['minLScoreV2', 'maxLScoreV2', (r) => r.cons],
    ['minEScoreV2', 'maxEScoreV2', (r) => r.engagement],
  ]);
  const rows = winRateRows(ctx.store, chain, from, to).filter((r) => kolHasLabel(r.kol, labels) && inRange(r));
  sortByKey(rows, WIN_RATE_SORT_KEYS[sortField] as RowKey, desc);
  return { items: offsetPage(rows, offset, limit).map(winRateItem), total: rows.length };
}
