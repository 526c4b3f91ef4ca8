import { destinationOf } from '../src/alerts/subscribe.ts';
import type { Command } from '../src/core/command.ts';

const options = {};

export default {
  name: 'unsubscribe',
  description: 'Turn off alerts here (admins)',
  options,
  chatSettings: true,
  examples: ['/unsubscribe'],
  requires: 'manage',
  async run(_o, ctx) {
    const removed = await ctx.store.subscriptions.delete(destinationOf(ctx).id);
    return removed
      ? { kind: 'text', text: 'Alerts are off here. /subscribe turns them on again.' }
      : { kind: 'error', message: 'Alerts were not on here.', example: '/subscribe' };
  },
} satisfies Command<typeof options>;
