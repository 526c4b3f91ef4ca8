/** A time zone option (`tz:Europe/Berlin`): the IANA name as the admin typed it, or a short answer with an example. */
import { UserError } from '../src/core/errors.ts';
import { timeZoneOf } from '../src/domain/zoned.ts';
import type { T } from '../src/i18n/index.ts';

export function zoneOrError(t: T, tz: string, example: string): string {
  const zone = zoneName(tz.trim());
  if (!zone) throw new UserError(t('zone.bad', { tz, example: 'Europe/Berlin' }), example);
  return zone;
}

/**
 * The name to keep and echo. ICU answers with its own older spelling
 * (Asia/Kathmandu -> Asia/Katmandu, Europe/Kyiv -> Europe/Kiev): the admin's
 * name is kept when ICU knows it, since both name the same zone; typed all in
 * lower case it gets the usual capitals ("asia/kathmandu" -> "Asia/Kathmandu").
 */
export function zoneName(typed: string): string | undefined {
  const canonical = timeZoneOf(typed);
  if (!canonical) return undefined;
  if (canonical.toLowerCase() === typed.toLowerCase() || /^(etc\/)?(utc|gmt)$/i.test(typed)) return canonical;
  if (/[A-Z]/.test(typed)) return typed;
  return typed.replace(/(^|[/_-])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase());
}
