// /winrate ranks only KOLs with enough tokens counted: operation 5 has no such filter,
// so the command reads up to WINRATE_PAGES pages of 30 and says what it ranked.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';
import { openStore } from '../../src/store/index.ts';
import { WINRATE_PAGES } from '../../commands/winrate.ts';
import { DEFAULT_MIN_TOKENS } from '../../commands/_options.ts';
import { winRates } from '../api/fixtures.ts';
import { rawServer } from '../api/rawserver.ts';
import { asTable, caller, harness, plain } from './harness.ts';

/** The sample a table cell's rate rests on: "62% of 13" → 13. */
const sample = (cell: string | undefined): number => Number(/ of (\d+)$/.exec(cell ?? '')?.[1] ?? Number.NaN);

/** 60 KOLs with one token at 100% lead the 24h ranking, then 40 with 5-44 tokens at falling rates. */
function seeded() {
  const base = winRates().items[0]!;
  const row = (i: number, n: number, rate: number) => ({
    ...base,
    x_user_id: 1000 + i,
    num_tokens_counted_win_rate: n,
    win_rate_after1d: String(rate),
    x_user: { ...(base['x_user'] as object), id: 1000 + i, username: `kol${i}` },
  });
  return [
    ...Array.from({ length: 60 }, (_, i) => row(i, 1, 1)),
    ...Array.from({ length: 40 }, (_, i) => row(60 + i, 5 + i, 0.9 - i * 0.01)),
  ];
}

async function setup(t: TestContext) {
  const rows = seeded();
  const queries: URLSearchParams[] = [];
  const server = await rawServer(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    assert.equal(url.pathname, '/v2/x-users/win-rate');
    queries.push(url.searchParams);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ items: rows.slice(offset, offset + limit), total: rows.length }));
  });
  const api = createKolClient({ baseUrl: server.url, apiKey: 'k', cacheTtlMs: false });
  const store = await openStore('memory:');
  const dispatcher = createDispatcher({
    commands: await loadCommands(),
    api,
    store,
    log: silentLogger(),
    charts: sharedChartPool(),
  });
  t.after(async () => {
    await api.close();
    await store.close();
  });
  return { dispatcher, queries };
}

test('60 one-token KOLs at 100%: /winrate still shows a full page of KOLs with enough tokens, within the page budget', async (t) => {
  const { dispatcher, queries } = await setup(t);
  const table = asTable((await dispatcher.text('/winrate sort:24h', caller))!);
  assert.equal(table.rows.length, 10, 'a full page');
  assert.deepEqual(
    table.rows.map((r) => r['kol']),
    Array.from({ length: 10 }, (_, i) => `@kol${60 + i}`),
    'the best-ranked KOLs with at least 5 tokens, in the upstream order',
  );
  // Every rate shows the tokens it counts ("90% of 5").
  assert.ok(table.rows.every((r) => sample(r['24h']) >= DEFAULT_MIN_TOKENS));
  assert.ok(queries.length <= WINRATE_PAGES, `${queries.length} upstream requests`);
  assert.ok(queries.every((q) => q.get('sortField') === 'winRateAfter1d' && q.get('limit') === '30'));
  assert.match(plain(table.description), /Ranked: KOLs with 5\+ tokens counted, among the top 70 sorted by 24h\./);
  // Next carries on after the last row read, without reading the top again.
  const before = queries.length;
  const nextId = table.actions!.find((a) => a.label.includes('Next'))!.id!;
  const next = asTable((await dispatcher.action(nextId, caller))!);
  assert.deepEqual(
    next.rows.map((r) => r['kol']),
    Array.from({ length: 10 }, (_, i) => `@kol${70 + i}`),
  );
  assert.match(next.footer ?? '', /^11-20 · /);
  assert.equal(queries[before]!.get('offset'), '70');
  const prevId = next.actions!.find((a) => a.label.includes('Previous'))!.id!;
  const prev = asTable((await dispatcher.action(prevId, caller))!);
  assert.deepEqual(
    prev.rows.map((r) => r['kol']),
    table.rows.map((r) => r['kol']),
  );
});

test('min_tokens:1 ranks them all; a threshold nobody meets within the budget says what was read', async (t) => {
  const { dispatcher, queries } = await setup(t);
  const all = asTable((await dispatcher.text('/winrate sort:24h min_tokens:1 limit:5', caller))!);
  assert.deepEqual(
    all.rows.map((r) => r['kol']),
    ['@kol0', '@kol1', '@kol2', '@kol3', '@kol4'],
  );
  assert.equal(queries.length, 1);
  const none = asTable((await dispatcher.text('/winrate sort:24h min_tokens:500', caller))!);
  assert.equal(none.rows.length, 0);
  assert.match(
    plain(none.description),
    /No KOL matches these filters\. Ranked: KOLs with 500\+ tokens counted, among the top 100/,
  );
  assert.equal(queries.length, 1 + WINRATE_PAGES, 'never more than the page budget');
});

test('/kols sort:winrate ranks only KOLs with 5+ tokens and says so; min_tokens: changes it, other sorts are as before', async (t) => {
  const h = await harness();
  t.after(() => h.close());
  const query = () => h.sandbox.requests.filter((r) => r.path.endsWith('/x-users/analytics')).at(-1)!.rawQuery;
  const ranked = asTable(await h.send('/kols sort:winrate order:asc limit:25'));
  assert.match(query(), /minTotalToken=5(&|$)/);
  assert.match(plain(ranked.description), /Only KOLs with 5\+ tokens are ranked by win rate/);
  assert.ok(ranked.rows.length > 0);
  assert.ok(
    ranked.rows.every((r) => sample(r['win']) >= 5),
    'every ranked KOL has 5 or more',
  );
  // The sandbox's KOLs all have 6+ tokens: a higher bar shows the filter at work.
  const strict = asTable(await h.send('/kols sort:winrate min_tokens:20 order:asc limit:25'));
  assert.match(query(), /minTotalToken=20(&|$)/);
  assert.ok(strict.rows.length > 0 && strict.rows.every((r) => sample(r['win']) >= 20));
  assert.doesNotMatch(plain(strict.description), /Only KOLs with/, 'a bar the user set needs no note');
  const loose = asTable(await h.send('/kols sort:winrate min_tokens:1 order:asc limit:25'));
  assert.ok(loose.rows.some((r) => sample(r['win']) < 20));
  asTable(await h.send('/kols sort:score'));
  assert.doesNotMatch(query(), /minTotalToken/);
});
