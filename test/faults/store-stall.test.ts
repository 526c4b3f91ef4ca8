/**
 * A Redis that accepts connections but stops answering (here: the real
 * redis-server, paused with SIGSTOP). Every store call has a deadline, so a
 * command answers "try again" within its budget, and the log says the store
 * did not answer. Time is mocked: the answer must come before the command's
 * budget has passed on that clock. Once Redis runs again, commands work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import pino from 'pino';
import { createKolClient } from '../../src/api/index.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/store/index.ts';
import { STORE_CALL_DEADLINE_MS } from '../../src/store/redis.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';
import { caller } from '../commands/harness.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';

const BUDGET_MS = 8_000;

test('a stalled Redis: a command answers "try again" within its budget, and the log says so', {
  skip: redisAvailable() ? false : REDIS_SKIP,
}, async (t) => {
  const redis = await startRedis(t);
  const sb = await startSandbox({ live: false });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const store = await openStore(redis.url);
  const lines: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  t.after(async () => {
    redis.process.kill('SIGCONT');
    await store.close();
    await api.close();
    await sb.close();
  });
  const commands = await loadCommands();
  const dispatcher = createDispatcher({ commands, api, store, log, budgetMs: BUDGET_MS, charts: sharedChartPool() });
  const ok = await dispatcher.text('/alerts', caller);
  assert.equal(ok?.kind, 'error', 'no subscription yet: an answer that needed the store');
  assert.doesNotMatch(JSON.stringify(ok), /Try again/);

  redis.process.kill('SIGSTOP');
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let answer: unknown;
  const pending = dispatcher.text('/alerts', caller).then((v) => (answer = v));
  let waited = 0;
  while (answer === undefined && waited < BUDGET_MS) {
    await tick();
    await tick();
    t.mock.timers.tick(100);
    waited += 100;
  }
  t.mock.timers.reset();
  assert.ok(answer !== undefined, `no answer after ${waited} ms of mocked time (budget ${BUDGET_MS} ms)`);
  await pending;
  assert.ok(waited >= STORE_CALL_DEADLINE_MS, 'not before the deadline');
  assert.match(JSON.stringify(answer), /Try again/);
  assert.ok(
    lines.some((l) => l.includes('did not answer')),
    'the log names the stalled store call',
  );

  redis.process.kill('SIGCONT');
  const again = await dispatcher.text('/alerts', caller);
  assert.deepEqual(again, ok, 'the same answer as before the stall');
});
