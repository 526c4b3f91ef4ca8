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
