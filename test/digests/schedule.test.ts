/** When digests are due, in the destination's time zone, across daylight-saving changes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { latestPeriod } from '../../src/alerts/digest/schedule.ts';
import { quietUntil } from '../../src/alerts/quiet.ts';
import { timeZoneOf, zonedInstant } from '../../src/domain/zoned.ts';

const daily = { period: 'daily' as const, at: 9 * 60, tz: 'Europe/Berlin', day: 1 };

test('a daily digest at 09:00 Berlin is due once per local day, through both daylight-saving changes', () => {
  for (const [from, to] of [
    ['2026-03-26T00:00:00Z', '2026-04-01T00:00:00Z'],
    ['2026-10-22T00:00:00Z', '2026-10-28T00:00:00Z'],
  ] as const) {
    const dueAt = new Map<string, number>();
    for (let t = Date.parse(from); t < Date.parse(to); t += 60_000) {
      const p = latestPeriod(daily, t);
      assert.ok(p.at <= t);
      if (dueAt.has(p.key)) assert.equal(dueAt.get(p.key), p.at, 'one instant per period');
      dueAt.set(p.key, p.at);
    }
    // Every instant is 09:00 on the wall clock: 08:00 UTC in winter, 07:00 UTC in summer.
    for (const [key, at] of dueAt) {
      const hour = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(at);
      assert.equal(hour, '09:00', key);
    }
    assert.equal(dueAt.size, 7, [...dueAt.keys()].join(' '));
  }
  assert.equal(
    latestPeriod(daily, Date.parse('2026-03-29T07:00:00Z')).key,
    'daily:2026-03-29',
    'summer time: 07:00 UTC is 09:00',
  );
  assert.equal(latestPeriod(daily, Date.parse('2026-03-29T06:59:00Z')).key, 'daily:2026-03-28');
  // The day with 23 hours: the period covers 23 hours.
  const p = latestPeriod(daily, Date.parse('2026-03-29T07:00:00Z'));
  assert.equal((p.at - p.from) / 3_600_000, 23);
});

test('a weekly digest falls on its weekday; a time the clock skips is taken an hour later, not dropped', () => {
  const weekly = { period: 'weekly' as const, at: 18 * 60, tz: 'America/New_York', day: 1 };
  const p = latestPeriod(weekly, Date.parse('2026-11-25T12:00:00Z')); // a Wednesday
  assert.equal(p.key, 'weekly:2026-11-23');
  assert.equal(new Date(p.at).toISOString(), '2026-11-23T23:00:00.000Z');
  assert.equal((p.at - p.from) / 86_400_000, 7);
  assert.equal(new Date(zonedInstant(2026, 3, 29, 2, 30, 'Europe/Berlin')).toISOString(), '2026-03-29T01:30:00.000Z');
});

test('time zones are IANA names; quiet hours wrap past midnight', () => {
  assert.equal(timeZoneOf('europe/berlin'), 'Europe/Berlin');
  assert.equal(timeZoneOf('Mars/Olympus'), undefined);
  const q = { from: 23 * 60, to: 7 * 60, tz: 'Asia/Tokyo' };
  assert.equal(quietUntil(q, Date.parse('2026-11-23T13:59:00Z')), undefined, '22:59 in Tokyo');
  assert.equal(new Date(quietUntil(q, Date.parse('2026-11-23T14:00:00Z'))!).toISOString(), '2026-11-23T22:00:00.000Z');
  assert.equal(new Date(quietUntil(q, Date.parse('2026-11-23T21:00:00Z'))!).toISOString(), '2026-11-23T22:00:00.000Z');
});
