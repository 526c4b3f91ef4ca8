import type { Command } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { offsetActions, rangeText } from '../src/views/cards/paging.ts';
import { winRateColumns, winRateRow } from '../src/views/cards/winRateTable.ts';
import { shownWindows, WINDOW_ALIASES, WINDOW_LABELS, windowDef } from '../src/views/cards/windows.ts';
import { apiOrder, callOpts, checkBounds, labels, limit, offset, order, range, when, whenDate } from './_options.ts';

const SCORE_SORT = {
  performance: 'weightedPerformanceScore',
  consistency: 'consistencyScore',
  auc: 'areaUnderCurveScore',
  tokens: 'numTokensCountedWinRate',
  likes: 'likeScore',
  shares: 'shareScore',
  mentions: 'mentionScore',
  active: 'activeScore',
  engagement: 'engagementScore',
  score: 'scoreV2',
  performance_v2: 'sScoreV2',
  auc_v2: 'aScoreV2',
  consistency_v2: 'lScoreV2',
  engagement_v2: 'eScoreV2',
} as const;
const SORTS = [
  ...WINDOW_LABELS,
  'performance',
  'consistency',
  'auc',
  'tokens',
  'likes',
  'shares',
  'mentions',
  'active',
  'engagement',
  'score',
  'performance_v2',
  'auc_v2',
  'consistency_v2',
  'engagement_v2',
] as const;

const EXAMPLE = '/winrate sort:24h chain:solana';

const options = {
  chain: opt.chain({ description: 'Only tokens on this chain (default: all chains)', positional: true }),
  sort: opt.choice(SORTS, {
    description: 'Sort by a window (5m…24h, 7d) or performance, consistency, auc, tokens, score…',
    noun: 'sort',
    default: '1h',
    // The spec calls scoreV2 "the unified performance score": one choice for both (Discord allows 25).
    aliases: { ...WINDOW_ALIASES, area: 'auc', weighted: 'performance', unified: 'score' },
  }),
  order: order(),
  labels: labels(),
  start: when('Only shills from this date or time ago (2024-05-01, 7d)'),
  end: when('Only shills up to this date or time ago'),
  ...range('score', 'performance score (score v2)', { min: 0 }),
  ...range('performance', 'weighted performance score (v2)', { min: 0 }),
  ...range('auc', 'area-under-curve score (v2)', { min: 0 }),
  ...range('consistency', 'consistency score (v2)', { min: 0 }),
  ...range('engagement', 'engagement score (v2)', { min: 0 }),
  limit: limit(10, 25),
  offset: offset(),
};

export default {
  name: 'winrate',
  description: 'KOL win rates after a shill, by time window, with performance scores',
  options,
  examples: [
    EXAMPLE,
    '/winrate',
    '/winrate sort:consistency labels:alpha',
    '/winrate start:30d min_score:50',
    '/winrate sort:engagement_v2 min_consistency:40',
  ],
  async run(input, ctx) {
    checkBounds(input, EXAMPLE);
    const now = ctx.now();
    const sort = input.sort ?? '1h';
    const window = windowDef(sort);
    const sortField = window ? window.winRateSort : SCORE_SORT[sort as keyof typeof SCORE_SORT];
    const startDate = whenDate(input.start, now, EXAMPLE);
    const endDate = whenDate(input.end, now, EXAMPLE);
    if (startDate && endDate && Date.parse(startDate) > Date.parse(endDate))
      throw new UserError(ctx.t('lists.startAfterEnd', { start: input.start, end: input.end }), EXAMPLE);
    const res = await ctx.api.getKolWinRates(
      {
        offset: input.offset ?? 0,
        limit: input.limit ?? 10,
        chainId: input.chain,
        labels: input.labels,
        sortField,
        sortOrder: apiOrder(input.order),
        startDate,
        endDate,
        minScoreV2: input.min_score,
        maxScoreV2: input.max_score,
        minSScoreV2: input.min_performance,
        maxSScoreV2: input.max_performance,
        minAScoreV2: input.min_auc,
        maxAScoreV2: input.max_auc,
        minLScoreV2: input.min_consistency,
        maxLScoreV2: input.max_consistency,
        minEScoreV2: input.min_engagement,
        maxEScoreV2: input.max_engagement,
      },
      callOpts(ctx),
    );
    const windows = shownWindows(window?.label);
    const page = { offset: input.offset ?? 0, limit: input.limit ?? 10, shown: res.items.length, total: res.total };
    return {
      kind: 'table',
      title: `${ctx.t('lists.winRateTitle')}${input.chain ? ` · ${input.chain}` : ''}`,
      description: res.items.length ? ctx.t('lists.winRateWhat') : ctx.t('lists.noKol'),
      columns: winRateColumns(windows, ctx.t),
      rows: res.items.map((i) => winRateRow(i, windows, ctx.t)),
      footer: `${rangeText(page, ctx.t)} · ${ctx.t('lists.sortedBy', { sort })} ${apiOrder(input.order) === 'ASC' ? '↑' : '↓'}`,
      actions: offsetActions('winrate', input, page, ctx.t),
    };
  },
} satisfies Command<typeof options>;
