import type { TokenAnalyticsItem, TokenAnalyticsSortField } from '../src/api/index.ts';
import { type ChainId, chainsForAddress } from '../src/domain/chains.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { sameAddress } from '../src/domain/chains.ts';
import { opt } from '../src/core/options.ts';
import { formats } from '../src/i18n/format.ts';
import { offsetActions, rangeText } from '../src/views/cards/paging.ts';
import { tokenColumnKeys, tokenColumns, tokenNote, tokenRow } from '../src/views/cards/tokenTable.ts';
import { apiOrder, callOpts, checkBounds, limit, numText, offset, order, range } from './_options.ts';

/**
 * The chain of each row whose symbol the page shows more than once (a symbol
 * often lives on several chains). The list does not carry chains: the address
 * tells the family, and where it fits two chains (EVM, Move) each is asked.
 * A chain that cannot be told shows as its candidates, e.g. "bsc/base".
 */
async function chainsOfRepeated(
  ctx: CommandContext,
  items: readonly TokenAnalyticsItem[],
  filter: ChainId | undefined,
): Promise<Map<string, string>> {
  // A chain filter names the chain once, in the title.
  if (filter) return new Map();
  const count = new Map<string, number>();
  for (const t of items) count.set(t.token.symbol.toLowerCase(), (count.get(t.token.symbol.toLowerCase()) ?? 0) + 1);
  const repeated = items.filter((t) => (count.get(t.token.symbol.toLowerCase()) ?? 0) > 1);
  const found = await Promise.all(
    repeated.map(async (t): Promise<[string, string]> => {
      const candidates = chainsForAddress(t.token.address);
      if (candidates.length <= 1) return [t.token.id, candidates[0] ?? '?'];
      const hits = await Promise.all(
        candidates.map((c) =>
          ctx.api.getTokenAnalytics({ tokenAddress: t.token.address, chainId: c, limit: 5 }, callOpts(ctx)).then(
            (r) => (r.items.some((i) => sameAddress(c, i.token.address, t.token.address)) ? c : undefined),
            () => undefined,
          ),
        ),
      );
      const on = hits.filter((c): c is ChainId => c !== undefined);
      return [t.token.id, on.length === 1 ? on[0]! : candidates.join('/')];
    }),
  );
  return new Map(found);
}

/** Friendly sort -> API sortField and the column that shows it. */
const SORT = {
  change1h: ['h1_change', 'h1'],
  change5m: ['m5_change', 'm5'],
  change4h: ['h4_change', 'h4'],
  change24h: ['h24_change', 'h24'],
  mcap: ['market_cap', 'mcap'],
  liquidity: ['liquidity', 'liquidity'],
  age: ['token_age', 'age'],
  new: ['token_created_at', 'age'],
  mentions: ['mention', 'mentions'],
  impressions: ['impression', 'impressions'],
  followers: ['smart_follower', 'followers'],
  score: ['scoreV2', 'score'],
  avgscore: ['avg_score', 'avgscore'],
  avgscorev2: ['avg_score_v2', 'avgscorev2'],
  totalscore: ['total_score', 'totalscore'],
} as const satisfies Record<string, readonly [TokenAnalyticsSortField, string]>;
const SORTS = Object.keys(SORT) as [keyof typeof SORT, ...(keyof typeof SORT)[]];

const EXAMPLE = '/tokens chain:solana sort:change24h min_mcap:100k';

const options = {
  search: opt.string({ positional: true, max: 100 }),
  chain: opt.chain({}),
  sort: opt.choice(SORTS, {
    noun: 'sort',
    default: 'change1h',
    aliases: {
      marketcap: 'mcap',
      market_cap: 'mcap',
      liq: 'liquidity',
      newest: 'new',
      '1h': 'change1h',
      '24h': 'change24h',
      '5m': 'change5m',
      '4h': 'change4h',
    },
  }),
  order: order(),
  new: opt.integer({ min: 1, max: 168 }),
  ...range('mcap', { min: 0 }),
  ...range('liquidity', { min: 0 }),
  ...range('age', { min: 0 }),
  ...range('mentions', { min: 0 }),
  ...range('followers', { min: 0 }),
  ...range('score', { min: 0 }),
  ...range('change24h'),
  limit: limit(10, 25),
  offset: offset(),
};

export default {
  name: 'tokens',
  options,
  examples: [
    EXAMPLE,
    '/tokens',
    '/tokens pepe',
    '/tokens sort:new new:24 chain:base',
    '/tokens sort:mentions order:desc min_liquidity:50k',
  ],
  async run(input, ctx) {
    checkBounds(input, EXAMPLE);
    const sort = input.sort ?? 'change1h';
    const [sortField, column] = SORT[sort];
    const res = await ctx.api.getTokenAnalytics(
      {
        offset: input.offset ?? 0,
        limit: input.limit ?? 10,
        sortField,
        sortOrder: apiOrder(input.order),
        chainId: input.chain,
        tokenAddress: input.search,
        newToken: input.new,
        minMarketCap: numText(input.min_mcap),
        maxMarketCap: numText(input.max_mcap),
        minLiquidity: numText(input.min_liquidity),
        maxLiquidity: numText(input.max_liquidity),
        minAge: numText(input.min_age),
        maxAge: numText(input.max_age),
        minMention: numText(input.min_mentions),
        maxMention: numText(input.max_mentions),
        minSmartFollower: numText(input.min_followers),
        maxSmartFollower: numText(input.max_followers),
        minScoreV2: numText(input.min_score),
        maxScoreV2: numText(input.max_score),
        minH24Change: numText(input.min_change24h),
        maxH24Change: numText(input.max_change24h),
      },
      callOpts(ctx),
    );
    const keys = tokenColumnKeys(column);
    const chains = await chainsOfRepeated(ctx, res.items, input.chain);
    const page = { offset: input.offset ?? 0, limit: input.limit ?? 10, shown: res.items.length, total: res.total };
    const t = ctx.t;
    const where = [
      input.chain,
      input.search && `“${input.search}”`,
      input.new && t('lists.newIn', { hours: input.new }),
    ]
      .filter(Boolean)
      .join(' · ');
    return {
      kind: 'table',
      title: `${t('lists.tokens')}${where ? ` · ${where}` : ''}`,
      description: res.items.length
        ? t('lists.tokensNew', { count: res.new_token_count24h, n: formats(ctx.locale).int(res.new_token_count24h) })
        : t('lists.noToken'),
      columns: tokenColumns(keys, t),
      rows: res.items.map((x) => tokenRow(x, keys, chains.get(x.token.id), t)),
      notes: res.items.map((x) => tokenNote(x, chains.get(x.token.id))),
      footer: `${rangeText(page, t)} · ${t('lists.sortedBy', { sort })} ${apiOrder(input.order) === 'ASC' ? '↑' : '↓'}`,
      actions: offsetActions('tokens', input, page, t),
    };
  },
} satisfies Command<typeof options>;
