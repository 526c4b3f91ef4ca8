import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import { startSandbox } from '../../src/sandbox/server.ts';

const HOUR = 3_600_000;

test('market caps walk on the injected clock: the same seed moves the same way, served by operation 2', async (t) => {
  let clock = Date.UTC(2026, 0, 1);
  const a = await startSandbox({ seed: 7, now: clock, market: { clock: () => clock } });
  const b = await startSandbox({ seed: 7, now: clock, market: { clock: () => clock } });
  const still = await startSandbox({ seed: 7, now: clock });
  t.after(() => Promise.all([a.close(), b.close(), still.close()]));
  const token = a.data.tokens.find((x) => x.marketcap > 0)!;
  const dead = a.data.tokens.find((x) => x.marketcap === 0);
  const start = token.marketcap;
  const ask = async (sb: typeof a) => {
    const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
    try {
      const r = await api.getTokenAnalytics(
        { tokenAddress: token.address, chainId: token.chain_id, limit: 5 },
        { cache: 'bypass' },
      );
      return r.items.find((i) => i.token.address === token.address)!.marketcap;
    } finally {
      await api.close();
    }
  };
  assert.equal(await ask(a), start, 'no time passed: unchanged');
  clock += 24 * HOUR;
  const [ma, mb, ms] = [await ask(a), await ask(b), await ask(still)];
  assert.notEqual(ma, start, 'a day later the market cap moved');
  assert.equal(ma, mb, 'one seed, one walk');
  assert.equal(ms, start, 'without a market walk it stays');
  assert.ok(
    a.data.tokens.every((x) => x.marketcap === 0 || (x.marketcap >= 1000 && x.marketcap <= 50e9)),
    'every value a plausible market cap',
  );
  if (dead) assert.equal(dead.marketcap, 0, 'a dead token stays dead');
  const liquidityShare = token.liquidity / token.marketcap;
  clock -= 12 * HOUR;
  assert.equal(await ask(a), ma, 'a clock stepping back changes nothing');
  clock += 13 * HOUR;
  await ask(a);
  assert.ok(
    Math.abs(token.liquidity / token.marketcap - liquidityShare) < 1e-3,
    'liquidity follows at the token’s own ratio',
  );
  // Over many tokens and a week, pumps and rugs both happen.
  const before = new Map(a.data.tokens.map((x) => [x, x.marketcap]));
  clock += 7 * 24 * HOUR;
  await ask(a);
  const ratios = a.data.tokens.filter((x) => before.get(x)! > 0).map((x) => x.marketcap / before.get(x)!);
  assert.ok(
    ratios.some((r) => r >= 2),
    'some token at least doubled',
  );
  assert.ok(
    ratios.some((r) => r <= 0.5),
    'some token at least halved',
  );
});
