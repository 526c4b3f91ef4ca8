/** The one rate window, charged per unit: costs, refusals that charge nothing, and the wait until room. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRateLimiter } from '../../src/core/ratelimit.ts';

test('costs add up within the window; a refusal charges nothing and says when enough room returns', () => {
  const l = createRateLimiter(10, 60_000);
  assert.equal(l.take('u', 0, 6).waitMs, 0);
  assert.equal(l.fits('u', 1_000, 4), true);
  assert.equal(l.fits('u', 1_000, 5), false, 'fits() counts nothing');
  assert.equal(l.take('u', 1_000, 4).waitMs, 0);
  const refused = l.take('u', 2_000, 5);
  assert.equal(refused.waitMs, 58_000, 'room for 5 once the first 6 leave the window');
  assert.equal(refused.toldAlready, false);
  assert.equal(l.take('u', 3_000, 1).toldAlready, true, 'told once per wait');
  assert.equal(l.take('v', 3_000, 10).waitMs, 0, 'another key has its own window');
  assert.equal(l.take('u', 60_000, 5).waitMs, 0, 'the refusals were not charged');
  assert.ok(l.take('w', 0, 11).waitMs > 0, 'a cost over the limit never fits');
});
