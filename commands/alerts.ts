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
import { destinationOf, requireSubscription } from './_subscription.ts';
import type { Subscription } from '../src/store/subscriptions.ts';
import { quietHours, scheduleFields } from './_quiet.ts';
import { followupsOf } from '../src/alerts/calls/record.ts';
import { followupsSetting } from '../src/views/cards/callLine.ts';

const options = SETTING_OPTIONS.alerts;

async function mustManage(ctx: CommandContext): Promise<void> {
  if (!(await ctx.caller.canManage())) throw new PermissionError(ctx.t('subscribe.adminsOnly'));
}

export default {
  name: 'alerts',
  options,
  chatSettings: true,
  personal: true,
  examples: [
    '/alerts',
    '/alerts pause 2h',
    '/alerts resume',
    '/alerts test',
    '/alerts quiet 23:00-07:00 tz:Europe/Berlin',
  ],
  async run({ action = 'show', duration, tz }, ctx): Promise<View> {
    const topics = action === 'show' ? await topicsHere(ctx) : [];
    const own = topics.length ? await ctx.store.subscriptions.get(destinationOf(ctx).id) : undefined;
    if (topics.length && !own)
      return {
        kind: 'card',
        title: ctx.t('subscribe.here'),
        description: ctx.t('subscribe.notOn'),
        fields: [topicsField(ctx, topics)],
      };
    const sub = own ?? (await requireSubscription(ctx));
    const now = ctx.now();
    const t = ctx.t;
    if (action === 'show') {
      const paused = sub.pausedUntil !== null && sub.pausedUntil > now;
      const status = statusOf(sub, t, now);
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
          ...(topics.length ? [topicsField(ctx, topics)] : []),
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

/** Where alerts stand: stopped (the platform's own words, English, kept as they came), paused or on. */
function statusOf(sub: Subscription, t: CommandContext['t'], now: number): string {
  if (sub.disabled) return t('subscribe.stopped', { reason: sub.disabled.reason });
  if (sub.pausedUntil !== null && sub.pausedUntil > now)
    return sub.pausedUntil >= FOREVER
      ? t('subscribe.pausedForever')
      : t('subscribe.pausedUntil', { date: zonedText(sub.pausedUntil, chatZone(sub), now) });
  return t('subscribe.statusOn');
}

/** Asked in a group's chat itself (not in a topic): the alerts of its forum topics, each with its status. */
async function topicsHere(ctx: CommandContext): Promise<Subscription[]> {
  if (ctx.caller.threadId || ctx.caller.chatType === 'private') return [];
  // A topic that moved to the chat (topics turned off) is the chat's own now.
  return (await ctx.store.subscriptions.threadsOf(ctx.caller.platform, ctx.caller.chatId)).filter((s) => !s.movedTo);
}

/** A line per topic, the first TOPICS_SHOWN of them (a card field has room for that many). */
const TOPICS_SHOWN = 20;
function topicsField(ctx: CommandContext, topics: readonly Subscription[]) {
  const now = ctx.now();
  const lines = topics
    .slice(0, TOPICS_SHOWN)
    .map((s) => ctx.t('subscribe.topicLine', { topic: s.threadId, status: statusOf(s, ctx.t, now) }));
  if (topics.length > TOPICS_SHOWN)
    lines.push(ctx.t('subscribe.moreTopics', { n: formats(ctx.locale).int(topics.length - TOPICS_SHOWN) }));
  return { name: ctx.t('subscribe.topics'), value: lines.join('\n') };
}

/** The chat's own time zone, as its quiet hours or digest set it; UTC otherwise. */
function chatZone(sub: {
  readonly quiet?: { readonly tz: string } | null;
  readonly digest?: { readonly tz: string } | null;
}) {
  return sub.quiet?.tz ?? sub.digest?.tz ?? 'UTC';
}
