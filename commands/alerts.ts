import { describeFilters, toSubscribeLine } from '../src/alerts/filters.ts';
import { FOREVER, setPaused } from '../src/alerts/subscriptions.ts';
import { heldLastDay } from '../src/alerts/held.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { PermissionError, UserError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { dateShort } from '../src/views/format.ts';
import type { View } from '../src/views/model.ts';
import { testAlert } from './_sample.ts';
import { parseDuration } from '../src/core/duration.ts';
import { requireSubscription } from './_subscription.ts';
import { followupsOf } from '../src/alerts/calls/record.ts';
import { formats } from '../src/i18n/format.ts';
import { followupsSetting } from '../src/views/cards/callLine.ts';

const options = {
  action: opt.choice(['show', 'pause', 'resume', 'test'], { description: 'show (default), pause, resume or test', positional: true, noun: 'action' }),
  duration: opt.string({ description: 'How long to pause: 30m, 2h, 1d (default until resumed)', positional: true, example: '2h' }),
};

async function mustManage(ctx: CommandContext): Promise<void> {
  if (!(await ctx.caller.canManage())) throw new PermissionError('Only admins may change alerts here.');
}

export default {
  name: 'alerts',
  description: 'Show this chat’s alert settings; pause, resume or send a test alert',
  options,
  chatSettings: true,
  examples: ['/alerts', '/alerts pause 2h', '/alerts resume', '/alerts test'],
  async run({ action = 'show', duration }, ctx): Promise<View> {
    const sub = await requireSubscription(ctx);
    const now = ctx.now();
    if (action === 'show') {
      const paused = sub.pausedUntil !== null && sub.pausedUntil > now;
      const status = sub.disabled
        ? `Stopped: ${sub.disabled.reason}. Fix it, then /subscribe again.`
        : paused
          ? `Paused ${sub.pausedUntil! >= FOREVER ? 'until resumed' : `until ${dateShort(sub.pausedUntil!)}`}.`
          : 'On.';
      const held = await heldLastDay(ctx.store.watch, sub.id, now);
      // Said even when 0: it is the first thing to check when alerts stay quiet.
      const heldLine = `${held.toLocaleString('en-US')} ${held === 1 ? 'tweet' : 'tweets'} held back in the last 24 h because the upstream gave no KOL score, followers or labels for the author.`;
      return {
        kind: 'card',
        title: 'Alerts here',
        description: [status, '\n', describeFilters(sub.filters).join('\n'), '\n', followupsSetting(followupsOf(sub), ctx.t, formats(ctx.locale)), '\n', heldLine, '\n\nSame settings as a command:\n', { code: toSubscribeLine(sub.filters) }],
        fields: sub.mutedTokens.length ? [{ name: 'Muted tokens', value: sub.mutedTokens.join('\n') }] : [],
        colour: sub.disabled ? 'error' : paused ? 'warn' : 'up',
      };
    }
    await mustManage(ctx);
    if (action === 'pause') {
      const ms = duration === undefined ? undefined : parseDuration(duration);
      if (duration !== undefined && ms === undefined) throw new UserError(`Can't read the duration '${duration}'.`, '/alerts pause 2h');
      const until = ms === undefined ? FOREVER : now + ms;
      await setPaused(ctx.store.subscriptions, sub, until, now);
      return { kind: 'text', text: ms === undefined ? 'Alerts paused until /alerts resume.' : `Alerts paused until ${dateShort(until)}.` };
    }
    if (action === 'resume') {
      await setPaused(ctx.store.subscriptions, sub, null, now);
      return { kind: 'text', text: 'Alerts resumed.' };
    }
    const entry = await testAlert(ctx, sub);
    await ctx.store.outbox.enqueue(`test-${entry.id}`, [entry]);
    ctx.kickAlerts?.();
    return { kind: 'text', text: 'A test alert is on its way to this chat. If it does not arrive, check that the bot may post and embed links here.' };
  },
} satisfies Command<typeof options>;
