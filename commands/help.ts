import type { Command } from '../src/core/command.ts';
import { suggest } from '../src/domain/chains.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { helpFor, helpList } from '../src/views/cards/help.ts';

const options = {
  command: opt.string({ positional: true, max: 40, example: 'token' }),
};

export default {
  name: 'help',
  options,
  examples: ['/help', '/help kols'],
  async run({ command }, ctx) {
    if (!command) return helpList(ctx.commands, ctx.t);
    const name = command.replace(/^\//, '').toLowerCase();
    const found = ctx.commands.get(name);
    if (found) return helpFor(found, ctx.t);
    const near = suggest(name, [...ctx.commands.keys()]);
    throw new UserError(
      near ? ctx.t('help.noSuchNear', { name, near }) : ctx.t('help.noSuch', { name }),
      near ? `/help ${near}` : '/help',
    );
  },
} satisfies Command<typeof options>;
