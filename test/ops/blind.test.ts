/**
 * The alert watcher alive but blind: its ticks run and every one fails to
 * read the tweet feed. /readyz says so once BLIND_AFTER_TICKS ticks in a row
 * failed (one failed tick is an upstream hiccup, not blindness), and is ready
 * again after the next tick that reads it. Ticks are driven by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLIND_AFTER_TICKS } from '../../src/alerts/watcher.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { startOpsServer } from '../../src/ops/http.ts';

test('/readyz reports a blind watcher: the feed not read for several ticks in a row, then ready again', async (t) => {
  const app = await createApp(loadConfig({ STORE_URL: 'memory:' }), silentLogger(), { sandboxLiveRate: 0 });
  const ops = await startOpsServer({
    port: 0,
    host: '127.0.0.1',
    metrics: app.metrics,
    checks: {
      store: () => app.store.ping(),
      storeName: 'memory',
      platforms: () => ({}),
      lease: () => app.leaseStatus(),
      feed: () => app.feedProblem(),
    },
  });
  t.after(async () => {
    await ops.close();
    await app.close();
  });
  const readyz = async () => {
    const res = await fetch(`http://127.0.0.1:${ops.port}/readyz`);
    return { status: res.status, body: (await res.json()) as { feed?: string } };
  };
  // Ticks by hand only: a schedule that never comes during the test.
  // Each failed read doubles the watcher's back-off: waited on a clock the test moves, not in real time.
  let slept = 0;
  const watcher = app.startAlerts([], {
    cron: '0 0 1 1 *',
    digestSchedule: false,
    now: () => Date.now() + slept,
    sleep: async (ms) => {
      slept += ms;
    },
  });
  await watcher.tick();
  assert.equal((await readyz()).status, 200);

  app.sandbox!.setFaults({ errorRate: 1, operations: ['tweets'] });
  for (let i = 1; i < BLIND_AFTER_TICKS; i++) {
    await assert.rejects(watcher.tick(), 'the tick could not read the feed');
    assert.equal((await readyz()).status, 200, `${i} failed tick(s): a hiccup, still ready`);
  }
  await assert.rejects(watcher.tick());
  const blind = await readyz();
  assert.equal(blind.status, 503);
  assert.match(blind.body.feed ?? '', new RegExp(`not been read for ${BLIND_AFTER_TICKS} ticks \\(last read 20`));

  app.sandbox!.clearFaults();
  await watcher.tick();
  const back = await readyz();
  assert.equal(back.status, 200);
  assert.equal(back.body.feed, undefined);
});
