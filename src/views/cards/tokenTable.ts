/** Rows of the token list (operation 2): fixed columns plus the one the list is sorted by. */
import type { TokenAnalyticsItem } from '../../api/index.ts';
import type { Column, Rich } from '../../domain/view.ts';
import { ticker } from './common.ts';
import { fmt, type Formats, type T } from './lang.ts';

type Cell = (t: TokenAnalyticsItem, f: Formats) => string;

const change =
  (k: keyof TokenAnalyticsItem['changes']): Cell =>
  (t, f) =>
    f.pct(t.changes[k], 'percent', { sign: true, decimals: 0 });

/** Every column a token row can show, by key; headings are columns.tokenList.<key> (window names stay as typed). */
const CELLS: Readonly<Record<string, Cell>> = {
  mcap: (t, f) => f.usd(t.marketcap),
  h1: change('h1'),
  h24: change('h24'),
  m5: change('m5'),
  h4: change('h4'),
  liquidity: (t, f) => f.usd(t.liquidity),
  age: (t, f) => f.age(t.token_age, 'days'),
  mentions: (t, f) => f.compact(t.mention),
  impressions: (t, f) => f.compact(t.impression),
  followers: (t, f) => f.compact(t.smart_follower),
  score: (t, f) => f.score(t.score_v2),
  avgscore: (t, f) => f.score(t.avg_score),
  avgscorev2: (t, f) => f.score(t.avg_score_v2),
  totalscore: (t, f) => f.score(t.total_score),
};
const WINDOW_KEYS = new Set(['h1', 'h24', 'm5', 'h4']);
const heading = (k: string, t: T): string =>
  WINDOW_KEYS.has(k)
    ? k[0] === 'm'
      ? `${k.slice(1)}m`
      : `${k.slice(1)}h`
    : t(`columns.tokenList.${k}` as 'columns.tokenList.mcap');

const BASE = ['mcap', 'h1', 'h24'];

/** Base columns, plus `extra` (the sort's column) when it is not one of them. */
export function tokenColumnKeys(extra: string | undefined): string[] {
  return extra && extra in CELLS && !BASE.includes(extra) ? [...BASE, extra] : BASE;
}

export function tokenColumns(keys: readonly string[], t: T): Column[] {
  return [
    { key: 'token', label: t('columns.token') },
    ...keys.map((k): Column => ({ key: k, label: heading(k, t), align: 'right' })),
  ];
}

/** The token as a row names it; `chain` when the list has the same symbol more than once. */
const tokenName = (t: TokenAnalyticsItem, chain: string | undefined): string =>
  `${ticker(t.token.symbol, t.token.name)}${chain ? ` (${chain})` : ''}`;

export function tokenRow(
  t: TokenAnalyticsItem,
  keys: readonly string[],
  chain: string | undefined,
  tr: T,
): Record<string, string> {
  const f = fmt(tr);
  const row: Record<string, string> = { token: tokenName(t, chain) };
  for (const k of keys) row[k] = CELLS[k]!(t, f);
  return row;
}

/** Under the table: each token's address to copy into /token. */
export function tokenNote(t: TokenAnalyticsItem, chain?: string): Rich {
  return [`${tokenName(t, chain)} `, { code: t.token.address }];
}
