// The owner's "upstream requests in the last hour": counts per operation within the hour, nothing older.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recentCounts } from '../../src/ops/recent.ts';

test('recent counts keep the last hour per label and forget what is older', () => {
  let now = Date.UTC(2026, 0, 1, 12, 0, 30);
  const c = recentCounts(() => now);
  for (let i = 0; i < 5; i++) c.add('tweets');
  c.add('token');
  assert.deepEqual(c.lastHour(), { tweets: 5, token: 1 });
  now += 30 * 60_000; // half an hour later
  c.add('tweets');
  assert.deepEqual(c.lastHour(), { tweets: 6, token: 1 });
  now += 30 * 60_000; // the first minute has left the hour
  assert.deepEqual(c.lastHour(), { tweets: 1 });
  now += 3 * 3_600_000; // a bucket reused hours later starts again from zero
  c.add('tweets');
  assert.deepEqual(c.lastHour(), { tweets: 1 });
});
