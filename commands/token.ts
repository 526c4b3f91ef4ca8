import { CHAIN_ALIASES, CHAINS, chainsForAddress, suggest, type ChainId } from '../src/domain/chains.ts';
import type { Command, CommandContext, RawArgs } from '../src/core/command.ts';
import { findTokenRefs } from '../src/core/detect.ts';
import { UserError } from '../src/core/errors.ts';
import { findOnChains, searchTerm, searchTokens, type FoundToken } from '../src/core/lookup.ts';
import { opt } from '../src/core/options.ts';
import { checkAddress, inferChain } from '../src/core/resolve.ts';
import { shortAddress } from '../src/views/cards/common.ts';
import { priceStripPicture } from '../src/pictures/cards.ts';
import { withPicture } from '../src/pictures/draw.ts';
import { tokenCard } from '../src/views/cards/tokenCard.ts';
import { tokenPickList } from '../src/views/cards/tokenPick.ts';
import { fromTokenTweet } from '../src/views/cards/tweets.ts';

const EXAMPLE = '/token solana So11111111111111111111111111111111111111112';
const TWEETS = 4;
const NO_MATCH_EXAMPLE = '/token $PEPE';

const options = {
  chain: opt.chain({
    positional: true,
    example: 'solana',
  }),
  address: opt.string({
    required: true,
    positional: true,
    max: 200,
    autocomplete: 'token',
  }),
};

type Call = { signal: AbortSignal; budgetMs: number };

/**
 * An address several chains share (0x… on BSC and Base, Move types on Sui and
 * Aptos) is looked up on each of them at once; the one that has it wins.
 */
async function findChain(
  ctx: CommandContext,
  address: string,
  candidates: readonly ChainId[],
  call: Call,
): Promise<ChainId> {
  if (!candidates.length) throw new UserError(ctx.t('token.noChain', { address: shortAddress(address) }), EXAMPLE);
  if (candidates.length === 1) return candidates[0]!;
  const found = (await findOnChains(ctx.api, address, candidates, call)).map((f) => f.chain);
  if (found.length === 1) return found[0]!;
  if (!found.length)
    throw new UserError(
      { key: 'token.notOn', values: { address: shortAddress(address), chains: { or: candidates } } },
      '/token pepe',
    );
  throw new UserError(
    {
      key: 'token.onSeveral',
      values: {
        address: shortAddress(address),
        chains: { and: found },
        commands: { or: found.map((c) => `/token ${c} ${address}`) },
      },
    },
    `/token ${found[0]} ${address}`,
  );
}

const CHAIN_WORDS = [...CHAINS, ...Object.keys(CHAIN_ALIASES)];
const isChainWord = (v: unknown): boolean =>
  typeof v === 'string' &&
  ((CHAINS as readonly string[]).includes(v.trim().toLowerCase()) || v.trim().toLowerCase() in CHAIN_ALIASES);

/**
 * On top of the address conveniences (`/token <address>` finds the chain):
 * a first word that is no chain is what to look for, so `/token pepe`,
 * `/token $PEPE` and `/token shiba inu` search by name instead of answering
 * "Unknown chain".
 */
function normalize(raw: RawArgs): RawArgs {
  // An autocomplete choice carries "<chain> <address>" in the address option.
  const picked =
    typeof raw.address === 'string' && (raw.chain === undefined || raw.chain === '')
      ? /^(\S+)\s+(\S+)$/.exec(raw.address.trim())
      : null;
  if (picked && isChainWord(picked[1]) && chainsForAddress(picked[2]!).length)
    raw = { ...raw, chain: picked[1], address: picked[2] };
  const r = inferChain('token', { ambiguous: 'leave' })(raw);
  const { chain, address } = r;
  if (typeof chain !== 'string' || isChainWord(chain)) return r;
  // `/token solanaa <address>` (or any second word after a near-chain) is a typo of a chain: its answer says so.
  const second = typeof address === 'string' && address.trim() !== '';
  if (
    second &&
    (chainsForAddress(address.trim()).length || findTokenRefs(address, 1).length || suggest(chain.trim(), CHAIN_WORDS))
  )
    return r;
  const rest = typeof address === 'string' && address !== '' ? ` ${address}` : '';
  return { ...r, chain: undefined, address: `${chain.trim()}${rest}` };
}

async function card(ctx: CommandContext, chain: ChainId, address: string, call: Call) {
  const [found, tweets] = await Promise.all([
    findOnChains(ctx.api, address, [chain], call),
    // The card is still worth showing without its tweets.
    ctx.api.getTweetsByToken({ chainId: chain, tokenAddress: address, limit: TWEETS }, call).then(
      (r) => r.items.map(fromTokenTweet),
      (err: unknown) => {
        ctx.log.warn({ err }, 'token card without tweets');
        return undefined;
      },
    ),
  ]);
  const item = found[0]?.item;
  if (!item) {
    throw new UserError(
      { key: 'token.notOn', values: { address: shortAddress(address), chains: { or: [chain] } } },
      `/token pepe chain:${chain}`,
    );
  }
  const view = tokenCard(
    { chain, item, tweets: tweets?.slice(0, TWEETS), now: ctx.now(), ...(ctx.links ? { links: ctx.links } : {}) },
    ctx.t,
  );
  return withPicture(view, await priceStripPicture(ctx, item));
}

async function byName(ctx: CommandContext, query: string, chain: ChainId | undefined, call: Call) {
  if (!searchTerm(query)) throw new UserError(ctx.t('lookup.tooShort'), NO_MATCH_EXAMPLE);
  const { exact, ranked } = await searchTokens(ctx.api, query, chain, call);
  const only: FoundToken | undefined = exact.length === 1 ? exact[0] : ranked.length === 1 ? ranked[0] : undefined;
  if (only) return card(ctx, only.chain, only.item.token.address, call);
  if (!ranked.length) throw new UserError(ctx.t('lookup.noMatch', { query: query.trim() }), NO_MATCH_EXAMPLE);
  return tokenPickList(query.trim(), exact.length > 1 ? exact : ranked, ctx.t);
}

export default {
  name: 'token',
  options,
  examples: [
    EXAMPLE,
    '/token $PEPE',
    '/token pepe chain:solana',
    '/token bsc 0x55d398326f99059fF775485246999027B3197955',
  ],
  normalize,
  async run({ chain: given, address: text }, ctx) {
    const call = { signal: ctx.signal, budgetMs: ctx.budgetMs };
    const input = text.trim();
    // A mistyped address (`0x1234`) is answered about its format, not searched as a name.
    const addressLike = /^0x[0-9a-f]/i.test(input) || /^[1-9A-HJ-NP-Za-km-z]{26,}$/.test(input);
    if (!chainsForAddress(input).length && !(addressLike && given)) {
      // A link (or an address inside other text) names the token; otherwise it is a name.
      const ref = findTokenRefs(input, 1)[0];
      if (!ref) return byName(ctx, input, given, call);
      const chain = given ?? (await findChain(ctx, ref.address, ref.chains, call));
      return card(ctx, chain, ref.address, call);
    }
    const chain = given ?? (await findChain(ctx, input, chainsForAddress(input), call));
    checkAddress(chain, input, EXAMPLE);
    return card(ctx, chain, input, call);
  },
} satisfies Command<typeof options>;
