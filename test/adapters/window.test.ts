import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SlidingWindow } from '../../src/adapters/window.ts';

test('no window of the given length ever sees more than max sends, counted from start to completion', async () => {
  const w = new SlidingWindow(5, 100, { maxInFlight: 3 });
  const spans: { start: number; end: number }[] = [];
  let inFlight = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: 20 }, () =>
      w.run(async () => {
        const start = performance.now();
        peak = Math.max(peak, ++inFlight);
        // Not a wait: sends of random length are the scenario the window must hold under.
        await new Promise((r) => setTimeout(r, 3 + Math.random() * 5));
        inFlight--;
        spans.push({ start, end: performance.now() });
      }),
    ),
  );
  spans.sort((a, b) => a.start - b.start);
  // The (i+5)th send starts a full window after some earlier send completed: a server that
  // counts arrivals (between start and end) never sees 6 in 100 ms.
  for (let i = 5; i < spans.length; i++) {
    const earlier = spans
      .slice(0, i)
      .map((s) => s.end)
      .sort((a, b) => a - b);
    assert.ok(spans[i]!.start >= earlier[i - 5]! + 100 - 1, `send ${i} started too early`);
  }
  assert.ok(peak <= 3, `at most 3 in flight, saw ${peak}`);
  const seconds = (spans.at(-1)!.end - spans[0]!.start) / 1000;
  assert.ok(seconds >= 0.3, 'paced, not a burst');
});
