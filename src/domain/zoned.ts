/**
 * Wall-clock time in an IANA time zone, with Node's own Intl (full ICU): quiet
 * hours and digests are set in the chat's local time. A date library would do
 * the same; these three functions are all we need, so no dependency.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formats.set(tz, f);
  }
  return f;
}

/** An IANA zone name (Europe/Berlin, UTC) Intl knows; the canonical spelling, or undefined. */
export function timeZoneOf(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** 0 Sunday ... 6 Saturday. */
  readonly weekday: number;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function localTime(ms: number, tz: string): LocalTime {
  const p = Object.fromEntries(
    format(tz)
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  return {
    year: +p['year']!,
    month: +p['month']!,
    day: +p['day']!,
    hour: +p['hour']!,
    minute: +p['minute']!,
    weekday: DAYS.indexOf(p['weekday']!),
  };
}

/**
 * The instant a wall-clock time happens in `tz` (day may overflow: 32 is the
 * next month's 1st). A time skipped by a daylight-saving jump is taken one
 * offset later (02:30 on a spring-forward day is 03:30), never dropped.
 */
export function zonedInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  tz: string,
): number {
  const wanted = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wanted;
  // Two corrections settle every real zone's offset (the second handles a guess across a change).
  for (let i = 0; i < 2; i++) {
    const l = localTime(guess, tz);
    guess += wanted - Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute);
  }
  return guess;
}

/** "HH:MM" (00:00-23:59) as minutes since midnight, or undefined. */
export function parseClock(s: string): number | undefined {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(s.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

export const clockText = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * An instant as the chat reads it: "14:35 (Asia/Kathmandu)" later today in that
 * zone, "2026-11-27 14:35 (Asia/Kathmandu)" on another day. Dates stay ISO and
 * clocks 24-hour in every language, as elsewhere.
 */
export function zonedText(ms: number, tz: string, now: number): string {
  const at = localTime(ms, tz);
  const today = localTime(now, tz);
  const clock = clockText(at.hour * 60 + at.minute);
  const sameDay = at.year === today.year && at.month === today.month && at.day === today.day;
  const date = `${at.year}-${String(at.month).padStart(2, '0')}-${String(at.day).padStart(2, '0')}`;
  return `${sameDay ? clock : `${date} ${clock}`} (${tz})`;
}
