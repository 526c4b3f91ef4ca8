/**
 * The owner's console (`/owner <action> ...`). Not in the registry (the loader
 * reads only commands/*.ts): app.ts hands it to the dispatcher, which runs it
 * for the owners (OWNER_IDS) in a private chat and treats its name as unknown
 * for everyone else. The context's `owner` reaches the whole store.
 */
import type { Command, CommandContext, OwnerTools } from '../../src/core/command.ts';
import { UserError } from '../../src/core/errors.ts';
import { opt } from '../../src/core/options.ts';
import type { View } from '../../src/domain/view.ts';
import { ban, bans, unban } from './bans.ts';
import { destinations, disableOne, enableOne } from './destinations.ts';
import { notice, progress, send } from './notice.ts';
import { stats } from './stats.ts';

// Outside the registry, so no line in the catalogue's `commands`/`options`: its words are `owner.*` (owner.usage, and owner.description for Telegram's menu).
const options = {
  action: opt.string({ positional: true }),
  rest: opt.string({ positional: true }),
};

export type OwnerContext = CommandContext & { readonly owner: OwnerTools };

const ACTIONS: Record<string, (ctx: OwnerContext, rest: string) => Promise<View>> = {
  stats: (ctx) => stats(ctx),
  destinations: destinations,
  disable: disableOne,
  enable: enableOne,
  ban,
  unban,
  bans: (ctx) => bans(ctx),
  notice,
  send,
  progress,
};

export default {
  name: 'owner',
  options,
  examples: ['/owner stats', '/owner destinations failing', '/owner notice Maintenance at 02:00 UTC'],
  async run({ action, rest }, ctx) {
    if (!ctx.owner) throw new UserError({ key: 'errors.unknownCommand', values: { name: 'owner' } }, '/help');
    const run = action ? ACTIONS[action.toLowerCase()] : undefined;
    if (!run) return { kind: 'text', text: ctx.t('owner.usage') };
    return run(ctx as OwnerContext, (rest ?? '').trim());
  },
} satisfies Command<typeof options>;
