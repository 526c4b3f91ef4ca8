import { ApiNotFoundError, type MindmapGraph } from '../src/api/index.ts';
import type { Command } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { checkAddress, inferChain } from '../src/core/resolve.ts';
import { sameAddress } from '../src/domain/chains.ts';
import { shortAddress } from '../src/views/cards/common.ts';
import { mindmapText } from '../src/views/cards/mindmapText.ts';
import { mindmapPicture } from '../src/pictures/cards.ts';
import { withPicture } from '../src/pictures/draw.ts';
import { callOpts, checkBounds, numText, range } from './_options.ts';

const EXAMPLE = '/mindmap solana So11111111111111111111111111111111111111112 hours:24';

const options = {
  chain: opt.chain({ required: true, positional: true }),
  address: opt.string({ required: true, positional: true, max: 200 }),
  hours: opt.number({ min: 1, max: 720, default: 12 }),
  limit: opt.integer({ min: 1, max: 50, default: 10 }),
  ...range('mcap', { min: 0 }),
  ...range('liquidity', { min: 0 }),
  ...range('score', { min: 0 }),
  ...range('age', { min: 0 }),
  ...range('followers', { min: 0 }),
  ...range('posted', { min: 0 }),
};

export default {
  name: 'mindmap',
  options,
  examples: [
    EXAMPLE,
    '/mindmap solana So11111111111111111111111111111111111111112',
    '/mindmap base 0x4ed4e862860bed51a9570b96d89af5e1b0efefed min_mcap:1m',
  ],
  normalize: inferChain('mindmap'),
  async run(input, ctx) {
    const { chain, address } = input;
    checkAddress(chain, address, EXAMPLE);
    checkBounds(input, EXAMPLE);
    const hours = input.hours ?? 12;
    const limit = input.limit ?? 10;
    let graph: MindmapGraph;
    try {
      graph = await ctx.api.getTokenMindmap(
        {
          chainId: chain,
          address,
          timeFrame: hours,
          limit,
          minMarketCap: numText(input.min_mcap),
          maxMarketCap: numText(input.max_mcap),
          minLiquidity: numText(input.min_liquidity),
          maxLiquidity: numText(input.max_liquidity),
          minScore: numText(input.min_score),
          maxScore: numText(input.max_score),
          minTokenAge: numText(input.min_age),
          maxTokenAge: numText(input.max_age),
          minFollower: numText(input.min_followers),
          maxFollower: numText(input.max_followers),
          minTokenPosted: numText(input.min_posted),
          maxTokenPosted: numText(input.max_posted),
        },
        callOpts(ctx),
      );
    } catch (err) {
      if (err instanceof ApiNotFoundError)
        throw new UserError(ctx.t('mindmap.noToken', { address: shortAddress(address), chain }), EXAMPLE);
      throw err;
    }
    const centre = Object.values(graph.tokens).find(
      (t) => t.chain_id === chain && sameAddress(chain, t.address, address),
    );
    const drawn = await mindmapPicture(ctx, graph, centre, hours);
    return withPicture(
      {
        kind: 'text',
        text: mindmapText(graph, centre, hours, limit, ctx.t),
        actions: [{ label: ctx.t('feed.tokenCard'), command: 'token', options: { chain, address } }],
      },
      drawn,
    );
  },
} satisfies Command<typeof options>;
