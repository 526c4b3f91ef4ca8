/** Tokens a KOL shilled (operation 4): price after each window relative to the shill price. */
import type { KolTokenItem } from '../../api/index.ts';
import { decimalRatio } from '../charts/decimal.ts';
import type { Column } from '../../domain/view.ts';
import { ticker } from './common.ts';
import { fmt, type T } from './lang.ts';
import type { WindowDef } from './windows.ts';

export function momentumColumns(windows: readonly WindowDef[], t: T): Column[] {
  return [
    { key: 'token', label: t('columns.token') },
    { key: 'chain', label: t('columns.chain') },
    { key: 'when', label: t('columns.shilled') },
    ...windows.map((w): Column => ({ key: w.label, label: w.label, align: 'right' })),
  ];
}

/**
 * Change from the shill price, from the two decimal strings (prices can be far
 * below a cent). "…" while the window has not passed yet: the API then has
 * no real price for it.
 */
export function changeAfter(item: KolTokenItem, w: WindowDef, now: number, t: T): string {
  const { pct } = fmt(t);
  const shill = Date.parse(item.shill_timestamp);
  if (Number.isFinite(shill) && shill + w.ms > now) return '…';
  const after = item[w.priceKey];
  const ratio = after === undefined ? null : decimalRatio(after, item.price_init);
  return ratio === null ? '-' : pct((ratio - 1) * 100, 'percent', { sign: true, decimals: 0 });
}

/**
 * The windows worth a column: those at least one row has reached. A window no
 * shill is old enough for yet (7d a day after the first shill) would be "…" in
 * every row, which tells the reader nothing. With no rows at all, all of them.
 */
export function reachedWindows(
  windows: readonly WindowDef[],
  items: readonly Pick<KolTokenItem, 'shill_timestamp'>[],
  now: number,
): WindowDef[] {
  if (!items.length) return [...windows];
  const oldest = Math.min(...items.map((i) => Date.parse(i.shill_timestamp)).filter(Number.isFinite));
  // Unparseable times say nothing about age: keep the windows then.
  return Number.isFinite(oldest) ? windows.filter((w) => oldest + w.ms <= now) : [...windows];
}

export function momentumRow(
  item: KolTokenItem,
  windows: readonly WindowDef[],
  now: number,
  t: T,
): Record<string, string> {
  const { timeAgo } = fmt(t);
  const row: Record<string, string> = {
    token: ticker(item.token_symbol, item.token_name),
    chain: item.token_chain_id,
    when: timeAgo(item.shill_timestamp, now),
  };
  for (const w of windows) row[w.label] = changeAfter(item, w, now, t);
  return row;
}
