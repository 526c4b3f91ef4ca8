/**
 * The alerts' part of the configuration: how the watcher paces its feed reads,
 * how long calls are kept, and the members' calls' window, quota and follow-up
 * points. Apart from config.ts so the knobs of the alert pipeline, their
 * defaults and their units sit in one place.
 */
import { validate as validateCron } from 'node-cron';
import { z } from 'zod';
import { optionalString, wholeNumber } from './fields.ts';

/**
 * Feed requests per minute: a read about every 3 s, 28,800 feed requests a day,
 * so a new tweet waits 1.5 s on average for its first read.
 */
export const DEFAULT_FEED_REQUESTS_PER_MINUTE = 20;
/** Call history kept (days). */
export const DEFAULT_CALLS_RETENTION_DAYS = 30;
/**
 * Follow-up requests (operation 2) per minute: a small share of the upstream next to
 * the watcher's feed reads, so a large round is spread over minutes, not a burst.
 */
export const DEFAULT_FOLLOWUP_REQUESTS_PER_MINUTE = 20;
/** Members' calls: the first caller keeps the credit this long; calls a member may make a day; sampling points. */
export const DEFAULT_CALL_WINDOW_HOURS = 24;
export const DEFAULT_MEMBER_CALLS_PER_DAY = 10;
export const DEFAULT_MEMBER_CALL_FOLLOWUPS: readonly number[] = Object.freeze([5, 15, 60, 240, 1440]);

/** "5m,1h,1d" -> [5, 60, 1440], sorted, once each. */
function minutesOf(text: string): number[] {
  const unit = { m: 1, h: 60, d: 1440 } as const;
  const out = text.split(',').map((p) => {
    const m = /^(\d+)([mhd])$/.exec(p.trim())!;
    return Number(m[1]) * unit[m[2] as keyof typeof unit];
  });
  return [...new Set(out)].sort((a, b) => a - b);
}

export const AlertsEnv = z.object({
  WATCH_CRON: optionalString.pipe(
    z
      .string()
      .refine((s) => validateCron(s), 'must be a cron expression such as */30 * * * * *')
      .optional(),
  ),
  FEED_REQUESTS_PER_MINUTE: wholeNumber(600),
  CALLS_RETENTION_DAYS: wholeNumber(3650, 'a whole number of days'),
  CALL_WINDOW_HOURS: wholeNumber(720, 'a whole number of hours'),
  MEMBER_CALLS_PER_DAY: wholeNumber(1000),
  MEMBER_CALL_FOLLOWUPS: optionalString.pipe(
    z
      .string()
      .regex(/^\s*\d+[mhd](\s*,\s*\d+[mhd])*\s*$/, 'must be a list like 5m,15m,1h,4h,24h')
      .transform(minutesOf)
      .pipe(
        z
          .array(
            z.number().int().min(1, 'each point must be at least 1m').max(43_200, 'each point must be at most 30d'),
          )
          .max(10, 'must have at most 10 points'),
      )
      .optional(),
  ),
  FOLLOWUP_REQUESTS_PER_MINUTE: wholeNumber(6000),
});

export interface AlertsConfig {
  /** Set: the watcher ticks on this schedule (the old way) instead of the feed budget's pace. */
  readonly watchCron: string | undefined;
  /**
   * Feed requests the watcher may make in any minute, spent evenly (default 20: a
   * read about every 3 s); with WATCH_CRON, only when set explicitly.
   */
  readonly feedRequestsPerMinute: number | undefined;
  readonly callsRetentionDays: number;
  readonly followupRequestsPerMinute: number;
  /** Members' calls: a later post of a token called within this is not a new call. */
  readonly callWindowHours: number;
  readonly memberCallsPerDay: number;
  /** Follow-up points of members' calls, in minutes after the call, ascending. */
  readonly memberCallFollowups: readonly number[];
}

export function alertsConfig(e: z.infer<typeof AlertsEnv>): AlertsConfig {
  return {
    watchCron: e.WATCH_CRON,
    feedRequestsPerMinute: e.FEED_REQUESTS_PER_MINUTE ?? (e.WATCH_CRON ? undefined : DEFAULT_FEED_REQUESTS_PER_MINUTE),
    callsRetentionDays: e.CALLS_RETENTION_DAYS ?? DEFAULT_CALLS_RETENTION_DAYS,
    followupRequestsPerMinute: e.FOLLOWUP_REQUESTS_PER_MINUTE ?? DEFAULT_FOLLOWUP_REQUESTS_PER_MINUTE,
    callWindowHours: e.CALL_WINDOW_HOURS ?? DEFAULT_CALL_WINDOW_HOURS,
    memberCallsPerDay: e.MEMBER_CALLS_PER_DAY ?? DEFAULT_MEMBER_CALLS_PER_DAY,
    memberCallFollowups: e.MEMBER_CALL_FOLLOWUPS ?? DEFAULT_MEMBER_CALL_FOLLOWUPS,
  };
}
