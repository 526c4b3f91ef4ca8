/** Rows of the KOL table (operation 9) as a chat-sized table. */
import type { KolTableItem } from '../../api/index.ts';
import { compact, int, pct, score } from '../format.ts';
import type { Column } from '../model.ts';

export const KOL_COLUMNS: readonly Column[] = [
  { key: 'rank', label: 'Rank', align: 'right' },
  { key: 'kol', label: 'KOL' },
  { key: 'score', label: 'Score', align: 'right' },
  { key: 'win', label: 'Win%', align: 'right' },
  { key: 'smart', label: 'SmartF', align: 'right' },
  { key: 'tokens', label: 'Tokens', align: 'right' },
];

export function kolRow(k: KolTableItem): Record<string, string> {
  return {
    rank: `#${int(k.user_ranking)}`,
    kol: `@${k.kol}`,
    score: score(k.score_v2),
    win: pct(k.winrate, 'fraction', { decimals: 0 }),
    smart: compact(k.sm_follower),
    tokens: int(k.total_token),
  };
}

/** Sorts whose values the fixed columns do not show: the sorted value gets a column of its own. */
const SORTED_EXTRA: Readonly<Record<string, { label: string; value: (k: KolTableItem) => string }>> = {
  mentions: { label: 'Mentions', value: (k) => compact(k.mention) },
  impressions: { label: 'Impr.', value: (k) => compact(k.impression) },
  rug: { label: 'Rug%', value: (k) => pct(k.rug_rate, 'fraction', { decimals: 0 }) },
  lose: { label: 'Lose%', value: (k) => pct(k.lose_rate, 'fraction', { decimals: 0 }) },
  active: { label: 'Active', value: (k) => score(k.active_score) },
  total: { label: 'Total', value: (k) => score(k.total_score) },
  speed: { label: 'Speed', value: (k) => score(k.s_score) },
  accuracy: { label: 'Accur.', value: (k) => score(k.a_score) },
  legality: { label: 'Legal.', value: (k) => score(k.l_score) },
  engagement: { label: 'Engag.', value: (k) => score(k.e_score) },
};

/** The table's columns and rows for a sort: what the list is ordered by is always visible. */
export function kolTableFor(sort: string, items: readonly KolTableItem[]): { columns: readonly Column[]; rows: Record<string, string>[] } {
  const extra = SORTED_EXTRA[sort];
  if (!extra) return { columns: KOL_COLUMNS, rows: items.map(kolRow) };
  return {
    columns: [...KOL_COLUMNS, { key: 'sorted', label: extra.label, align: 'right' }],
    rows: items.map((k) => ({ ...kolRow(k), sorted: extra.value(k) })),
  };
}
