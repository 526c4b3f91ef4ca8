import type { Command, CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { callerRow, scoreBoardCall, type ScoredCall } from '../src/domain/board.ts';
import type { View } from '../src/domain/view.ts';
import type { Call, MemberRef } from '../src/store/calls.ts';
import { cardButtons, statsColumns, statsLine, statsRows } from '../src/views/cards/memberCalls.ts';
import { callCardPicture } from '../src/pictures/cards.ts';
import { withPicture } from '../src/pictures/draw.ts';
import { boardHere, PERIOD_ALIASES, PERIOD_MS } from './_board.ts';

const RECENT = 10;

const options = {
  member: opt.string({
    positional: true,
    max: 64,
    example: '@alice',
  }),
  period: opt.choice(['1d', '7d', '30d', 'all'], {
    noun: 'period',
    default: 'all',
    aliases: PERIOD_ALIASES,
  }),
  call: opt.string({ max: 300, internal: true }),
};

/**
 * Who `/stats` is about. The Telegram Bot API cannot look a username up, so a
 * name is matched against the callers stored on this board (their @username,
 * their shown name, or a Discord mention's id); a reply names its author.
 */
function whom(ctx: CommandContext, text: string | undefined, calls: readonly Call[]): MemberRef | undefined {
  if (!text) return ctx.caller.repliedTo ?? ctx.caller.member;
  const mention = /^<@!?(\d+)>$/.exec(text.trim())?.[1];
  const name = text.trim().replace(/^@/, '').toLowerCase();
  const hit = [...calls]
    .reverse()
    .find((c) =>
      mention
        ? c.member?.id === mention
        : c.member?.handle === name || c.member?.name.replace(/^@/, '').toLowerCase() === name,
    );
  return hit?.member;
}

/** One call of this board as a picture (the "Call card" buttons). */
async function card(ctx: CommandContext, board: string, id: string): Promise<View> {
  const c = (await ctx.store.calls.getMany([id]))[0];
  if (!c?.member || c.subId !== board) throw new UserError(ctx.t('board.cardGone'));
  const drawn = await callCardPicture(ctx, c, ctx.t, ctx.now());
  const text =
    drawn.picture?.alt ?? ctx.t('board.cardAlt', { symbol: c.token.symbol, name: c.member.name, multiple: '-' });
  return withPicture({ kind: 'text', text }, drawn);
}

export default {
  name: 'stats',
  options,
  chatSettings: true,
  audience: 'members',
  examples: ['/stats', '/stats period:30d'],
  async run(input, ctx): Promise<View> {
    const board = boardHere(ctx);
    const t = ctx.t;
    if (input.call) return card(ctx, board, input.call);
    const all = await ctx.store.members.list(board, 0);
    const who = whom(ctx, input.member, all);
    if (!who) throw new UserError(t('board.statsWho', { name: input.member ?? '?' }), '/stats');
    const from = ctx.now() - PERIOD_MS[input.period ?? 'all'];
    const scored = all
      .filter((c) => c.member?.id === who.id && c.at >= from)
      .map(scoreBoardCall)
      .filter((s): s is ScoredCall<Call> => s !== undefined);
    const name = scored.at(-1)?.call.member?.name ?? who.name;
    if (!scored.length) return { kind: 'text', text: t('board.statsNone', { name }) };
    const period = input.period ?? 'all';
    const recent = [...scored].reverse().slice(0, RECENT);
    return {
      kind: 'table',
      title: t('board.statsTitle', {
        name,
        period: period === 'all' ? t('calls.periodAll') : t('calls.periodLast', { period }),
      }),
      description: statsLine(callerRow(scored), t),
      columns: statsColumns(t),
      rows: statsRows(recent, t, ctx.now()),
      actions: cardButtons(
        recent.map((r) => r.call),
        t,
      ),
    };
  },
} satisfies Command<typeof options>;
