import type { Command } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { capOf, recordCalls } from '../src/core/membercalls.ts';
import { withNote } from '../src/core/autocard.ts';
import { ticker } from '../src/views/cards/common.ts';
import { compactCards } from '../src/views/cards/tokenCompact.ts';
import { callNote } from '../src/views/cards/memberCalls.ts';
import { boardHere, tokenNamed } from './_board.ts';

const EXAMPLE = '/mycall So11111111111111111111111111111111111111112';

const options = {
  token: opt.string({
    required: true,
    positional: true,
    max: 200,
    autocomplete: 'token',
  }),
};

export default {
  name: 'mycall',
  options,
  chatSettings: true,
  audience: 'members',
  examples: [EXAMPLE, '/mycall $PEPE'],
  async run({ token }, ctx) {
    const board = boardHere(ctx);
    const t = ctx.t;
    if (!(await ctx.store.members.settings(board)).on) throw new UserError(t('board.statusOff'));
    const member = ctx.caller.member;
    if (!member) throw new UserError(t('board.notMember'));
    const found = await tokenNamed(ctx, token, EXAMPLE);
    if (capOf(found) === null)
      throw new UserError(t('board.noCap', { symbol: ticker(found.item.token.symbol, found.item.token.name) }));
    const now = ctx.now();
    const recorded = await recordCalls(
      ctx.store,
      [found],
      { platform: ctx.caller.platform, chatId: ctx.caller.chatId, messageId: '', member },
      now,
    );
    if (recorded[0]?.outcome.kind === 'limit')
      throw new UserError(t('board.limit', { count: ctx.store.members.perDay }));
    return withNote(compactCards([found], t), callNote(recorded, t, now));
  },
} satisfies Command<typeof options>;
