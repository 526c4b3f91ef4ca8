import { setMuted } from '../src/alerts/subscriptions.ts';
import { ADDRESS_HINT, CHAIN_LABEL, isValidAddress, tokenKeyOf } from '../src/domain/chains.ts';
import type { Command } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { requireSubscription } from './_subscription.ts';

const options = {
  chain: opt.chain({ description: 'Chain of the token', required: true, positional: true }),
  address: opt.string({ description: 'Token address', required: true, positional: true }),
  off: opt.boolean({ description: 'Unmute instead' }),
};

export default {
  name: 'mute',
  description: 'Stop (or with off:yes resume) alerts about one token here (admins)',
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
    await setMuted(ctx.store.subscriptions, sub, tokenKeyOf(chain, address), !off, ctx.now());
    return {
      kind: 'text',
      text: off
        ? ctx.t('subscribe.unmuted', { address, chain })
        : ctx.t('subscribe.muted', { address, chain, undo: `/mute ${chain} ${address} off:yes` }),
    };
  },
} satisfies Command<typeof options>;
