import type { Command } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { cursorActions, rangeText } from '../src/views/cards/paging.ts';
import type { WinRateItem } from '../src/api/index.ts';
import { formats } from '../src/i18n/format.ts';
import { winRateColumns, winRateRow, winRateWindows } from '../src/views/cards/winRateTable.ts';
import { WINDOW_ALIASES, WINDOW_LABELS, windowDef } from '../src/views/cards/windows.ts';
import {
  apiOrder,
  back,
  callOpts,
  checkBounds,
  cursor,
  DEFAULT_MIN_TOKENS,
  labels,
  limit,
  offset,
  order,
  range,
  when,
  whenDate,
} from './_options.ts';

/** Operation 5 has no minimum-sample filter and returns at most 30 rows a page: read up to this many pages. */
export const WINRATE_PAGES = 4;
const UPSTREAM_PAGE = 30;

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
  chain: opt.chain({ positional: true }),
  sort: opt.choice(SORTS, {
    noun: 'sort',
    default: '1h',
    // The spec calls scoreV2 "the unified performance score": one choice for both (Discord allows 25).
    aliases: { ...WINDOW_ALIASES, area: 'auc', weighted: 'performance', unified: 'score' },
  }),
  order: order(),
  labels: labels(),
  start: when(),
  end: when(),
  ...range('score', { min: 0 }),
  ...range('performance', { min: 0 }),
  ...range('auc', { min: 0 }),
  ...range('consistency', { min: 0 }),
  ...range('engagement', { min: 0 }),
  min_tokens: opt.integer({
    min: 1,
    max: 1000,
    default: DEFAULT_MIN_TOKENS,
  }),
  limit: limit(10, 25),
  offset: offset(),
  cursor: cursor(),
  back: back(),
};

export default {
  name: 'winrate',
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
    const filters = {
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
    };
    const want = input.limit ?? 10;
    const minTokens = input.min_tokens ?? DEFAULT_MIN_TOKENS;
    const offset = input.offset ?? 0;
    // Where this page's scan starts in the upstream ranking: the Next button carries it;
    // a typed offset (no cursor) skips that many qualifying KOLs from the top.
    const start = Number(input.cursor ?? 0);
    let skip = input.cursor === undefined ? offset : 0;
    const rows: WinRateItem[] = [];
    let next = start;
    let total = 0;
    for (let page = 0; page < WINRATE_PAGES && rows.length < want; page++) {
      const res = await ctx.api.getKolWinRates({ ...filters, offset: next, limit: UPSTREAM_PAGE }, callOpts(ctx));
      total = res.total;
      for (const item of res.items) {
        next++;
        if (item.num_tokens_counted_win_rate < minTokens) continue;
        if (skip > 0) skip--;
        else rows.push(item);
        if (rows.length === want) break;
      }
      if (res.items.length < UPSTREAM_PAGE || next >= total) break;
    }
    const windows = winRateWindows(window?.label);
    const t = ctx.t;
    const { int } = formats(ctx.locale);
    const ranked = t('lists.winRateRanked', { min: int(minTokens), top: int(next), by: sort });
    const page = { offset, limit: want, shown: rows.length };
    const more = next < total ? String(next) : null;
    const actions = cursorActions('winrate', input, { cursor: input.cursor, back: input.back, next: more }, t).map(
      (a) => ({
        ...a,
        options: {
          ...a.options,
          offset: a.options['cursor'] === more && more !== null ? offset + rows.length : Math.max(0, offset - want),
        },
      }),
    );
    return {
      kind: 'table',
      title: `${t('lists.winRateTitle')}${input.chain ? ` · ${input.chain}` : ''}`,
      description: rows.length ? `${t('lists.winRateWhat')} ${ranked}` : `${t('lists.noKol')} ${ranked}`,
      columns: winRateColumns(windows, t),
      rows: rows.map((i) => winRateRow(i, windows, t)),
      footer: `${rangeText(page, t)} · ${t('lists.sortedBy', { sort })} ${apiOrder(input.order) === 'ASC' ? '↑' : '↓'}`,
      actions,
    };
  },
} satisfies Command<typeof options>;
