import { unsubscribe } from '../src/alerts/subscriptions.ts';
import type { Command } from '../src/core/command.ts';
import { destinationOf } from './_subscription.ts';

const options = {};

export default {
  name: 'unsubscribe',
  options,
  chatSettings: true,
  personal: true,
  examples: ['/unsubscribe'],
  requires: 'manage',
  async run(_o, ctx) {
    const removed = await unsubscribe(ctx.store.subscriptions, destinationOf(ctx).id);
    return removed
      ? { kind: 'text', text: ctx.t('subscribe.off') }
      : { kind: 'error', message: ctx.t('subscribe.wasOff'), example: '/subscribe' };
  },
} satisfies Command<typeof options>;
