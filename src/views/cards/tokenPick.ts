/** `/token <name>` with several matches: a short pick list, one button per token opening its card. */
import type { FoundToken } from '../../core/lookup.ts';
import type { Action, TableView } from '../../domain/view.ts';
import { shortAddress, ticker } from './common.ts';
import { fmt, type T } from './lang.ts';

export const PICK_MAX = 5;

export function tokenPickList(query: string, found: readonly FoundToken[], t: T): TableView {
  const { age, compact, usd } = fmt(t);
  const shown = found.slice(0, PICK_MAX);
  // Clones: several listed tokens with one symbol on one chain. Each then shows its short
  // address and liquidity (on a line of its own: the table keeps a phone's width) and its
  // button the address, so the one to pick can be told apart.
  const key = (f: FoundToken) => `${f.chain}:${f.item.token.symbol.toLowerCase()}`;
  const clones = new Set(shown.map(key).filter((k, i, all) => all.indexOf(k) !== i));
  const clone = (f: FoundToken) => clones.has(key(f));
  const actions: Action[] = shown.map((f, i) => ({
    label: `${i + 1}. ${ticker(f.item.token.symbol, f.item.token.name)} · ${clone(f) ? shortAddress(f.item.token.address) : f.chain}`,
    command: 'token',
    options: { chain: f.chain, address: f.item.token.address },
  }));
  return {
    kind: 'table',
    title: t('lookup.pickTitle', { query }),
    description: t('lookup.pickHint'),
    columns: [
      { key: 'n', label: '#' },
      { key: 'token', label: t('columns.token') },
      { key: 'chain', label: t('columns.chain') },
      { key: 'mcap', label: t('columns.mcap'), align: 'right' },
      { key: 'age', label: t('columns.age'), align: 'right' },
      { key: 'mentions', label: t('columns.mentions'), align: 'right' },
    ],
    rows: shown.map((f, i) => ({
      n: String(i + 1),
      token: ticker(f.item.token.symbol, f.item.token.name),
      chain: f.chain,
      mcap: usd(f.item.marketcap),
      age: age(f.item.token_age, 'days'),
      mentions: compact(f.item.mention),
    })),
    ...(clones.size
      ? {
          notes: shown.map((f, i) => [
            `${i + 1}. ${ticker(f.item.token.symbol, f.item.token.name)} · ${f.chain} · `,
            { code: shortAddress(f.item.token.address) },
            ` · ${t('tokenCard.liquidity')} ${usd(f.item.liquidity)} · ${t('tokenCard.age')} ${age(f.item.token_age, 'days')}`,
          ]),
        }
      : {}),
    ...(found.length > PICK_MAX ? { footer: t('lookup.pickMore', { count: found.length - PICK_MAX }) } : {}),
    actions,
  };
}
