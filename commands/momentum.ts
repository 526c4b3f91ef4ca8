import type { Command } from '../src/core/command.ts';
import { opt } from '../src/core/options.ts';
import { budgetFrom, kolNotFound, kolRef, resolveKol } from '../src/core/resolve.ts';
import { winRateLine } from '../src/views/cards/kolCard.ts';
import { momentumColumns, momentumRow, reachedWindows } from '../src/views/cards/momentumTable.ts';
import { offsetActions, rangeText } from '../src/views/cards/paging.ts';
import { momentumPicture } from '../src/pictures/cards.ts';
import { withPicture } from '../src/pictures/draw.ts';
import { shownWindows, WINDOW_ALIASES, WINDOW_LABELS, windowDef } from '../src/views/cards/windows.ts';
import { apiOrder, limit, offset, order, when, whenMs } from './_options.ts';

const SCORE_SORT = {
  recent: 'shillTime',
  performance: 'weightedPerformanceScore',
  consistency: 'consistencyScore',
  auc: 'areaUnderCurveScore',
  unified: 'unifiedPerformanceScore',
  engagement: 'engagementScore',
  score: 'scoreV2',
} as const;
const SORTS = [
  'recent',
  ...WINDOW_LABELS,
  'performance',
  'consistency',
  'auc',
  'unified',
  'engagement',
  'score',
] as const;

const EXAMPLE = '/momentum @cryptoking since:7d sort:24h';

const options = {
  kol: opt.kol({ required: true, positional: true }),
  chain: opt.chain({}),
  sort: opt.choice(SORTS, {
    noun: 'sort',
    default: 'recent',
    aliases: { ...WINDOW_ALIASES, new: 'recent', newest: 'recent', time: 'recent' },
  }),
  order: order(),
  since: when(),
  limit: limit(10, 25),
  offset: offset(),
};

export default {
  name: 'momentum',
  options,
  examples: [EXAMPLE, '/momentum @cryptoking', '/momentum @cryptoking chain:solana sort:performance'],
  async run(input, ctx) {
    const now = ctx.now();
    const sort = input.sort ?? 'recent';
    const window = windowDef(sort);
    const startTime = input.since === undefined ? undefined : Math.floor(whenMs(input.since, now, EXAMPLE) / 1000);
    const call = budgetFrom(ctx);
    const kol = await resolveKol(ctx, input.kol, call);
    const res = await kolNotFound(
      input.kol,
      ctx.api.getKolTokens(
        {
          xUserId: kol.xUserId,
          chainId: input.chain,
          sortField: window ? window.momentumSort : SCORE_SORT[sort as keyof typeof SCORE_SORT],
          sortOrder: apiOrder(input.order),
          startTime,
        },
        call(),
      ),
    );
    // Operation 4 has no paging: the whole list comes at once and is cut here.
    const page = { offset: input.offset ?? 0, limit: input.limit ?? 10, shown: 0, total: res.total };
    const items = res.items.slice(page.offset, page.offset + page.limit);
    const windows = reachedWindows(shownWindows(window?.label), items, now);
    const who = kolRef(kol);
    const drawn = await momentumPicture(ctx, kol, items, sort, now);
    return withPicture(
      {
        kind: 'table',
        title: `${ctx.t('lists.shilledBy', { who })}${input.chain ? ` · ${input.chain}` : ''}`,
        description: res.total
          ? ctx.t('lists.winRate', { line: winRateLine(res.summary, ctx.t) })
          : ctx.t('lists.noShilled'),
        columns: momentumColumns(windows, ctx.t),
        rows: items.map((i) => momentumRow(i, windows, now, ctx.t)),
        footer: `${rangeText({ ...page, shown: items.length }, ctx.t)} · ${ctx.t('lists.sinceShill')} · ${ctx.t('lists.sortedBy', { sort })}`,
        actions: [
          ...offsetActions('momentum', input, { ...page, shown: items.length }, ctx.t),
          { label: ctx.t('lists.kolCard'), command: 'kol', options: { kol: who } },
        ],
      },
      drawn,
    );
  },
} satisfies Command<typeof options>;
