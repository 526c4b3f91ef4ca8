/** A time zone option (`tz:Europe/Berlin`): the canonical IANA name, or a short answer with an example. */
import { UserError } from '../src/core/errors.ts';
import { timeZoneOf } from '../src/domain/zoned.ts';
import type { T } from '../src/i18n/index.ts';

export function zoneOrError(t: T, tz: string, example: string): string {
  const zone = timeZoneOf(tz.trim());
  if (!zone) throw new UserError(t('zone.bad', { tz, example: 'Europe/Berlin' }), example);
  return zone;
}
