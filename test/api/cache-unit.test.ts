import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SingleFlight, TtlCache } from '../../src/api/cache.ts';
import { backoffMs, parseRetryAfter } from '../../src/api/retry.ts';

test('TtlCache expires entries and drops the least recently used when full', () => {
  const c = new TtlCache<number>(2);
  c.set('a', 1, 1000, 0);
  c.set('b', 2, 1000, 0);
  assert.equal(c.get('a', 10), 1); // a is now the most recent
  c.set('c', 3, 1000, 10);
  assert.equal(c.get('b', 10), undefined, 'b was least recently used');
  assert.equal(c.get('a', 10), 1);
  assert.equal(c.get('c', 10), 3);
  assert.equal(c.get('a', 1000), undefined, 'expired at its TTL');
  c.set('z', 9, 0);
  assert.equal(c.get('z'), undefined, 'a zero TTL stores nothing');
});

function waiter(signal?: AbortSignal, timeoutMs = 1000) {
  return {
    signal,
    timeoutMs,
    onAbort: () => new Error('aborted'),
    onTimeout: () => new Error('timed out'),
  };
}

test('SingleFlight: one caller aborting does not abort the shared call for the others', async () => {
  const sf = new SingleFlight<string>();
  let starts = 0;
  let sharedSignal: AbortSignal | undefined;
  let release: (v: string) => void = () => {};
  const start = (signal: AbortSignal) => {
    starts += 1;
    sharedSignal = signal;
    return new Promise<string>((resolve) => {
      release = resolve;
    });
  };
  const ac = new AbortController();
  const a = sf.run('k', start, waiter(ac.signal));
  const b = sf.run('k', start, waiter());
  assert.equal(a.leader, true);
  assert.equal(b.leader, false);
  ac.abort();
  await assert.rejects(a.promise, /aborted/);
  assert.equal(sharedSignal?.aborted, false);
  release('done');
  assert.equal(await b.promise, 'done');
  assert.equal(starts, 1);
  assert.equal(sf.inFlight, 0);
});

test('SingleFlight: when every caller gives up, the shared call is aborted and forgotten', async () => {
  const sf = new SingleFlight<string>();
  let sharedSignal: AbortSignal | undefined;
  const start = (signal: AbortSignal) => {
    sharedSignal = signal;
    return new Promise<string>((_, reject) =>
      signal.addEventListener('abort', () => reject(new Error('shared aborted'))),
    );
  };
  const ac = new AbortController();
  const a = sf.run('k', start, waiter(ac.signal));
  const b = sf.run('k', start, waiter(undefined, 20));
  ac.abort();
  await assert.rejects(a.promise, /aborted/);
  await assert.rejects(b.promise, /timed out/);
  assert.equal(sharedSignal?.aborted, true);
  assert.equal(sf.inFlight, 0);
});

test('Retry-After is read as seconds or as an HTTP date; backoff stays under its ceiling', () => {
  assert.equal(parseRetryAfter('2'), 2000);
  assert.equal(parseRetryAfter('0.5'), 500);
  const now = Date.parse('2024-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Mon, 01 Jan 2024 00:00:03 GMT', now), 3000);
  assert.equal(parseRetryAfter('garbage'), undefined);
  assert.equal(parseRetryAfter(undefined), undefined);
  const policy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 300 };
  assert.equal(
    backoffMs(1, policy, () => 0.999),
    99,
  );
  assert.equal(
    backoffMs(2, policy, () => 0.999),
    199,
  );
  assert.equal(
    backoffMs(5, policy, () => 0.999),
    299,
  );
  assert.equal(
    backoffMs(3, policy, () => 0),
    0,
  );
});
