// The window on a mocked clock: where sends start and end is read off a clock the test moves,
// so "no window of 100 ms sees six" is checked exactly, whatever the machine's speed.
import { afterEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { SlidingWindow } from '../../src/adapters/window.ts';
import { onMockedClock } from '../helpers/clock.ts';

afterEach(() => mock.timers.reset());

test('no window of the given length ever sees more than max sends, counted from start to completion', async () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const w = new SlidingWindow(5, 100, { maxInFlight: 3, now: () => Date.now() });
  const spans: { start: number; end: number }[] = [];
  let inFlight = 0;
  let peak = 0;
  await onMockedClock(
    Promise.all(
      Array.from({ length: 20 }, () =>
        w.run(async () => {
          const start = Date.now();
          peak = Math.max(peak, ++inFlight);
          // Not a wait: sends of random length (on the mocked clock) are the scenario the window must hold under.
          await new Promise((r) => setTimeout(r, 3 + Math.floor(Math.random() * 5)));
          inFlight--;
          spans.push({ start, end: Date.now() });
        }),
      ),
    ),
  );
  assert.equal(spans.length, 20);
  spans.sort((a, b) => a.start - b.start);
  // The (i+5)th send starts a full window after some earlier send completed: a server that
  // counts arrivals (between start and end) never sees 6 in 100 ms.
  for (let i = 5; i < spans.length; i++) {
    const earlier = spans
      .slice(0, i)
      .map((s) => s.end)
      .sort((a, b) => a - b);
    assert.ok(spans[i]!.start >= earlier[i - 5]! + 100, `send ${i} started too early`);
  }
  assert.ok(peak <= 3, `at most 3 in flight, saw ${peak}`);
  assert.ok(spans.at(-1)!.end - spans[0]!.start >= 300, 'paced, not a burst: 20 sends at 5 a window span 3 windows');
});
