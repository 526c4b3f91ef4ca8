// Market filters against a plain definition, and the token-age bound as typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_FILTERS } from '../../src/alerts/filters.ts';
import { ageDays, marketVerdict } from '../../src/alerts/rules.ts';
import type { MarketAtTime } from '../../src/alerts/market.ts';
import type { AlertFilters } from '../../src/store/subscriptions.ts';

/** The obvious definition: every bound set must hold; a bound on a figure nobody gave can't be judged. */
function plain(f: AlertFilters, m: MarketAtTime | null): 'pass' | 'fail' | 'unknown' {
  const rules: [number | undefined, number | null | undefined, (v: number, b: number) => boolean][] = [
    [f.minMarketCap, m?.marketCap, (v, b) => v >= b],
    [f.maxMarketCap, m?.marketCap, (v, b) => v <= b],
    [f.minLiquidity, m?.liquidity, (v, b) => v >= b],
    [f.maxAgeDays, m?.ageDays, (v, b) => v <= b],
  ];
  let unknown = false;
  for (const [bound, value, ok] of rules) {
    if (bound === undefined) continue;
    if (value === null || value === undefined) unknown = true;
    else if (!ok(value, bound)) return 'fail';
  }
  return unknown ? 'unknown' : 'pass';
}

test('market filters pass, drop or hold exactly as the plain definition says; unknown is never 0', () => {
  const money = fc.option(fc.constantFrom(0, 56, 4_000, 25_000, 100_000, 2_500_000, 50_000_000), { nil: undefined });
  const figure = fc.option(fc.constantFrom(0, 56, 4_000, 25_000, 100_000, 2_500_000, 50_000_000), { nil: null });
  const filters = fc.record({
    minMarketCap: money,
    maxMarketCap: money,
    minLiquidity: money,
    maxAgeDays: fc.option(fc.constantFrom(30 / 1440, 0.25, 3), { nil: undefined }),
  });
  const market = fc.option(
    fc.record({
      marketCap: figure,
      liquidity: figure,
      ageDays: fc.option(fc.constantFrom(0, 0.01, 0.25, 1, 3, 40), { nil: null }),
    }),
    { nil: null },
  );
  fc.assert(
    fc.property(filters, market, (bounds, m) => {
      const f = {
        ...DEFAULT_FILTERS,
        ...Object.fromEntries(Object.entries(bounds).filter(([, v]) => v !== undefined)),
      };
      assert.equal(marketVerdict(f, m), plain(f, m));
    }),
    { numRuns: 500 },
  );
  // The trader's case: $4K market cap and $56 of liquidity do not pass a 100k / 25k floor.
  const floor = { ...DEFAULT_FILTERS, minMarketCap: 100_000, minLiquidity: 25_000 };
  assert.equal(marketVerdict(floor, { marketCap: 4_000, liquidity: 56 }), 'fail');
  assert.equal(marketVerdict(floor, { marketCap: null, liquidity: null }), 'unknown');
  assert.equal(marketVerdict(floor, null), 'unknown', 'a token operation 2 does not know');
  assert.equal(marketVerdict(DEFAULT_FILTERS, null), 'pass', 'no market filter: nothing to wait for');
});

test('token age is typed as 30m, 6h or 3d and kept in days, the unit token_age is read in', () => {
  assert.equal(ageDays('30m'), 30 / 1440);
  assert.equal(ageDays('6h'), 0.25);
  assert.equal(ageDays('3d'), 3);
  assert.equal(ageDays('2w'), 14);
  for (const bad of ['3', 'three days', '-1d', '0d', '']) assert.equal(ageDays(bad), undefined, bad);
  // A token 5 hours old (token_age 5/24 days) is within 6h and not within 30m.
  const age = { marketCap: 1, liquidity: 1, ageDays: 5 / 24 };
  assert.equal(marketVerdict({ ...DEFAULT_FILTERS, maxAgeDays: ageDays('6h')! }, age), 'pass');
  assert.equal(marketVerdict({ ...DEFAULT_FILTERS, maxAgeDays: ageDays('30m')! }, age), 'fail');
});
