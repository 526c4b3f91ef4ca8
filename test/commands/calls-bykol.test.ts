// /calls by:kol ranks only KOLs with enough calls here (one lucky 2x is not a 100% caller), says
// so, and shows each hit rate with the calls it counts: those with a sample.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Call } from '../../src/store/calls.ts';
import { asTable, caller, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());

const subId = `${caller.platform}:${caller.chatId}`;
let n = 0;
/** A call by `kol` at $1M; `peak` and `now` as multiples, or no sample yet. */
async function call(kol: string, sampled?: { peak: number; now: number }): Promise<void> {
  const i = n++;
  const at = Date.now() - 3_600_000 - i * 60_000;
  const c: Call = {
    id: `bk${i}`,
    subId,
    platform: 'console',
    chatId: caller.chatId,
    messageId: String(i),
    token: { chain: 'solana', address: `BK${i}addr`, symbol: `BK${i}`, name: `BK${i}` },
    kols: [kol],
    tweetIds: [String(i)],
    at,
    marketCap: 1_000_000,
    liquidity: null,
    points: [],
    next: 0,
    samples: sampled ? [{ at: at + 60_000, marketCap: 1_000_000 * sampled.now }] : [],
    peak: sampled ? 1_000_000 * sampled.peak : 1_000_000,
  };
  await h.store.calls.record(c);
}

test('/calls by:kol ranks only KOLs with 3+ calls here, each hit rate with its sample; min_calls:1 ranks all', async () => {
  await call('lucky', { peak: 3, now: 2.5 });
  for (const x of [2.5, 2.1, 1]) await call('steady', { peak: x, now: x });
  await call('steady');
  await call('pair', { peak: 1.2, now: 1 });
  await call('pair', { peak: 1.5, now: 1.1 });
  const view = asTable(await h.send('/calls by:kol'));
  assert.deepEqual(
    view.rows.map((r) => [r['kol'], r['calls'], r['hit']]),
    [['@steady', '4', '67% of 3']],
    'one lucky call ranks nowhere; the unsampled call is not in the rate',
  );
  assert.match(plain(view.description), /Only KOLs with 3\+ calls here are ranked \(min_calls:1 shows every KOL\)\./);
  const all = asTable(await h.send('/calls by:kol min_calls:1'));
  assert.deepEqual(
    all.rows.map((r) => [r['kol'], r['hit']]),
    [
      ['@lucky', '100% of 1'],
      ['@steady', '67% of 3'],
      ['@pair', '0% of 2'],
    ],
  );
  const none = asTable(await h.send('/calls by:kol min_calls:5'));
  assert.equal(none.rows.length, 0);
  assert.match(plain(none.description), /No KOL has 5\+ calls here in this period/);
});
