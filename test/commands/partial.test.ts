// Whole answers from partial data: one malformed row costs that row only, and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { createLogger } from '../../src/log.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/store/index.ts';
import { rawServer } from '../api/rawserver.ts';
import { caller } from './harness.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

/** The sandbox behind a proxy that breaks `breakRow` in each answer of the paths it is given. */
async function rig(t: import('node:test').TestContext, breakRow: (path: string, body: any) => void) {
  const sb = await startSandbox({ live: false });
  const proxy = await rawServer(t, (req, res) => {
    void (async () => {
      const r = await fetch(sb.url + req.url, { headers: { 'x-api-key': String(req.headers['x-api-key'] ?? '') } });
      const body = await r.json(); // ids past 2^53 lose precision here; these tests do not read them
      if (r.ok) breakRow(req.url!.split('?')[0]!, body);
      res.writeHead(r.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    })();
  });
  const logs: string[] = [];
  const log = createLogger({ level: 'warn', secrets: [], destination: { write: (l: string) => void logs.push(l) } });
  const api = createKolClient({
    baseUrl: proxy.url,
    apiKey: sb.apiKey,
    logger: log,
    cacheTtlMs: false,
    retry: { attempts: 1 },
  });
  const store = await openStore('memory:');
  const dispatcher = createDispatcher({
    charts: sharedChartPool(),
    commands: await loadCommands(),
    api,
    store,
    log,
    userLimit: { count: 1000, windowMs: 1000 },
  });
  t.after(async () => {
    await api.close();
    await store.close();
    await sb.close();
  });
  return { sb, dispatcher, logs };
}

test('a list with one malformed row shows the rows that parse and one line "1 row could not be read"; the log names the field', async (t) => {
  const { dispatcher, logs } = await rig(t, (path, body) => {
    if (path === '/v2/x-users/analytics') body.items[1].total_score = 'lots';
  });
  const view = await dispatcher.text('/kols limit:5', caller);
  assert.equal(view?.kind, 'table');
  if (view?.kind !== 'table') return;
  assert.equal(view.rows.length, 4, 'the four good rows');
  assert.equal(view.notes?.at(-1), '1 row could not be read');
  assert.ok(
    logs.some((l) => l.includes('items.1.total_score')),
    'the field path is logged',
  );
});

test('the tweet feed keeps its readable tweets too; two bad rows say "2 rows"', async (t) => {
  const { dispatcher } = await rig(t, (path, body) => {
    if (path === '/v2/tweets') {
      body.items[0].token.avg_score = null;
      delete body.items[2].tweeted_at;
    }
  });
  const view = await dispatcher.text('/tweets', caller);
  assert.notEqual(view?.kind, 'error', JSON.stringify(view));
  assert.match(JSON.stringify(view), /2 rows could not be read/);
});

test('a single-item answer (a card) with a malformed field still refuses cleanly', async (t) => {
  const { sb, dispatcher } = await rig(t, (path, body) => {
    if (path.endsWith('/score')) body.score = 'high';
  });
  const view = await dispatcher.text(`/kol ${sb.data.kols[0]!.twitter_id}`, caller);
  assert.equal(view?.kind, 'error');
  assert.match(JSON.stringify(view), /unexpected format/);
});

test('a list whose every row is malformed is refused, not shown empty', async (t) => {
  const { dispatcher } = await rig(t, (path, body) => {
    if (path === '/v2/x-users/analytics') for (const it of body.items) it.kol = 5;
  });
  const view = await dispatcher.text('/kols limit:3', caller);
  assert.equal(view?.kind, 'error');
});
