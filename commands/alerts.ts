import { describeFilters, toSubscribeLine } from '../src/alerts/filters.ts';
import { FOREVER, setPaused } from '../src/alerts/subscriptions.ts';
import { heldLastDay } from '../src/alerts/held.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { PermissionError, UserError } from '../src/core/errors.ts';
import { SETTING_OPTIONS } from '../src/alerts/settings.ts';
import { formats } from '../src/i18n/format.ts';
import { zonedText } from '../src/domain/zoned.ts';
import type { View } from '../src/domain/view.ts';
import { queueTestAlert } from '../src/alerts/testAlert.ts';
import { testAlert } from './_sample.ts';
import { parseDuration } from '../src/core/duration.ts';
import { requireSubscription } from './_subscription.ts';
import { quietHours, scheduleFields } from './_quiet.ts';
import { followupsOf } from '../src/alerts/calls/record.ts';
import { followupsSetting } from '../src/views/cards/callLine.ts';

const options = SETTING_OPTIONS.alerts;

async function mustManage(ctx: CommandContext): Promise<void> {
  if (!(await ctx.caller.canManage())) throw new PermissionError(ctx.t('subscribe.adminsOnly'));
}

export default {
  name: 'alerts',
  description: 'Show this chat’s alert settings; pause, resume or send a test alert',
  options,
  chatSettings: true,
  examples: [
    '/alerts',
    '/alerts pause 2h',
    '/alerts resume',
    '/alerts test',
    '/alerts quiet 23:00-07:00 tz:Europe/Berlin',
  ],
  async run({ action = 'show', duration, tz }, ctx): Promise<View> {
    const sub = await requireSubscription(ctx);
    const now = ctx.now();
    const t = ctx.t;
    if (action === 'show') {
      const paused = sub.pausedUntil !== null && sub.pausedUntil > now;
      // The stop reason is the platform's own words (English), kept as they came.
      const status = sub.disabled
        ? t('subscribe.stopped', { reason: sub.disabled.reason })
        : paused
          ? sub.pausedUntil! >= FOREVER
            ? t('subscribe.pausedForever')
            : t('subscribe.pausedUntil', { date: zonedText(sub.pausedUntil!, chatZone(sub), now) })
          : t('subscribe.statusOn');
      const held = await heldLastDay(ctx.store.watch, sub.id, now);
      // Said even when 0: it is the first thing to check when alerts stay quiet.
      const heldLine = t('subscribe.held', { count: held, n: formats(ctx.locale).int(held) });
      return {
        kind: 'card',
        title: t('subscribe.here'),
        description: [
          status,
          '\n',
          describeFilters(sub.filters, t).join('\n'),
          '\n',
          followupsSetting(followupsOf(sub), ctx.t, formats(ctx.locale)),
          '\n',
          heldLine,
          `\n\n${t('subscribe.asCommand')}\n`,
          { code: toSubscribeLine(sub.filters) },
        ],
        fields: [
          ...(sub.mutedTokens.length ? [{ name: t('subscribe.mutedTokens'), value: sub.mutedTokens.join('\n') }] : []),
          ...scheduleFields(ctx, sub),
        ],
        colour: sub.disabled ? 'error' : paused ? 'warn' : 'up',
      };
    }
    if (action === 'quiet') {
      if (!(await ctx.caller.canManage())) throw new PermissionError(ctx.t('quiet.adminsOnly'));
      return quietHours(ctx, sub, duration, tz);
    }
    await mustManage(ctx);
    if (action === 'pause') {
      const ms = duration === undefined ? undefined : parseDuration(duration);
      if (duration !== undefined && ms === undefined)
        throw new UserError(t('subscribe.badDuration', { duration }), '/alerts pause 2h');
      const until = ms === undefined ? FOREVER : now + ms;
      await setPaused(ctx.store.subscriptions, sub, until, now);
      return {
        kind: 'text',
        text:
          ms === undefined
            ? t('subscribe.pausedResume')
            : t('subscribe.pausedTill', { date: zonedText(until, chatZone(sub), now) }),
      };
    }
    if (action === 'resume') {
      await setPaused(ctx.store.subscriptions, sub, null, now);
      return { kind: 'text', text: t('subscribe.resumed') };
    }
    const entry = await testAlert(ctx, sub);
    await queueTestAlert(ctx.store.outbox, entry);
    ctx.kickAlerts?.();
    return { kind: 'text', text: t('subscribe.testSent') };
  },
} satisfies Command<typeof options>;

/** The chat's own time zone, as its quiet hours or digest set it; UTC otherwise. */
function chatZone(sub: {
  readonly quiet?: { readonly tz: string } | null;
  readonly digest?: { readonly tz: string } | null;
}) {
  return sub.quiet?.tz ?? sub.digest?.tz ?? 'UTC';
}
