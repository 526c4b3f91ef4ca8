import { setMuted } from '../src/alerts/subscriptions.ts';
import { ADDRESS_HINT, CHAIN_LABEL, type ChainId, isValidAddress, tokenKeyOf } from '../src/domain/chains.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { findOnChains } from '../src/core/lookup.ts';
import { budgetFrom } from '../src/core/resolve.ts';
import { shortAddress } from '../src/views/cards/common.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { requireSubscription } from './_subscription.ts';

const options = {
  chain: opt.chain({ required: true, positional: true }),
  address: opt.string({ required: true, positional: true }),
  off: opt.boolean({}),
};

export default {
  name: 'mute',
  options,
  chatSettings: true,
  examples: [
    '/mute solana So11111111111111111111111111111111111111112',
    '/mute base 0x4200000000000000000000000000000000000006 off:yes',
  ],
  requires: 'manage',
  async run({ chain, address, off }, ctx) {
    if (!isValidAddress(chain, address))
      throw new UserError(
        {
          key: 'errors.notAddress',
          values: { chain: CHAIN_LABEL[chain], expected: { key: `errors.address.${ADDRESS_HINT[chain]}` } },
        },
        `/mute ${chain} <address>`,
      );
    const sub = await requireSubscription(ctx);
    const [token] = await Promise.all([
      tokenName(ctx, chain, address),
      setMuted(ctx.store.subscriptions, sub, tokenKeyOf(chain, address), !off, ctx.now()),
    ]);
    return {
      kind: 'text',
      text: off
        ? ctx.t('subscribe.unmuted', { token, chain })
        : ctx.t('subscribe.muted', { token, chain, undo: `/mute ${chain} ${address} off:yes` }),
    };
  },
} satisfies Command<typeof options>;

/**
 * "$SOL (So11…1112)": the token as people call it, with enough of the address to
 * tell clones apart. Muting does not depend on the lookup: when the analytics do
 * not list the token or cannot answer, the short address alone names it.
 */
async function tokenName(ctx: CommandContext, chain: ChainId, address: string): Promise<string> {
  try {
    const [hit] = await findOnChains(ctx.api, address, [chain], budgetFrom(ctx)());
    if (hit) return `$${hit.item.token.symbol} (${shortAddress(address)})`;
  } catch (err) {
    ctx.log.debug({ err }, 'mute: token name unavailable');
  }
  return shortAddress(address);
}
