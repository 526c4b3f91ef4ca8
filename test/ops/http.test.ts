import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { startOpsServer } from '../../src/ops/http.ts';
import type { Caller } from '../../src/core/command.ts';

const caller: Caller = {
  platform: 'console',
  userId: 'u',
  chatId: 'c',
  chatType: 'private',
  canManage: async () => true,
};

test('/healthz, /readyz and /metrics report what operators need', async (t) => {
  const app = await createApp(loadConfig({ STORE_URL: 'memory:' }), silentLogger(), { sandboxLiveRate: 0 });
  let platformUp = true;
  const ops = await startOpsServer({
    port: 0,
    host: '127.0.0.1',
    metrics: app.metrics,
    checks: {
      store: () => app.store.ping(),
      storeName: 'memory',
      platforms: () => ({ telegram: platformUp }),
      lease: () => app.leaseStatus(),
    },
  });
  t.after(async () => {
    await ops.close();
    await app.close();
  });
  const get = (path: string) => fetch(`http://127.0.0.1:${ops.port}${path}`);

  assert.equal((await get('/healthz')).status, 200);
  const ready = await get('/readyz');
  assert.equal(ready.status, 200);
  assert.deepEqual(await ready.json(), {
    ready: true,
    store: true,
    storeName: 'memory',
    platforms: { telegram: true },
    watcher: 'not running',
  });
  platformUp = false;
  assert.equal((await get('/readyz')).status, 503, 'a disconnected platform is not ready');
  const scraped = await (await get('/metrics')).text();
  assert.match(scraped, /^kolradar_ready 0$/m, 'the scrape sees the same verdict');
  assert.match(scraped, /^kolradar_store_up 1$/m);

  const token = app.sandbox!.data.tokens.find((x) => x.chain_id === 'solana')!;
  await app.dispatcher.text(`/token solana ${token.address}`, caller);
  await app.dispatcher.text('/token solanaa x', caller);
  const watcher = app.startAlerts([]);
  await watcher.tick();
  const body = await (await get('/metrics')).text();
  assert.match(body, /kolradar_commands_total\{command="token",outcome="ok"\} 1/);
  assert.match(body, /kolradar_commands_total\{command="token",outcome="user_error"\} 1/);
  assert.match(body, /kolradar_upstream_request_duration_seconds_count\{operation="tokenAnalytics"\} [1-9]/);
  assert.match(body, /kolradar_watcher_ticks_total\{result="leader"\} 1/);
  assert.match(body, /kolradar_watcher_lag_seconds \d/);
  assert.match(body, /# TYPE kolradar_outbox_depth gauge/);

  const rss = Number(/kolradar_process_memory_bytes\{kind="rss"\} (\d+)/.exec(body)?.[1]);
  assert.ok(rss >= process.memoryUsage().heapUsed / 2, `rss ${rss}`);
  assert.match(body, /kolradar_process_memory_bytes\{kind="heap_used"\} [1-9]\d*/);
  // Hold the event loop for 300 ms: the heartbeat due within 20 ms of the start
  // runs after the hold, so the stall reported cannot be under 280 ms.
  const until = performance.now() + 300;
  while (performance.now() < until);
  const after = await (await get('/metrics')).text();
  const stall = Number(/kolradar_event_loop_stall_seconds ([\d.e-]+)/.exec(after)?.[1]);
  assert.ok(stall >= 0.28, `event-loop stall ${stall}`);
  for (const stat of ['p50', 'p99', 'max'])
    assert.match(
      after,
      new RegExp(
        `# TYPE kolradar_event_loop_delay_${stat}_seconds gauge\nkolradar_event_loop_delay_${stat}_seconds [\\d.e-]+\n`,
      ),
    );
  assert.doesNotMatch(after, /quantile=/, 'no quantile label outside a summary');
});

test('/metrics does not grow with what users type: 300 distinct unknown commands add one series', async (t) => {
  const app = await createApp(loadConfig({ STORE_URL: 'memory:' }), silentLogger(), {
    sandboxLiveRate: 0,
    dispatcher: { userLimit: { count: 1_000, windowMs: 60_000 } },
  });
  const ops = await startOpsServer({
    port: 0,
    metrics: app.metrics,
    checks: {
      store: () => app.store.ping(),
      storeName: 'memory',
      platforms: () => ({}),
      lease: () => app.leaseStatus(),
    },
  });
  t.after(async () => {
    await ops.close();
    await app.close();
  });
  const series = async () =>
    (await (await fetch(`http://127.0.0.1:${ops.port}/metrics`)).text())
      .split('\n')
      .filter((l) => l.startsWith('kolradar_commands_total{'));
  await app.dispatcher.text('/help', caller);
  const before = await series();
  for (let i = 0; i < 300; i++)
    await app.dispatcher.text(`/cmd_${i}_${'x'.repeat(i % 7)}`, { ...caller, userId: `u${i % 3}` });
  const after = await series();
  assert.equal(after.length, before.length + 1, after.join('\n'));
  assert.ok(after.includes('kolradar_commands_total{command="unknown",outcome="user_error"} 300'), after.join('\n'));
});
