import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiAbortedError, ApiSchemaError, ApiUnavailableError, type CallEvent } from '../../src/api/index.ts';
import { sandboxPerFile } from './helpers.ts';

const setup = sandboxPerFile();

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
}

test('a burst of 5xx is retried until it succeeds', async (t) => {
  const events: CallEvent[] = [];
  const { sb, client } = await setup(t, { onCall: (e) => events.push(e) });
  const kol = sb.data.kols[0];
  assert.ok(kol);
  sb.setFaults({ burst5xx: 2 });
  const score = await client.getKolScore({ xUserId: kol.twitter_id });
  assert.equal(typeof score.score, 'number');
  assert.equal(sb.count('kolScore'), 3);
  assert.deepEqual(
    sb.requests.map((r) => r.status),
    [503, 503, 200],
  );
  assert.equal(events.length, 1);
  assert.equal(events[0]?.outcome, 'ok');
  assert.equal(events[0]?.attempts, 3);
  assert.equal(events[0]?.status, 200);
});

test('5xx that outlasts the retries ends in ApiUnavailableError after the configured attempts', async (t) => {
  const { sb, client } = await setup(t, { retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 10 } });
  sb.setFaults({ burst5xx: 10 });
  const err = await failure(client.getKolTable({}));
  assert.ok(err instanceof ApiUnavailableError, String(err));
  assert.equal(err.kind, 'server_error');
  assert.equal(err.status, 503);
  assert.equal(err.attempts, 3);
  assert.equal(sb.count('kolTable'), 3);

  // A gateway's 502 HTML page is read as a 5xx too, not as a schema problem.
  sb.setFaults({ errorRate: 1 });
  const err2 = await failure(client.getKolTable({ limit: 3 }));
  assert.ok(err2 instanceof ApiUnavailableError, String(err2));
  assert.equal(err2.kind, 'server_error');
});

test('429 with Retry-After is waited out before the retry', async (t) => {
  // The client's waits, recorded instead of slept: what it waited is counted, not timed.
  const waits: number[] = [];
  const { sb, client } = await setup(t, { sleep: async (ms) => void waits.push(ms) });
  sb.setFaults({ rateLimit: { count: 1, retryAfterSec: 0.3 } });
  const table = await client.getKolTable({ limit: 2 });
  assert.equal(table.items.length, 2);
  assert.deepEqual(
    sb.requests.map((r) => r.status),
    [429, 200],
  );
  // Backoff alone would be at most 20 ms here: the one wait before the retry is Retry-After's.
  assert.deepEqual(waits, [300]);
});

test('a Retry-After longer than the budget fails at once instead of waiting', async (t) => {
  const { sb, client } = await setup(t);
  sb.setFaults({ rateLimit: { count: 5, retryAfterSec: 30 } });
  const err = await failure(client.getKolTable({}, { budgetMs: 1_000 }));
  assert.ok(err instanceof ApiUnavailableError, String(err));
  assert.equal(err.kind, 'rate_limited');
  assert.equal(err.status, 429);
  assert.equal(err.budgetExhausted, true);
  assert.equal(err.retryAfterMs, 30_000);
  assert.equal(sb.count(), 1);
});

test('a hanging upstream times out into ApiUnavailableError within the budget', async (t) => {
  const { sb, client } = await setup(t, { timeouts: { headersMs: 150 } });
  sb.setFaults({ hangRate: 1 });
  const err = await failure(client.getKolTable({}, { budgetMs: 400 }));
  assert.ok(err instanceof ApiUnavailableError, String(err));
  assert.equal(err.kind, 'timeout');
  assert.ok(
    sb.requests.every((r) => r.fault === 'hang'),
    'every attempt hung: the budget, not an answer, ended the call',
  );

  // With room in the budget, every attempt times out on its own headers timeout, leaving room for
  // the retries. (Were the headers timeout not applied, the first attempt would use up the whole budget.)
  sb.resetRequests();
  const err2 = await failure(client.getKolTable({ limit: 3 }, { budgetMs: 10_000 }));
  assert.ok(err2 instanceof ApiUnavailableError);
  assert.equal(err2.kind, 'timeout');
  assert.equal(err2.attempts, 3);
  assert.equal(sb.count(), 3);
});

test('the total time budget covers slow answers and retries together', async (t) => {
  const { sb, client } = await setup(t, { retry: { attempts: 10, baseDelayMs: 5, maxDelayMs: 10 } });
  sb.setFaults({ latencyMs: 120, errorRate: 1 });
  const err = await failure(client.getKolTable({}, { budgetMs: 300 }));
  assert.ok(err instanceof ApiUnavailableError, String(err));
  assert.equal(err.budgetExhausted, true);
  // Ten attempts were allowed; 120 ms answers in a 300 ms budget leave room for at most three.
  assert.ok(sb.count() >= 1 && sb.count() <= 3, `${sb.count()} requests`);
});

test('an abort stops the call at once and nothing is retried', async (t) => {
  const { sb, client } = await setup(t);
  sb.setFaults({ hangRate: 1 });
  const ac = new AbortController();
  const call = failure(client.getKolTable({}, { signal: ac.signal, budgetMs: 2_000 }));
  while (sb.inFlight === 0) await new Promise((r) => setImmediate(r));
  ac.abort();
  // Not stopped, the hung call would end as a timeout after its budget instead.
  const err = await call;
  assert.ok(err instanceof ApiAbortedError, String(err));
  assert.equal(sb.count(), 1);

  const err2 = await failure(client.getKolTable({ limit: 1 }, { signal: AbortSignal.abort() }));
  assert.ok(err2 instanceof ApiAbortedError);
  assert.equal(sb.count(), 1, 'an already aborted call sends nothing');

  // Abort while waiting out a Retry-After before the retry.
  sb.setFaults({ rateLimit: { count: 5, retryAfterSec: 2 } });
  sb.resetRequests();
  const ac2 = new AbortController();
  const call3 = failure(client.getKolTable({ limit: 2 }, { signal: ac2.signal, budgetMs: 5_000 }));
  while (sb.requests.length === 0 || sb.inFlight > 0) await new Promise((r) => setImmediate(r));
  ac2.abort();
  const err3 = await call3;
  assert.ok(err3 instanceof ApiAbortedError);
  // Sat out, the 2 s wait would have been followed by a retry.
  assert.equal(sb.count(), 1, 'the 2 s wait was not sat out');
});

test('identical calls in flight share one upstream request', async (t) => {
  const events: CallEvent[] = [];
  const { sb, client } = await setup(t, { onCall: (e) => events.push(e) });
  sb.setFaults({ latencyMs: 100 });
  const results = await Promise.all(
    Array.from({ length: 10 }, () => client.getKolTable({ limit: 5, sortField: 'winrate' })),
  );
  assert.equal(sb.count('kolTable'), 1);
  for (const r of results) assert.deepEqual(r, results[0]);
  assert.notEqual(results[1], results[0], 'each caller gets its own copy');
  assert.equal(events.filter((e) => e.outcome === 'ok').length, 1);
  assert.equal(events.filter((e) => e.outcome === 'cache').length, 9);

  // The first caller scribbling on its answer as soon as it arrives does not reach the others.
  const first = client.getKolTable({ limit: 8 }).then((r) => {
    r.items.length = 0;
    return r;
  });
  const rest = Array.from({ length: 3 }, () => client.getKolTable({ limit: 8 }));
  assert.equal((await first).items.length, 0);
  for (const r of await Promise.all(rest)) assert.equal(r.items.length, 8);
  assert.equal((await client.getKolTable({ limit: 8 })).items.length, 8, 'nor the cache');

  // Different parameters are different requests.
  sb.resetRequests();
  await Promise.all([client.getKolTable({ limit: 6 }), client.getKolTable({ limit: 7 })]);
  assert.equal(sb.count(), 2);
});

test("one caller's abort does not abort the shared call for the others", async (t) => {
  const { sb, client } = await setup(t, { cacheTtlMs: false });
  sb.setFaults({ latencyMs: 150 });
  const ac = new AbortController();
  const a = client.getTweets({ limit: 4 }, { signal: ac.signal });
  const b = client.getTweets({ limit: 4 });
  setTimeout(() => ac.abort(), 30);
  const [ra, rb] = await Promise.allSettled([a, b]);
  assert.equal(ra.status, 'rejected');
  assert.ok(ra.status === 'rejected' && ra.reason instanceof ApiAbortedError);
  assert.equal(rb.status, 'fulfilled');
  assert.equal(rb.status === 'fulfilled' && rb.value.items.length, 4);
  assert.equal(sb.count(), 1);
  assert.equal(sb.requests[0]?.status, 200);
});

test('responses are cached per operation and parameters until their TTL; bypass refetches', async (t) => {
  const { sb, client } = await setup(t, { cacheTtlMs: { kolScore: 150 } });
  // Expiry reads the clock: a mocked Date moves past the TTL without waiting for it.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const kol = sb.data.kols[2];
  assert.ok(kol);
  const first = await client.getKolScore({ xUserId: kol.twitter_id });
  first.score = -1; // a caller scribbling on its copy must not reach the cache
  const second = await client.getKolScore({ xUserId: kol.twitter_id });
  assert.equal(sb.count(), 1);
  assert.notEqual(second.score, -1);
  await client.getKolScore({ xUserId: kol.twitter_id }, { cache: 'bypass' });
  assert.equal(sb.count(), 2);
  t.mock.timers.tick(149);
  await client.getKolScore({ xUserId: kol.twitter_id });
  assert.equal(sb.count(), 2, 'still cached just before the TTL');
  t.mock.timers.tick(2);
  await client.getKolScore({ xUserId: kol.twitter_id });
  assert.equal(sb.count(), 3, 'refetched after the TTL');
  await client.getKolScore({ xUserId: sb.data.kols[3]?.twitter_id ?? '' });
  assert.equal(sb.count(), 4, 'another KOL is another entry');

  // Param order does not matter: the key is canonical.
  await client.getTokenAnalytics({ limit: 3, sortField: 'liquidity' });
  await client.getTokenAnalytics({ sortField: 'liquidity', limit: 3 });
  assert.equal(sb.count('tokenAnalytics'), 1);

  // Errors are not cached.
  sb.setFaults({ burst5xx: 3, operations: ['kolMindmap'] });
  await failure(client.getKolMindmap({ xUserId: kol.twitter_id }));
  const mind = await client.getKolMindmap({ xUserId: kol.twitter_id });
  assert.ok(mind.total >= 0);
});

test('cacheTtlMs: false turns caching off', async (t) => {
  const { sb, client } = await setup(t, { cacheTtlMs: false });
  await client.getKolTable({ limit: 1 });
  await client.getKolTable({ limit: 1 });
  assert.equal(sb.count(), 2);
});

test('malformed and drifted bodies raise ApiSchemaError and are not retried', async (t) => {
  const { sb, client } = await setup(t, { cacheTtlMs: false });
  sb.setFaults({ malformedRate: 1 });
  const err = await failure(client.getTokenAnalytics({ limit: 2 }));
  assert.ok(err instanceof ApiSchemaError, String(err));
  assert.equal(err.path, '(body)');
  assert.equal(sb.count(), 1);

  sb.setFaults({ driftRate: 1 });
  const err2 = await failure(client.getKolTable({ limit: 2 }));
  assert.ok(err2 instanceof ApiSchemaError, String(err2));
  assert.equal(err2.operation, 'kolTable');
  assert.match(err2.message, /^kolTable: items\.0\.\w+: expected /);
  assert.equal(sb.count(), 2);
});
