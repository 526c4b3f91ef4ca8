import type { Command } from '../src/core/command.ts';
import { opt } from '../src/core/options.ts';
import { kolTableFor } from '../src/views/cards/kolTable.ts';
import { offsetActions, rangeText } from '../src/views/cards/paging.ts';
import {
  apiOrder,
  callOpts,
  checkBounds,
  labels,
  limit,
  numText,
  offset,
  order,
  percentToFraction,
  range,
  DEFAULT_MIN_TOKENS,
} from './_options.ts';

const SORTS = [
  'score',
  'winrate',
  'followers',
  'mentions',
  'impressions',
  'tokens',
  'rug',
  'lose',
  'active',
  'ranking',
  'total',
  'speed',
  'accuracy',
  'legality',
  'engagement',
  'speed_v2',
  'accuracy_v2',
  'legality_v2',
  'engagement_v2',
] as const;
const SORT_FIELD = {
  score: 'scoreV2',
  winrate: 'winrate',
  followers: 'smFollower',
  mentions: 'mention',
  impressions: 'impression',
  tokens: 'totalToken',
  rug: 'rugRate',
  lose: 'loseRate',
  active: 'activeScore',
  ranking: 'userRanking',
  total: 'totalScore',
  speed: 'sScore',
  accuracy: 'aScore',
  legality: 'lScore',
  engagement: 'eScore',
  speed_v2: 'sScoreV2',
  accuracy_v2: 'aScoreV2',
  legality_v2: 'lScoreV2',
  engagement_v2: 'eScoreV2',
} as const satisfies Record<(typeof SORTS)[number], string>;

const EXAMPLE = '/kols sort:winrate min_followers:5';

const options = {
  search: opt.string({ positional: true, max: 50 }),
  sort: opt.choice(SORTS, {
    noun: 'sort',
    default: 'score',
    aliases: { win: 'winrate', win_rate: 'winrate', smart: 'followers', rank: 'ranking', scorev2: 'score' },
  }),
  order: order(),
  labels: labels(),
  last24h: opt.boolean({}),
  ...range('winrate', { min: 0, max: 100 }),
  ...range('followers', { min: 0 }),
  ...range('mentions', { min: 0 }),
  ...range('impressions', { min: 0 }),
  ...range('score', { min: 0 }),
  ...range('tokens', { min: 0 }),
  min_rug: opt.number({ min: 0, max: 100 }),
  max_rug: opt.number({ min: 0, max: 100 }),
  min_lose: opt.number({ min: 0, max: 100 }),
  max_lose: opt.number({ min: 0, max: 100 }),
  min_active: opt.number({ min: 0 }),
  max_active: opt.number({ min: 0 }),
  limit: limit(10, 25),
  offset: offset(),
};

export default {
  name: 'kols',
  options,
  examples: [EXAMPLE, '/kols', '/kols crypto sort:followers', '/kols labels:alpha last24h:yes order:asc sort:ranking'],
  async run(input, ctx) {
    checkBounds(input, EXAMPLE);
    const sort = input.sort ?? 'score';
    const res = await ctx.api.getKolTable(
      {
        offset: input.offset ?? 0,
        limit: input.limit ?? 10,
        sortField: SORT_FIELD[sort],
        // Rank 1 is the best, so "by ranking" reads top-down in ascending order.
        sortOrder: apiOrder(input.order, sort === 'ranking' ? 'asc' : 'desc'),
        search: input.search,
        labels: input.labels,
        last24hMention: input.last24h,
        minWinrate: percentToFraction(input.min_winrate),
        maxWinrate: percentToFraction(input.max_winrate),
        minSmFollower: numText(input.min_followers),
        maxSmFollower: numText(input.max_followers),
        minMention: numText(input.min_mentions),
        maxMention: numText(input.max_mentions),
        minImpression: numText(input.min_impressions),
        maxImpression: numText(input.max_impressions),
        minScoreV2: numText(input.min_score),
        maxScoreV2: numText(input.max_score),
        // Ranked by win rate, a KOL needs a sample: the spec's total_token is the closest count it offers.
        minTotalToken: numText(input.min_tokens ?? (sort === 'winrate' ? DEFAULT_MIN_TOKENS : undefined)),
        maxTotalToken: numText(input.max_tokens),
        minRugRate: percentToFraction(input.min_rug),
        maxRugRate: percentToFraction(input.max_rug),
        minLoseRate: percentToFraction(input.min_lose),
        maxLoseRate: percentToFraction(input.max_lose),
        minActiveScore: numText(input.min_active),
        maxActiveScore: numText(input.max_active),
      },
      callOpts(ctx),
    );
    const page = { offset: input.offset ?? 0, limit: input.limit ?? 10, shown: res.items.length, total: res.total };
    const arrow = apiOrder(input.order, sort === 'ranking' ? 'asc' : 'desc') === 'ASC' ? '↑' : '↓';
    return {
      kind: 'table',
      title: input.search ? ctx.t('lists.kolsMatching', { search: input.search }) : 'KOLs',
      description: [
        res.items.length ? ctx.t('lists.kolDetails') : ctx.t('lists.noKol'),
        ...(sort === 'winrate' && input.min_tokens === undefined
          ? [` ${ctx.t('lists.kolsWinRateMin', { min: DEFAULT_MIN_TOKENS })}`]
          : []),
      ].join(''),
      ...kolTableFor(sort, res.items, ctx.t),
      footer: `${rangeText(page, ctx.t)} · ${ctx.t('lists.sortedBy', { sort })} ${arrow}`,
      actions: offsetActions('kols', input, page, ctx.t),
    };
  },
} satisfies Command<typeof options>;
