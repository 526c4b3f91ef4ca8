/**
 * `/alerts quiet 23:00-07:00 [tz:Europe/Berlin]` and `/alerts quiet off`:
 * alerts that match in those hours are held and listed in one message when
 * they end (delivery does the holding; see src/alerts/delivery.ts).
 */
import { setQuiet } from '../src/alerts/subscriptions.ts';
import type { CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { clockText, parseClock } from '../src/domain/zoned.ts';
import type { Subscription } from '../src/store/subscriptions.ts';
import type { Field, View } from '../src/domain/view.ts';
import { zoneOrError } from './_zone.ts';

export async function quietHours(
  ctx: CommandContext,
  sub: Subscription,
  range: string | undefined,
  tz: string | undefined,
): Promise<View> {
  const t = ctx.t;
  const example = '/alerts quiet 23:00-07:00 tz:Europe/Berlin';
  if (range?.trim().toLowerCase() === 'off') {
    await setQuiet(ctx.store.subscriptions, sub, null, ctx.now());
    return { kind: 'text', text: t('quiet.off') };
  }
  const [a, b, ...rest] = (range ?? '').split(/\s*[-–]\s*/);
  const from = a === undefined ? undefined : parseClock(a);
  const to = b === undefined ? undefined : parseClock(b);
  if (from === undefined || to === undefined || rest.length || from === to) {
    throw new UserError(t('quiet.badRange', { range: range ?? '', example: '23:00-07:00' }), example);
  }
  const zone = zoneOrError(t, tz ?? sub.quiet?.tz ?? 'UTC', example);
  await setQuiet(ctx.store.subscriptions, sub, { from, to, tz: zone }, ctx.now());
  return { kind: 'text', text: t('quiet.set', { from: clockText(from), to: clockText(to), tz: zone }) };
}

/** What `/alerts` shows of quiet hours and the digest, when set. */
export function scheduleFields(ctx: CommandContext, sub: Subscription): Field[] {
  const t = ctx.t;
  const out: Field[] = [];
  if (sub.quiet)
    out.push({
      name: t('quiet.field'),
      value: `${clockText(sub.quiet.from)}-${clockText(sub.quiet.to)} (${sub.quiet.tz})`,
    });
  const d = sub.digest;
  if (d) {
    const day = new Intl.DateTimeFormat(ctx.locale, { weekday: 'long', timeZone: 'UTC' }).format(
      Date.UTC(2024, 0, 7 + d.day),
    );
    out.push({
      name: t('digest.field'),
      value:
        d.period === 'daily'
          ? t('digest.setDaily', { at: clockText(d.at), tz: d.tz })
          : t('digest.setWeekly', { day, at: clockText(d.at), tz: d.tz }),
    });
  }
  return out;
}
