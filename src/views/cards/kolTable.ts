/** Rows of the KOL table (operation 9) as a chat-sized table. */
import type { KolTableItem } from '../../api/index.ts';
import type { Column } from '../../domain/view.ts';
import { fmt, type T } from './lang.ts';
import { rateOf } from './common.ts';

export function kolColumns(t: T): Column[] {
  return [
    { key: 'rank', label: t('columns.rank'), align: 'right' },
    { key: 'kol', label: 'KOL' },
    { key: 'score', label: t('columns.score'), align: 'right' },
    { key: 'win', label: t('columns.winPct'), align: 'right' },
    { key: 'smart', label: t('columns.smartF'), align: 'right' },
  ];
}

export function kolRow(k: KolTableItem, t: T): Record<string, string> {
  const { compact, int, pct, score } = fmt(t);
  return {
    rank: `#${int(k.user_ranking)}`,
    kol: `@${k.kol}`,
    score: score(k.score_v2),
    // The rate with its sample: total_token is the closest count operation 9 offers.
    win: rateOf(pct(k.winrate, 'fraction', { decimals: 0 }), int(k.total_token), t),
    smart: compact(k.sm_follower),
  };
}

/** Sorts whose values the fixed columns do not show: the sorted value gets a column of its own. */
type Extra = (k: KolTableItem, f: ReturnType<typeof fmt>) => string;
const SORTED_EXTRA: Readonly<Record<string, Extra>> = {
  mentions: (k, f) => f.compact(k.mention),
  impressions: (k, f) => f.compact(k.impression),
  rug: (k, f) => f.pct(k.rug_rate, 'fraction', { decimals: 0 }),
  lose: (k, f) => f.pct(k.lose_rate, 'fraction', { decimals: 0 }),
  active: (k, f) => f.score(k.active_score),
  total: (k, f) => f.score(k.total_score),
  speed: (k, f) => f.score(k.s_score),
  accuracy: (k, f) => f.score(k.a_score),
  legality: (k, f) => f.score(k.l_score),
  engagement: (k, f) => f.score(k.e_score),
};

/** The table's columns and rows for a sort: what the list is ordered by is always visible. */
export function kolTableFor(
  sort: string,
  items: readonly KolTableItem[],
  t: T,
): { columns: readonly Column[]; rows: Record<string, string>[] } {
  const extra = SORTED_EXTRA[sort];
  if (!extra) return { columns: kolColumns(t), rows: items.map((k) => kolRow(k, t)) };
  const f = fmt(t);
  return {
    columns: [
      ...kolColumns(t),
      { key: 'sorted', label: t(`columns.kolSort.${sort}` as 'columns.kolSort.mentions'), align: 'right' },
    ],
    rows: items.map((k) => ({ ...kolRow(k, t), sorted: extra(k, f) })),
  };
}
