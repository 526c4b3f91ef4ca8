import type { Command } from '../src/core/command.ts';
import { PermissionError } from '../src/core/errors.ts';
import { SETTING_OPTIONS } from '../src/alerts/settings.ts';
import { tokenKeyOf } from '../src/domain/chains.ts';
import { ticker } from '../src/views/cards/common.ts';
import { boardHere, tokenNamed } from './_board.ts';
import { UserError } from '../src/core/errors.ts';

const EXAMPLE = '/callboard on';

// The settings panel turns the board on and off with these same options (alerts/settings.ts).
const options = SETTING_OPTIONS.callboard;

export default {
  name: 'callboard',
  options,
  chatSettings: true,
  examples: [
    EXAMPLE,
    '/callboard',
    '/callboard remove token:So11111111111111111111111111111111111111112',
    '/callboard forget',
  ],
  async run({ action, token }, ctx) {
    const board = boardHere(ctx);
    const members = ctx.store.members;
    const t = ctx.t;
    if (action === 'forget') {
      // Anyone may take their own calls away; a caller the platform hides has none here.
      const n = ctx.caller.member ? await members.forget(board, ctx.caller.member.id) : 0;
      return { kind: 'text', text: t('board.forgot', { count: n }) };
    }
    if (action === undefined) {
      const on = (await members.settings(board)).on;
      return { kind: 'text', text: t(on ? 'board.statusOn' : 'board.statusOff') };
    }
    if (!(await ctx.caller.canManage())) throw new PermissionError(t('board.adminsOnly'));
    if (action === 'on' || action === 'off') {
      await members.setOn(board, action === 'on');
      return { kind: 'text', text: t(action === 'on' ? 'board.on' : 'board.off') };
    }
    if (action === 'reset') return { kind: 'text', text: t('board.reset', { count: await members.reset(board) }) };
    if (!token) throw new UserError(t('board.removeWhat'), '/callboard remove token:$PEPE');
    const found = await tokenNamed(ctx, token, '/callboard remove token:$PEPE');
    const key = tokenKeyOf(found.chain, found.item.token.address);
    const ids = (await members.list(board, 0))
      .filter((c) => tokenKeyOf(c.token.chain, c.token.address) === key)
      .map((c) => c.id);
    const n = await members.remove(board, ids);
    return {
      kind: 'text',
      text: t('board.removed', { symbol: ticker(found.item.token.symbol, found.item.token.name), count: n }),
    };
  },
} satisfies Command<typeof options>;
