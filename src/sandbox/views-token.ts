// Spec shapes of token records (sections 2.1, 2.3, 2.5, 2.9).
import { DAY, iso } from './ctx.ts';
import { dec, fmtScaled, round } from './prng.ts';
import { priceAfterMantissa } from './gen-tweets.ts';
import { HORIZONS, type SandboxToken, type Shill } from './types.ts';

export function tokenSummary(t: SandboxToken) {
  return { id: t.id, name: t.name, symbol: t.symbol, address: t.address, chain_id: t.chain_id, icon_url: t.icon_url };
}

/** Age in days, as a number with two decimals. */
export function tokenAgeDays(t: SandboxToken, nowMs: number): number {
  return round(Math.max(0, nowMs - t.createdMs) / DAY, 2);
}

export function tokenAnalyticsItem(t: SandboxToken, nowMs: number) {
  return {
    token: { id: t.id, name: t.name, symbol: t.symbol, icon_url: t.icon_url, address: t.address },
    marketcap: t.marketcap,
    liquidity: t.liquidity,
    token_age: tokenAgeDays(t, nowMs),
    smart_follower: String(t.smart_follower),
    mention: String(t.mention),
    impression: String(t.impression),
    changes: { m5: t.changes.m5, h1: t.changes.h1, h4: t.changes.h4, h24: t.changes.h24 },
    total_score: dec(t.total_score, 2),
    avg_score: dec(t.avg_score, 2),
    avg_score_v2: dec(t.avg_score_v2, 2),
    score_v2: dec(t.score_v2, 2),
  };
}

/** Tweet token (2.9); avgScore is the value seen by the tweet, which tests may pin. */
export function tweetToken(t: SandboxToken, avgScore = t.avg_score) {
  return {
    id: t.id,
    name: t.name,
    symbol: t.symbol,
    token_address: t.address,
    icon_url: t.icon_url,
    chain_id: t.chain_id,
    token_score: t.token_score,
    score: t.score,
    score_v2: t.score_v2,
    avg_score: avgScore,
    avg_score_v2: t.avg_score_v2,
    change1h: t.changes.h1,
    change24h: t.changes.h24,
    sentiment: t.sentiment,
  };
}

const PRICE_KEYS = HORIZONS.map((h) => `price_after${h}`);
const WIN_KEYS = HORIZONS.map((h) => `win_rate${h === '1d' ? '24h' : h}`);

export { priceAfterMantissa };

/** Per-shill win at a horizon: the shown price went above the shown shill price. */
export function shillWins(s: Shill, h: number): boolean {
  return s.wins[h] ?? false;
}

export function momentumItem(s: Shill, t: SandboxToken) {
  const item: Record<string, unknown> = {
    id: s.id,
    token_name: t.name,
    token_symbol: t.symbol,
    token_icon_url: t.icon_url,
    token_id: t.id,
    token_address: t.address,
    pair_address: t.pair_address,
    token_chain_id: t.chain_id,
    shill_timestamp: iso(s.shillMs),
    price_init: fmtScaled(s.priceInitMantissa, s.priceScale),
  };
  HORIZONS.forEach((_, i) => {
    item[PRICE_KEYS[i] as string] = fmtScaled(priceAfterMantissa(s, i), s.priceScale);
  });
  item.weighted_performance_score = dec(s.weighted_performance_score, 2);
  item.consistency_score = dec(s.consistency_score, 2);
  item.area_under_curve_score = dec(s.area_under_curve_score, 2);
  item.unified_performance_score = dec(s.unified_performance_score, 2);
  HORIZONS.forEach((_, i) => {
    item[WIN_KEYS[i] as string] = shillWins(s, i) ? '1.0000' : '0.0000';
  });
  return item;
}

export const SUMMARY_KEYS = WIN_KEYS;
