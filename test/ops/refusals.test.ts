/** Refused requests: each counted, the log summed up once a minute at most. */
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import pino from 'pino';
import { createRefusals } from '../../src/ops/refusals.ts';

test('a thousand forged requests in a minute: a thousand counted, two log lines (the first, then the summary)', () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  try {
    const lines: { refused: Record<string, number> }[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const counted: string[] = [];
    const refusals = createRefusals({ log, what: 'test', onRefused: (r) => counted.push(r) });
    for (let i = 0; i < 1_000; i++) {
      refusals.count(i % 10 ? 'signature' : 'stale');
      mock.timers.tick(50);
    }
    assert.equal(counted.length, 1_000);
    assert.equal(lines.length, 1, 'one line at the first refusal; the rest wait for the minute to end');
    mock.timers.tick(60_000);
    const total = lines.reduce((n, l) => n + Object.values(l.refused).reduce((a, b) => a + b, 0), 0);
    assert.ok(lines.length <= 2, `${lines.length} lines`);
    assert.equal(total, 1_000, 'the summaries add up to every refusal');
  } finally {
    mock.timers.reset();
  }
});
