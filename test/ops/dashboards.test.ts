/**
 * The Grafana dashboard and the Prometheus rules name only metrics the bot
 * exports: each kolradar_ series they query is in a real /metrics scrape of a
 * bot that answered a command and ran a watcher tick.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { startOpsServer } from '../../src/ops/http.ts';
import { ROOT } from '../helpers/npm.ts';

const read = (f: string) => readFileSync(new URL(f, `file://${ROOT}/`), 'utf8');
/** Histogram and counter sample suffixes belong to the family /metrics declares with # TYPE. */
const family = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
const named = (text: string) => [...new Set([...text.matchAll(/\bkolradar_[a-z0-9_]+/g)].map((m) => family(m[0])))];

test('every metric the dashboard and the alert rules name exists in /metrics', async (t) => {
  const dashboard = JSON.parse(read('deploy/grafana-dashboard.json')) as { panels: { targets: { expr: string }[] }[] };
  const exprs = dashboard.panels.flatMap((p) => p.targets.map((x) => x.expr)).join('\n');
  const rules = read('deploy/prometheus-rules.yml');
  assert.match(exprs, /increase\(kolradar_upstream_calls_total\{[^}]*\}\[1h\]\)/, 'requests per operation, last hour');
  for (const alert of [
    'NotReady',
    'StoreLost',
    'AlertBacklogGrowing',
    'UpstreamErrors',
    'EventLoopStalls',
    'NoNewTweets',
  ])
    assert.match(rules, new RegExp(`alert: Kolradar${alert}\\n`));

  const app = await createApp(loadConfig({ STORE_URL: 'memory:' }), silentLogger(), { sandboxLiveRate: 0 });
  const ops = await startOpsServer({
    port: 0,
    metrics: app.metrics,
    checks: { store: () => app.store.ping(), storeName: 'memory', platforms: () => ({}), lease: () => 'leader' },
  });
  t.after(async () => {
    await ops.close();
    await app.close();
  });
  await app.dispatcher.text('/kols', {
    platform: 'console',
    userId: 'u',
    chatId: 'c',
    chatType: 'private',
    canManage: async () => true,
  });
  await app.startAlerts([]).tick();
  const scrape = await (await fetch(`http://127.0.0.1:${ops.port}/metrics`)).text();
  const exported = new Set([...scrape.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!));
  for (const [what, text] of [
    ['dashboard', exprs],
    ['alert rules', rules],
  ] as const) {
    const names = named(text);
    assert.ok(names.length > 5, `${what} names metrics`);
    assert.deepEqual(
      names.filter((n) => !exported.has(n)),
      [],
      `${what}: every metric exists in /metrics`,
    );
  }
});
