/** Rows of the win-rate table (operation 5): a few windows, tokens counted and the performance score. */
import type { WinRateItem } from '../../api/index.ts';
import type { Column } from '../../domain/view.ts';
import { fmt, type T } from './lang.ts';
import type { WindowDef } from './windows.ts';

export function winRateColumns(windows: readonly WindowDef[], t: T): Column[] {
  return [
    { key: 'kol', label: 'KOL' },
    ...windows.map((w): Column => ({ key: w.label, label: w.label, align: 'right' })),
    { key: 'tokens', label: t('columns.tokens'), align: 'right' },
    { key: 'perf', label: t('columns.perf'), align: 'right' },
  ];
}

export function winRateRow(item: WinRateItem, windows: readonly WindowDef[], t: T): Record<string, string> {
  const { int, pct, score } = fmt(t);
  const row: Record<string, string> = { kol: `@${item.x_user.username}` };
  for (const w of windows) row[w.label] = pct(item[w.winRateKey], 'fraction', { decimals: 0 });
  row.tokens = int(item.num_tokens_counted_win_rate);
  row.perf = score(item.unified_performance_score);
  return row;
}
