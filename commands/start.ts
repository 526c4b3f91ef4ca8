import type { Command } from '../src/core/command.ts';
import { commandList, memberList } from '../src/views/cards/help.ts';

const options = {};

export default {
  name: 'start',
  options,
  examples: ['/start'],
  async run(_input, ctx) {
    // In a group, a short list for its members; elsewhere every command with an example.
    const list = ctx.caller.chatType === 'group' ? memberList(ctx.commands, ctx.t) : commandList(ctx.commands, ctx.t);
    return { kind: 'text', text: [{ b: ctx.t('start.hi') }, ` ${ctx.t('start.intro')}\n\n`, ...list] };
  },
} satisfies Command<typeof options>;
