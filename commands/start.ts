import type { Command } from '../src/core/command.ts';
import { commandList } from '../src/views/cards/help.ts';

const options = {};

export default {
  name: 'start',
  description: 'Welcome, and what the bot can do',
  options,
  examples: ['/start'],
  async run(_input, ctx) {
    return {
      kind: 'text',
      text: [{ b: ctx.t('start.hi') }, ` ${ctx.t('start.intro')}\n\n`, ...commandList(ctx.commands, ctx.t)],
    };
  },
} satisfies Command<typeof options>;
