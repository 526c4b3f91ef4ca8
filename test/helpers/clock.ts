/**
 * Time for code that waits on timers, moved by the test: `mock.timers` (enabled by the
 * caller for setTimeout and Date) is advanced a millisecond at a time, and what the
 * timers set off runs in between, until the work under test is done. Every time the
 * code reads is then a step of that clock, exact on any machine.
 */
import assert from 'node:assert/strict';
import { mock } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';

/** Lets promises and I/O callbacks run; mocked timers do not fire by themselves. */
export async function settle(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await turn();
}

/** Advances the mocked clock 1 ms at a time until `work` settles; fails by name past `limitMs` of mocked time. */
export async function onMockedClock<T>(work: Promise<T>, limitMs = 60_000): Promise<T> {
  let done = false;
  const watched = work.finally(() => {
    done = true;
  });
  for (let ms = 0; !done; ms++) {
    await settle();
    if (done) break;
    assert.ok(ms <= limitMs, `still not done after ${limitMs} ms of mocked time`);
    mock.timers.tick(1);
  }
  return watched;
}
