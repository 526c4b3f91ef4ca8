import type { Command } from '../src/core/command.ts';
import { opt } from '../src/core/options.ts';
import { rankCallers } from '../src/domain/board.ts';
import type { View } from '../src/domain/view.ts';
import { boardColumns, boardRows, boardRule } from '../src/views/cards/memberCalls.ts';
import { offsetActions, rangeText } from '../src/views/cards/paging.ts';
import { boardHere, PERIOD_ALIASES, PERIOD_MS } from './_board.ts';

const PAGE = 10;

const options = {
  period: opt.choice(['1d', '7d', '30d', 'all'], {
    noun: 'period',
    positional: true,
    default: '7d',
    aliases: PERIOD_ALIASES,
  }),
  sort: opt.choice(['hit', 'median', 'best', 'calls'], {
    noun: 'sort',
    default: 'hit',
    aliases: { rate: 'hit', hits: 'hit', peak: 'best' },
  }),
  offset: opt.integer({ min: 0, default: 0, internal: true }),
};

export default {
  name: 'lb',
  options,
  chatSettings: true,
  audience: 'members',
  examples: ['/lb', '/lb 30d', '/lb all sort:best'],
  async run(input, ctx): Promise<View> {
    const board = boardHere(ctx);
    const t = ctx.t;
    const period = input.period ?? '7d';
    const calls = await ctx.store.members.list(board, ctx.now() - PERIOD_MS[period]);
    const ranked = rankCallers(calls, input.sort ?? 'hit');
    const rule = boardRule(t);
    const periodText = period === 'all' ? t('calls.periodAll') : t('calls.periodLast', { period });
    if (!ranked.length) return { kind: 'text', text: `${t('board.lbNone', { min: 3 })}\n${rule}` };
    const offset = input.offset ?? 0;
    const rows = ranked.slice(offset, offset + PAGE);
    const page = { offset, limit: PAGE, shown: rows.length, total: ranked.length };
    return {
      kind: 'table',
      title: t('board.lbTitle', { period: periodText }),
      description: rule,
      columns: boardColumns(t),
      rows: boardRows(rows, offset, t),
      footer: rangeText(page, t),
      actions: offsetActions('lb', { ...input, offset: undefined }, page, t),
    };
  },
} satisfies Command<typeof options>;
