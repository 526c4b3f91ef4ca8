import { setDigest } from '../src/alerts/subscriptions.ts';
import { queueDigestNow } from '../src/alerts/digest/runner.ts';
import type { Command } from '../src/core/command.ts';
import { PermissionError, UserError } from '../src/core/errors.ts';
import { SETTING_OPTIONS } from '../src/alerts/settings.ts';
import { clockText, parseClock } from '../src/domain/zoned.ts';
import type { View } from '../src/domain/view.ts';
import { requireSubscription } from './_subscription.ts';
import { zoneOrError } from './_zone.ts';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const EXAMPLE = '/digest daily at:09:00 tz:Europe/Berlin';

const options = SETTING_OPTIONS.digest;

export default {
  name: 'digest',
  options,
  chatSettings: true,
  examples: [
    '/digest daily at:09:00 tz:Europe/Berlin',
    '/digest weekly day:mon at:18:00',
    '/digest now',
    '/digest off',
  ],
  async run({ period, at, tz, day }, ctx): Promise<View> {
    const t = ctx.t;
    const sub = await requireSubscription(ctx);
    if (!(await ctx.caller.canManage())) throw new PermissionError(t('digest.adminsOnly'));
    const now = ctx.now();
    if (period === 'off') {
      await setDigest(ctx.store.subscriptions, sub, null, now);
      return { kind: 'text', text: t('digest.off') };
    }
    if (period === 'now') {
      await queueDigestNow(
        {
          api: ctx.api,
          calls: ctx.store.calls,
          // As the schedule's: the chat's top callers where its board is on, and the watcher's own
          // counts of the tokens it saw (the upstream's ranking only where it has none).
          members: ctx.store.members,
          state: ctx.store.watch,
          log: ctx.log,
          outbox: ctx.store.outbox,
        },
        sub,
        now,
      );
      ctx.kickAlerts?.();
      return { kind: 'text', text: t('digest.now') };
    }
    const minutes = at === undefined ? (sub.digest?.at ?? 9 * 60) : parseClock(at);
    if (minutes === undefined) throw new UserError(t('digest.badAt', { at: at ?? '', example: '09:00' }), EXAMPLE);
    const dayIndex = day === undefined ? (sub.digest?.day ?? 1) : DAYS.indexOf(day.trim().slice(0, 3).toLowerCase());
    if (dayIndex < 0)
      throw new UserError(
        t('digest.badDay', { day: day ?? '', days: DAYS.join(', ') }),
        '/digest weekly day:mon at:09:00',
      );
    const zone = zoneOrError(t, tz ?? sub.digest?.tz ?? 'UTC', EXAMPLE);
    await setDigest(ctx.store.subscriptions, sub, { period, at: minutes, tz: zone, day: dayIndex, since: now }, now);
    if (period === 'daily') return { kind: 'text', text: t('digest.setDaily', { at: clockText(minutes), tz: zone }) };
    // 2024-01-07 was a Sunday: the day's name in the reader's language.
    const dayName = new Intl.DateTimeFormat(ctx.locale, { weekday: 'long', timeZone: 'UTC' }).format(
      Date.UTC(2024, 0, 7 + dayIndex),
    );
    return { kind: 'text', text: t('digest.setWeekly', { day: dayName, at: clockText(minutes), tz: zone }) };
  },
} satisfies Command<typeof options>;
