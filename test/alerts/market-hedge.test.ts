/** A new alert's market request: a slow answer gets a twin, the first answer wins, the loser is aborted. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KolClient } from '../../src/api/index.ts';
import { marketNow } from '../../src/alerts/market.ts';
import { silentLogger } from '../../src/log.ts';

const ADDRESS = '0x1111111111111111111111111111111111111111';

function api(answers: ((signal: AbortSignal) => Promise<unknown>)[]) {
  const calls: { aborted: () => boolean }[] = [];
  const client = {
    getTokenAnalytics: (_p: unknown, opts: { signal: AbortSignal; share?: boolean }) => {
      assert.equal(opts.share, false, 'each asks on its own, not joined to the other in flight');
      calls.push({ aborted: () => opts.signal.aborted });
      return answers[calls.length - 1]!(opts.signal);
    },
  } as unknown as KolClient;
  return { client, calls };
}

const item = (cap: number) => ({ items: [{ token: { address: ADDRESS }, marketcap: cap, liquidity: 1 }] });
/** Never answers; rejects when aborted. */
const hang = (signal: AbortSignal) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

test('a market request that hangs gets a twin after the hedge delay; the twin answers and the first is aborted', async () => {
  const { client, calls } = api([hang, async () => item(42)]);
  const m = await marketNow(client, [{ chain: 'base', address: ADDRESS }], {
    budgetMs: 10_000,
    log: silentLogger(),
    hedgeAfterMs: 5,
  });
  assert.equal(m.get(`base:${ADDRESS}`)?.marketCap, 42);
  assert.equal(calls.length, 2);
  assert.ok(calls[0]!.aborted(), 'the slow one is given up');
});

test('a quick answer needs no twin; a quick failure is not asked again', async () => {
  const quick = api([async () => item(7)]);
  const m = await marketNow(quick.client, [{ chain: 'base', address: ADDRESS }], {
    budgetMs: 10_000,
    log: silentLogger(),
    hedgeAfterMs: 60_000,
  });
  assert.equal(m.get(`base:${ADDRESS}`)?.marketCap, 7);
  assert.equal(quick.calls.length, 1);
  const failing = api([
    async () => {
      throw new Error('503');
    },
  ]);
  const none = await marketNow(failing.client, [{ chain: 'base', address: ADDRESS }], {
    budgetMs: 10_000,
    log: silentLogger(),
    hedgeAfterMs: 60_000,
  });
  assert.equal(none.size, 0, 'unknown, shown as such');
  assert.equal(failing.calls.length, 1, 'the failure ends it at once: no twin, no wait for the hedge delay');
});
