/** Tokens a KOL shilled (operation 4): price after each window relative to the shill price. */
import type { KolTokenItem } from '../../api/index.ts';
import { decimalRatio } from '../charts/decimal.ts';
import { pct, timeAgo } from '../format.ts';
import type { Column } from '../model.ts';
import { ticker } from './common.ts';
import type { WindowDef } from './windows.ts';

export function momentumColumns(windows: readonly WindowDef[]): Column[] {
  return [
    { key: 'token', label: 'Token' },
    { key: 'chain', label: 'Chain' },
    { key: 'when', label: 'Shilled' },
    ...windows.map((w): Column => ({ key: w.label, label: w.label, align: 'right' })),
  ];
}

/**
 * Change from the shill price, from the two decimal strings (prices can be far
 * below a cent). "…" while the window has not passed yet: the API then has
 * no real price for it.
 */
export function changeAfter(item: KolTokenItem, w: WindowDef, now: number): string {
  const shill = Date.parse(item.shill_timestamp);
  if (Number.isFinite(shill) && shill + w.ms > now) return '…';
  const after = item[w.priceKey];
  const ratio = after === undefined ? null : decimalRatio(after, item.price_init);
  return ratio === null ? '-' : pct((ratio - 1) * 100, 'percent', { sign: true, decimals: 0 });
}

export function momentumRow(item: KolTokenItem, windows: readonly WindowDef[], now: number): Record<string, string> {
  const row: Record<string, string> = {
    token: ticker(item.token_symbol, item.token_name),
    chain: item.token_chain_id,
    when: timeAgo(item.shill_timestamp, now),
  };
  for (const w of windows) row[w.label] = changeAfter(item, w, now);
  return row;
}
