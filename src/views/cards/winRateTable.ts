/**
 * Rows of the win-rate table (operation 5): a few windows, each rate with the
 * tokens it counts ("62% of 13": operation 5 gives one count per KOL, so every
 * window of a row rests on it), and the performance score. No separate tokens
 * column: each cell carries it, and the table stays within a chat's width.
 */
import type { WinRateItem } from '../../api/index.ts';
import type { Column } from '../../domain/view.ts';
import { fmt, type T } from './lang.ts';
import { rateOf } from './common.ts';
import { shownWindows, type WindowDef } from './windows.ts';

/** Windows a row shows at most: three cells of "100% of 125" fit a Telegram table line (44) in every language. */
export const WIN_RATE_MAX_WINDOWS = 3;

/** The windows of the table: the sorted one always, then 24h, 7d and 1h, in the windows' order. */
export function winRateWindows(sortedBy: string | undefined): WindowDef[] {
  const shown = shownWindows(sortedBy);
  if (shown.length <= WIN_RATE_MAX_WINDOWS) return shown;
  return shown.filter((w) => w.label !== '1h' || w.label === sortedBy);
}

export function winRateColumns(windows: readonly WindowDef[], t: T): Column[] {
  return [
    { key: 'kol', label: 'KOL' },
    // Left-aligned beside the handle: a row that wraps keeps its score on the first line and
    // gives the rates the whole second one.
    { key: 'perf', label: t('columns.perf') },
    ...windows.map((w): Column => ({ key: w.label, label: w.label, align: 'right' })),
  ];
}

export function winRateRow(item: WinRateItem, windows: readonly WindowDef[], t: T): Record<string, string> {
  const { int, pct, score } = fmt(t);
  const row: Record<string, string> = { kol: `@${item.x_user.username}` };
  const n = int(item.num_tokens_counted_win_rate);
  for (const w of windows) row[w.label] = rateOf(pct(item[w.winRateKey], 'fraction', { decimals: 0 }), n, t);
  row.perf = score(item.unified_performance_score);
  return row;
}
