/**
 * The upstream fault matrix, with the sandbox's fault injection: during commands
 * every fault gets a short, clear answer within the time budget; during watching
 * the watcher keeps its place and, once the upstream recovers, loses nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox, type Faults } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/store/index.ts';
import { alertHarness, caller as alertCaller } from '../alerts/harness.ts';
import { caller } from '../commands/harness.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

const BUDGET = 1_500;

const MATRIX: { name: string; faults: Faults; answer: RegExp }[] = [
  { name: 'added latency (within budget)', faults: { latencyMs: 150 }, answer: /^(?!.*(slow|unavailable))/ },
  { name: 'hang', faults: { hangRate: 1 }, answer: /slow or unavailable/ },
  { name: '5xx burst beyond retries', faults: { burst5xx: 50 }, answer: /slow or unavailable/ },
  { name: 'error rate 100%', faults: { errorRate: 1 }, answer: /slow or unavailable/ },
  { name: '429 storm', faults: { rateLimit: { count: 50, retryAfterSec: 5 } }, answer: /slow or unavailable/ },
  { name: 'malformed JSON', faults: { malformedRate: 1 }, answer: /unexpected format/ },
  { name: 'schema drift', faults: { driftRate: 1 }, answer: /unexpected format/ },
];

test('commands under every upstream fault: a short answer in time, and the next command works', async (t) => {
  const sb = await startSandbox();
  const api = createKolClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    cacheTtlMs: false,
    retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 100 },
  });
  const store = await openStore('memory:');
  const d = createDispatcher({
    charts: sharedChartPool(),
    commands: await loadCommands(),
    api,
    store,
    log: silentLogger(),
    userLimit: { count: 1e6, windowMs: 1000 },
    budgetMs: BUDGET,
  });
  t.after(async () => {
    await api.close();
    await store.close();
    await sb.close();
  });
  const token = sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  const lines = [
    `/token solana ${token.address}`,
    `/kol @${sb.data.kols[0]!.username}`,
    '/kols sort:winrate',
    '/tweets',
  ];
  for (const row of MATRIX) {
    sb.setFaults(row.faults);
    for (const line of lines) {
      // A hung upstream never answers: that the command answers at all shows the budget ended it.
      const view = await d.text(line, caller);
      const text = view?.kind === 'error' ? view.message : (view?.kind ?? 'none');
      assert.match(text, row.answer, `${row.name}: ${line} -> ${text}`);
      // The error's own labels ("Error:", "Example:") are catalogue words, not a raw error.
      const said = view?.kind === 'error' ? { ...view, labels: undefined } : view;
      assert.doesNotMatch(JSON.stringify(said), /at \S+\.ts:\d+|Error:/, 'no stack trace or raw error');
    }
    sb.clearFaults();
    const ok = await d.text(lines[0]!, caller);
    assert.equal(ok?.kind, 'card', `${row.name}: recovered`);
  }
});

test('a refused API key is an operator fault: users get a clear message, the key appears nowhere', async (t) => {
  const sb = await startSandbox({ apiKey: 'the-right-key' });
  const wrong = 'wrong-key-3f9a1c';
  const api = createKolClient({ baseUrl: sb.url, apiKey: wrong });
  const store = await openStore('memory:');
  const lines: string[] = [];
  const { createLogger } = await import('../../src/log.ts');
  const log = createLogger({ level: 'debug', secrets: [wrong], destination: { write: (l) => lines.push(l) } });
  const d = createDispatcher({ charts: sharedChartPool(), commands: await loadCommands(), api, store, log });
  t.after(async () => {
    await api.close();
    await store.close();
    await sb.close();
  });
  const view = await d.text('/kols', caller);
  assert.equal(view?.kind, 'error');
  assert.match(JSON.stringify(view), /API key was refused/);
  assert.ok(
    lines.some((l) => /refused the API key/.test(l)),
    'the operator sees it in the log',
  );
  assert.doesNotMatch(JSON.stringify(view) + lines.join(''), /wrong-key-3f9a1c/);
});

test('watching under faults: the mark stays, and after recovery every alert arrives once', async (t) => {
  // Each failed read doubles the watcher's back-off (1, 2, 4 … s): waited on a clock the test moves
  // (the real clock plus what was slept), not in real time.
  let slept = 0;
  const h = await alertHarness(t, {
    budgetMs: 1_000,
    now: () => Date.now() + slept,
    sleep: async (ms) => {
      slept += ms;
    },
  });
  await h.dispatcher.run(
    'subscribe',
    { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' },
    alertCaller('w'),
  );
  await h.cycle();
  const kol = h.sb.data.kols[0]!;
  let n = 0;
  for (const row of MATRIX.filter((r) => !r.name.startsWith('added'))) {
    h.sb.addTweets(1, { token: h.sb.data.tokens[n++]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    h.sb.setFaults({ ...row.faults, operations: ['tweets'] });
    await assert.rejects(h.cycle(), `${row.name}: the tick fails`);
    h.sb.clearFaults();
  }
  await h.cycle();
  assert.ok(slept >= 30_000, `the back-off grew while the upstream failed (${slept} ms)`);
  assert.deepEqual(
    h.sent.map((s) => (s.view.kind === 'card' ? s.view.title.split(' ')[0] : '')),
    h.sb.data.tokens.slice(0, n).map((x) => x.symbol),
    'every tweet from the outage, once, in order',
  );
});
