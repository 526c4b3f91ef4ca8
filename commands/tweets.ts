import type { Command, CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { type Input, opt } from '../src/core/options.ts';
import { checkAddress, inferChain } from '../src/core/resolve.ts';
import { sameAddress } from '../src/domain/chains.ts';
import { shortAddress, ticker } from '../src/views/cards/common.ts';
import { cursorActions } from '../src/views/cards/paging.ts';
import { fromListTweet, fromTokenTweet, tweetField } from '../src/views/cards/tweets.ts';
import type { CardView } from '../src/domain/view.ts';
import { back, callOpts, checkBounds, cursor, labels, order, range } from './_options.ts';

const FEED_SORT = {
  newest: 'tweetedAt',
  tokenscore: 'tokenScore',
  kolscore: 'kolScore',
  followers: 'followerCount',
} as const;
const TOKEN_SORT = { newest: 'tweetedAt', ranking: 'rankingScore', score: 'scoreV2' } as const;
const SORTS = ['newest', 'tokenscore', 'kolscore', 'followers', 'ranking', 'score'] as const;
const FEED_ONLY = [
  'chains',
  'types',
  'min_token_score',
  'max_token_score',
  'min_kol_score',
  'max_kol_score',
  'min_followers',
  'max_followers',
] as const;

const EXAMPLE = '/tweets chains:solana,base min_kol_score:60';
const TOKEN_EXAMPLE = '/tweets solana So11111111111111111111111111111111111111112';

const options = {
  chain: opt.chain({
    positional: true,
  }),
  address: opt.string({ positional: true, max: 200 }),
  chains: opt.list(opt.chain({}), {}),
  types: opt.list(opt.string({ max: 30 }), {
    max: 10,
  }),
  ...range('token_score', { min: 0 }),
  ...range('kol_score', { min: 0 }),
  ...range('followers', { min: 0 }),
  labels: labels(),
  sort: opt.choice(SORTS, {
    noun: 'sort',
    default: 'newest',
    aliases: { new: 'newest', latest: 'newest', time: 'newest', rank: 'ranking' },
  }),
  order: order(),
  limit: opt.integer({ min: 1, max: 10, default: 5 }),
  cursor: cursor(),
  back: back(),
};

type In = Input<typeof options>;

export default {
  name: 'tweets',
  options,
  examples: [EXAMPLE, '/tweets', TOKEN_EXAMPLE, '/tweets types:tweet,quote sort:kolscore min_followers:10k'],
  normalize: inferChain('tweets'),
  async run(input, ctx) {
    checkBounds(input, EXAMPLE);
    return input.chain && input.address ? byToken(input, input.chain, input.address, ctx) : feed(input, ctx);
  },
} satisfies Command<typeof options>;

async function byToken(
  input: In,
  chain: NonNullable<In['chain']>,
  address: string,
  ctx: CommandContext,
): Promise<CardView> {
  checkAddress(chain, address, TOKEN_EXAMPLE);
  const misplaced = FEED_ONLY.find((k) => input[k] !== undefined);
  if (misplaced) throw new UserError(ctx.t('feed.feedOnly', { option: misplaced }), EXAMPLE);
  const sort = input.sort ?? 'newest';
  if (!(sort in TOKEN_SORT)) throw new UserError(ctx.t('feed.tokenSort', { sort }), `${TOKEN_EXAMPLE} sort:ranking`);
  const res = await ctx.api.getTweetsByToken(
    {
      chainId: chain,
      tokenAddress: address,
      limit: input.limit ?? 5,
      cursor: input.cursor,
      labels: input.labels,
      sortField: TOKEN_SORT[sort as keyof typeof TOKEN_SORT],
      sortOrder: input.order,
    },
    callOpts(ctx),
  );
  const now = ctx.now();
  const token = res.items
    .flatMap((t) => t.highlights)
    .find((h) => sameAddress(chain, h.token.token_address, address))?.token;
  const name = token ? ticker(token.symbol, token.name) : shortAddress(address);
  return {
    kind: 'card',
    title: ctx.t('feed.aboutTitle', { name, chain }),
    ...(res.items.length
      ? {}
      : { description: input.cursor ? ctx.t('feed.noMore') : ctx.t('feed.noneAbout', { name, chain }) }),
    fields: res.items.map((t) => tweetField(fromTokenTweet(t), now, 220, ctx.t)),
    colour: 'brand',
    actions: [
      ...cursorActions('tweets', input, { cursor: input.cursor, back: input.back, next: res.next_cursor }, ctx.t),
      { label: ctx.t('feed.tokenCard'), command: 'token', options: { chain, address } },
    ],
  };
}

async function feed(input: In, ctx: CommandContext): Promise<CardView> {
  const sort = input.sort ?? 'newest';
  if (!(sort in FEED_SORT)) throw new UserError(ctx.t('feed.feedSort', { sort }), '/tweets sort:kolscore');
  const chains = input.chains ?? (input.chain ? [input.chain] : undefined);
  const res = await ctx.api.getTweets(
    {
      limit: input.limit ?? 5,
      cursor: input.cursor,
      labels: input.labels,
      chainId: chains,
      tweetTypes: input.types,
      minTokenScore: input.min_token_score,
      maxTokenScore: input.max_token_score,
      minKolScore: input.min_kol_score,
      maxKolScore: input.max_kol_score,
      minFollowerCount: input.min_followers,
      maxFollowerCount: input.max_followers,
      sortField: FEED_SORT[sort as keyof typeof FEED_SORT],
      sortOrder: input.order,
    },
    callOpts(ctx),
  );
  const now = ctx.now();
  const filters = [chains?.join(', '), input.types?.join(', '), input.labels?.join(', ')].filter(Boolean).join(' · ');
  return {
    kind: 'card',
    title: `${ctx.t('feed.title')}${filters ? ` · ${filters}` : ''}`,
    ...(res.items.length ? {} : { description: input.cursor ? ctx.t('feed.noMore') : ctx.t('feed.noneMatch') }),
    fields: res.items.map((t) => tweetField(fromListTweet(t), now, 220, ctx.t)),
    colour: 'brand',
    actions: cursorActions('tweets', input, { cursor: input.cursor, back: input.back, next: res.next_cursor }, ctx.t),
  };
}
