/** Rows of the token list (operation 2): fixed columns plus the one the list is sorted by. */
import type { TokenAnalyticsItem } from '../../api/index.ts';
import { age, compact, pct, score, usd } from '../format.ts';
import type { Column, Rich } from '../model.ts';
import { ticker } from './common.ts';

type Cell = (t: TokenAnalyticsItem) => string;

const change = (k: keyof TokenAnalyticsItem['changes']): Cell => (t) => pct(t.changes[k], 'percent', { sign: true, decimals: 0 });

/** Every column a token row can show, by key. */
const CELLS: Readonly<Record<string, { label: string; cell: Cell }>> = {
  mcap: { label: 'MCap', cell: (t) => usd(t.marketcap) },
  h1: { label: '1h', cell: change('h1') },
  h24: { label: '24h', cell: change('h24') },
  m5: { label: '5m', cell: change('m5') },
  h4: { label: '4h', cell: change('h4') },
  liquidity: { label: 'Liq', cell: (t) => usd(t.liquidity) },
  age: { label: 'Age', cell: (t) => age(t.token_age, 'days') },
  mentions: { label: 'Ment', cell: (t) => compact(t.mention) },
  impressions: { label: 'Impr', cell: (t) => compact(t.impression) },
  followers: { label: 'SmartF', cell: (t) => compact(t.smart_follower) },
  score: { label: 'Score', cell: (t) => score(t.score_v2) },
  avgscore: { label: 'Avg', cell: (t) => score(t.avg_score) },
  avgscorev2: { label: 'AvgV2', cell: (t) => score(t.avg_score_v2) },
  totalscore: { label: 'Total', cell: (t) => score(t.total_score) },
};

const BASE = ['mcap', 'h1', 'h24'];

/** Base columns, plus `extra` (the sort's column) when it is not one of them. */
export function tokenColumnKeys(extra: string | undefined): string[] {
  return extra && extra in CELLS && !BASE.includes(extra) ? [...BASE, extra] : BASE;
}

export function tokenColumns(keys: readonly string[]): Column[] {
  return [{ key: 'token', label: 'Token' }, ...keys.map((k): Column => ({ key: k, label: CELLS[k]!.label, align: 'right' }))];
}

/** The token as a row names it; `chain` when the list has the same symbol more than once. */
const tokenName = (t: TokenAnalyticsItem, chain: string | undefined): string => `${ticker(t.token.symbol, t.token.name)}${chain ? ` (${chain})` : ''}`;

export function tokenRow(t: TokenAnalyticsItem, keys: readonly string[], chain?: string): Record<string, string> {
  const row: Record<string, string> = { token: tokenName(t, chain) };
  for (const k of keys) row[k] = CELLS[k]!.cell(t);
  return row;
}

/** Under the table: each token's address to copy into /token. */
export function tokenNote(t: TokenAnalyticsItem, chain?: string): Rich {
  return [`${tokenName(t, chain)} `, { code: t.token.address }];
}
