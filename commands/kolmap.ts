import type { Command } from '../src/core/command.ts';
import { opt } from '../src/core/options.ts';
import { budgetFrom, kolNotFound, kolRef, resolveKol } from '../src/core/resolve.ts';
import { excerpt, ticker } from '../src/views/cards/common.ts';
import { offsetActions, rangeText } from '../src/views/cards/paging.ts';
import type { Action } from '../src/domain/view.ts';
import { limit, offset } from './_options.ts';

/** Token-card buttons for the first rows; the rest are a copy away in the notes. */
const CARD_BUTTONS = 3;

const options = {
  kol: opt.kol({ required: true, positional: true }),
  limit: limit(10, 25),
  offset: offset(),
};

export default {
  name: 'kolmap',
  options,
  examples: ['/kolmap @cryptoking', '/kolmap @cryptoking limit:20'],
  async run(input, ctx) {
    const call = budgetFrom(ctx);
    const kol = await resolveKol(ctx, input.kol, call);
    const page = { offset: input.offset ?? 0, limit: input.limit ?? 10 };
    const res = await kolNotFound(input.kol, ctx.api.getKolMindmap({ xUserId: kol.xUserId, ...page }, call()));
    const shown = { ...page, shown: res.items.length, total: res.total };
    const who = kolRef(kol);
    const cards = res.items.slice(0, CARD_BUTTONS).map(
      (t): Action => ({
        label: ticker(t.symbol, t.name),
        command: 'token',
        options: { chain: t.chain_id, address: t.address },
      }),
    );
    return {
      kind: 'table',
      title: ctx.t('kolmap.title', { who }),
      ...(res.items.length ? {} : { description: ctx.t('kolmap.none', { who }) }),
      columns: [
        { key: 'n', label: '#', align: 'right' },
        { key: 'token', label: ctx.t('columns.token') },
        { key: 'name', label: ctx.t('columns.name') },
        { key: 'chain', label: ctx.t('columns.chain') },
      ],
      rows: res.items.map((t, i) => ({
        n: String(page.offset + i + 1),
        token: ticker(t.symbol, t.name),
        name: excerpt(t.name, 24),
        chain: t.chain_id,
      })),
      notes: res.items.map((t) => [`${ticker(t.symbol, t.name)} `, { code: t.address }]),
      footer: rangeText(shown, ctx.t),
      actions: [
        ...offsetActions('kolmap', input, shown, ctx.t),
        ...cards,
        { label: ctx.t('lists.kolCard'), command: 'kol', options: { kol: who } },
      ],
    };
  },
} satisfies Command<typeof options>;
