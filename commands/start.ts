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
      text: [
        { b: 'Hi, I am kolradar.' },
        ' I look up crypto tokens and the KOLs (influential X accounts) who shill them: cards, tables, tweets and win rates.\n\n',
        ...commandList(ctx.commands),
      ],
    };
  },
} satisfies Command<typeof options>;
