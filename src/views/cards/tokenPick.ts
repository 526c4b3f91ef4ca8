/** `/token <name>` with several matches: a short pick list, one button per token opening its card. */
import type { FoundToken } from '../../core/lookup.ts';
import { LOOKUP_TEXT } from '../../core/lookup-text.ts';
import { age, compact, usd } from '../format.ts';
import type { Action, TableView } from '../model.ts';
import { ticker } from './common.ts';

export const PICK_MAX = 5;

export function tokenPickList(query: string, found: readonly FoundToken[]): TableView {
  const shown = found.slice(0, PICK_MAX);
  const actions: Action[] = shown.map((f, i) => ({
    label: `${i + 1}. ${ticker(f.item.token.symbol, f.item.token.name)} · ${f.chain}`,
    command: 'token',
    options: { chain: f.chain, address: f.item.token.address },
  }));
  return {
    kind: 'table',
    title: LOOKUP_TEXT.pickTitle(query),
    description: LOOKUP_TEXT.pickHint,
    columns: [
      { key: 'n', label: '#' },
      { key: 'token', label: 'Token' },
      { key: 'chain', label: 'Chain' },
      { key: 'mcap', label: 'MCap', align: 'right' },
      { key: 'age', label: 'Age', align: 'right' },
      { key: 'mentions', label: 'Mentions', align: 'right' },
    ],
    rows: shown.map((f, i) => ({
      n: String(i + 1),
      token: ticker(f.item.token.symbol, f.item.token.name),
      chain: f.chain,
      mcap: usd(f.item.marketcap),
      age: age(f.item.token_age, 'days'),
      mentions: compact(f.item.mention),
    })),
    ...(found.length > PICK_MAX ? { footer: LOOKUP_TEXT.pickMore(found.length - PICK_MAX) } : {}),
    actions,
  };
}
