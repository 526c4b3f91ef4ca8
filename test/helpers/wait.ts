/**
 * Waiting in tests for what they mean, never for a span of time that a fast
 * machine happens to beat:
 *
 * - `until` polls a condition (state the fakes do not announce: the store, a
 *   counter) and fails by name when it never holds;
 * - `barrier` sends a later update the bot must answer after everything sent
 *   before it, and waits for that answer;
 * - `nothingMoreAfter` shows that nothing more arrived: what counted before,
 *   a barrier, and the same count after it. A late duplicate would have come
 *   before the barrier's answer, so this catches what "sleep, then check"
 *   misses on a slow machine.
 *
 * The time limits are safety nets, far past any real wait, so a broken test
 * fails with a name instead of hanging; no test passes or fails by them.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/** A value that says "not yet": undefined, null or false. */
type NotYet = undefined | null | false;

/** How long a wait may take before the test fails by name; far past any real wait. */
export const PATIENCE_MS = 30_000;

/** Polls `check` until it gives something (its value is returned); fails naming `what` after `timeoutMs`. */
export async function until<V>(
  check: () => V | NotYet | Promise<V | NotYet>,
  what: string,
  timeoutMs = PATIENCE_MS,
): Promise<V> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== null && v !== false) return v;
    if (performance.now() > end) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * Sends `update` (a later message the bot must answer after the ones before it)
 * and waits until `answered` holds. Returns what `answered` gave.
 */
export async function barrier<V>(
  update: () => unknown,
  answered: () => V | NotYet | Promise<V | NotYet>,
  what = 'the barrier’s answer',
): Promise<V> {
  await update();
  return until(answered, what);
}

/**
 * Asserts that `count` does not change while a barrier goes through: counts
 * before, runs `barrier` (which resolves once the bot answered an update it must
 * handle after the ones under test), counts again.
 */
export async function nothingMoreAfter(
  count: () => number | Promise<number>,
  barrierRun: () => Promise<unknown>,
  what: string,
): Promise<void> {
  const before = await count();
  await barrierRun();
  assert.equal(await count(), before, `nothing more arrived: ${what}`);
}

/**
 * `until` for a wait behind other work: its safety net counts only the time in which
 * `progress` (a count the system under test moves as it works: requests it made) did not
 * change. A step queued behind others' pictures on a loaded machine waits as long as that
 * work goes on; a stall still fails by name after `quietMs` of nothing.
 */
export async function untilStalled<V>(
  check: () => V | NotYet | Promise<V | NotYet>,
  progress: () => number,
  what: string,
  quietMs = PATIENCE_MS,
): Promise<V> {
  let seen = progress();
  let end = performance.now() + quietMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== null && v !== false) return v;
    const p = progress();
    if (p !== seen) {
      seen = p;
      end = performance.now() + quietMs;
    }
    if (performance.now() > end) assert.fail(`nothing moved for ${quietMs} ms while waiting for ${what}`);
    await sleep(10);
  }
}
