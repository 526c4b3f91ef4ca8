import { chainsForAddress, type ChainId } from '../src/core/chains.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { checkAddress, inferChain, sameAddress } from '../src/core/resolve.ts';
import { shortAddress } from '../src/views/cards/common.ts';
import { priceStripPicture, withPicture } from '../src/views/cards/pictures.ts';
import { tokenCard } from '../src/views/cards/tokenCard.ts';
import { fromTokenTweet } from '../src/views/cards/tweets.ts';

const EXAMPLE = '/token solana So11111111111111111111111111111111111111112';
const TWEETS = 4;

const options = {
  chain: opt.chain({ description: 'Chain: solana, bsc, base, sui or aptos (found from the address when left out)', positional: true, example: 'solana' }),
  address: opt.string({ description: 'Token address (contract, mint or coin type)', required: true, positional: true, max: 200 }),
};

/**
 * An address several chains share (0x… on BSC and Base, Move types on Sui and
 * Aptos) is looked up on each of them at once; the one that has it wins.
 */
async function findChain(ctx: CommandContext, address: string, call: { signal: AbortSignal; budgetMs: number }): Promise<ChainId> {
  const candidates = chainsForAddress(address);
  if (!candidates.length) throw new UserError(`'${shortAddress(address)}' is not a token address on any chain I know.`, EXAMPLE);
  if (candidates.length === 1) return candidates[0]!;
  const hits = await Promise.all(
    candidates.map(async (c) => ((await ctx.api.getTokenAnalytics({ tokenAddress: address, chainId: c, limit: 20 }, call)).items.some((i) => sameAddress(c, i.token.address, address)) ? c : undefined)),
  );
  const found = hits.filter((c): c is ChainId => c !== undefined);
  if (found.length === 1) return found[0]!;
  if (!found.length) throw new UserError(`No token ${shortAddress(address)} on ${candidates.join(' or ')}. Check the address, or search by name:`, '/tokens search:pepe');
  throw new UserError(`${shortAddress(address)} exists on ${found.join(' and ')}. Which one? ${found.map((c) => `/token ${c} ${address}`).join(' or ')}`, `/token ${found[0]} ${address}`);
}

export default {
  name: 'token',
  description: 'Token card: market cap, liquidity, price changes, mentions, scores and latest tweets',
  options,
  examples: [EXAMPLE, '/token bsc 0x55d398326f99059fF775485246999027B3197955'],
  normalize: inferChain('token', { ambiguous: 'leave' }),
  async run({ chain: given, address }, ctx) {
    const call = { signal: ctx.signal, budgetMs: ctx.budgetMs };
    const chain = given ?? (await findChain(ctx, address, call));
    checkAddress(chain, address, EXAMPLE);
    const [found, tweets] = await Promise.all([
      ctx.api.getTokenAnalytics({ tokenAddress: address, chainId: chain, limit: 20 }, call),
      // The card is still worth showing without its tweets.
      ctx.api.getTweetsByToken({ chainId: chain, tokenAddress: address, limit: TWEETS }, call).then(
        (r) => r.items.map(fromTokenTweet),
        (err: unknown) => {
          ctx.log.warn({ err }, 'token card without tweets');
          return undefined;
        },
      ),
    ]);
    const item = found.items.find((i) => sameAddress(chain, i.token.address, address));
    if (!item) {
      throw new UserError(`No token ${shortAddress(address)} on ${chain}. Check the address, or search by name:`, `/tokens chain:${chain} search:pepe`);
    }
    const card = tokenCard({ chain, item, tweets: tweets?.slice(0, TWEETS), now: ctx.now() });
    return withPicture(card, await priceStripPicture(ctx, chain, item));
  },
} satisfies Command<typeof options>;
