// What a digest ranks: the best win rates only among KOLs with a sample, each rate with its
// window and sample size; mention counts grouped as the reader's language groups digits.
// And the calls scorecard: no sample yet is not 1x, and no "best" when nothing moved.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import { buildDigest } from '../../src/alerts/digest/build.ts';
import { scoreCall, summarise } from '../../src/domain/score.ts';
import { formats } from '../../src/i18n/format.ts';
import { translator } from '../../src/i18n/index.ts';
import { silentLogger } from '../../src/log.ts';
import { tokenAnalyticsItem, winRates } from '../api/fixtures.ts';
import { rawServer } from '../api/rawserver.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { openStore } from '../../src/store/index.ts';
import type { Call } from '../../src/store/calls.ts';

async function upstream(t: TestContext) {
  const base = winRates().items[0]!;
  const kol = (i: number, n: number, rate: number) => ({
    ...base,
    num_tokens_counted_win_rate: n,
    win_rate_after1d: String(rate),
    x_user: { ...(base['x_user'] as object), id: i, username: `kol${i}` },
  });
  // Six one-token KOLs at 100% lead the period's ranking.
  const rows = [
    ...Array.from({ length: 6 }, (_, i) => kol(i, 1, 1)),
    kol(6, 12, 0.75),
    kol(7, 5, 0.6),
    kol(8, 4, 0.59),
  ];
  const server = await rawServer(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v2/x-users/win-rate') {
      const limit = Number(url.searchParams.get('limit'));
      res.end(JSON.stringify({ items: rows.slice(0, limit), total: rows.length }));
    } else
      res.end(
        JSON.stringify({ items: [{ ...tokenAnalyticsItem(1), mention: '46003' }], total: 1, new_token_count24h: 0 }),
      );
  });
  const api = createKolClient({ baseUrl: server.url, apiKey: 'k', cacheTtlMs: false });
  t.after(() => api.close());
  return api;
}

const period = {
  key: 'daily:2026-03-29',
  at: Date.parse('2026-03-29T09:00:00Z'),
  from: Date.parse('2026-03-28T09:00:00Z'),
};

test('the digest ranks win rates only among KOLs with 5+ tokens, saying the window and each sample; mentions are grouped', async (t) => {
  const api = await upstream(t);
  const sub = openSubscription('telegram', '1');
  const en = await buildDigest({ api, log: silentLogger() }, sub, period, translator('en'), false, formats('en'));
  const field = (name: RegExp) => en.fields!.find((f) => name.test(f.name))!;
  const kols = field(/^Best win rates/);
  assert.equal(kols.name, 'Best win rates 24h after the shill (KOLs with 5+ tokens)');
  assert.equal(kols.value, '@kol6 · win rate 75.0% of 12\n@kol7 · win rate 60.0% of 5');
  assert.match(String(field(/^Most shilled/).value), /46,003 KOL mentions/);
  const ru = await buildDigest({ api, log: silentLogger() }, sub, period, translator('ru'), false, formats('ru'));
  assert.match(JSON.stringify(ru.fields), /46\s003 упоминания KOL/u);
});

test('a call with no sample yet is not 1x, and "best" is named only when a call moved', () => {
  const call = (peak: number | null, samples: number[]) => ({
    at: 0,
    marketCap: 100,
    samples: samples.map((marketCap) => ({ marketCap })),
    peak,
    kols: ['a'],
  });
  const fresh = scoreCall(call(null, []));
  assert.equal(fresh.now, null, 'nothing known since the alert');
  const flat = summarise([call(100, [100]), call(102, [101]), call(null, [])].map((c) => scoreCall(c)));
  assert.equal(flat.calls, 3);
  assert.equal(flat.scored, 2, 'the call without a sample is not scored');
  assert.equal(flat.best, null, 'a best of 1.02x is no news');
  const moved = summarise([call(100, [100]), call(300, [150])].map((c) => scoreCall(c)));
  assert.equal(moved.best?.peak, 3);
});

test('the digest scorecard is as of the digest: market caps read then, one request per distinct token', async (t) => {
  // The upstream now: $PUMP tripled since its flat last follow-up; $GONE is no longer known.
  const now: Record<string, number> = { PumpAddr: 3_000_000, FlatAddr: 1_000_000 };
  const asked: string[] = [];
  const server = await rawServer(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const address = url.searchParams.get('tokenAddress');
    if (address) asked.push(address);
    const items =
      address && now[address] !== undefined
        ? [{ ...tokenAnalyticsItem(1), token: { ...tokenAnalyticsItem(1).token, address }, marketcap: now[address] }]
        : [];
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify(
        url.pathname === '/v2/x-users/win-rate'
          ? { items: [], total: 0 }
          : { items, total: items.length, new_token_count24h: 0 },
      ),
    );
  });
  const api = createKolClient({ baseUrl: server.url, apiKey: 'k', cacheTtlMs: false });
  t.after(() => api.close());
  const store = await openStore('memory:');
  t.after(() => store.close());
  const sub = openSubscription('telegram', '7');
  // Calls are kept for their retention from now: a period of today.
  const today = { key: 'daily:today', at: Date.now(), from: Date.now() - 86_400_000 };
  let n = 0;
  const call = (symbol: string, address: string): Call => {
    const at = today.from + 3_600_000 + n * 60_000;
    return {
      id: `d${n}`,
      subId: sub.id,
      platform: 'telegram',
      chatId: '7',
      messageId: String(++n),
      token: { chain: 'solana', address, symbol, name: symbol },
      kols: ['kol_a'],
      tweetIds: [String(n)],
      at,
      marketCap: 1_000_000,
      liquidity: null,
      points: [60],
      next: 1,
      samples: [{ at: at + 3_600_000, marketCap: 1_000_000, point: 60 }],
      peak: 1_000_000,
    };
  };
  for (const c of [
    call('PUMP', 'PumpAddr'),
    call('PUMP', 'PumpAddr'),
    call('FLAT', 'FlatAddr'),
    call('GONE', 'GoneAddr'),
  ])
    await store.calls.record(c);
  const digest = await buildDigest(
    { api, calls: store.calls, log: silentLogger() },
    sub,
    today,
    translator('en'),
    false,
    formats('en'),
  );
  const scorecard = digest.fields!.find((f) => f.name === translator('en')('digest.calls'))!;
  // Two of four calls peaked at 3x (read now); the others are flat or unknown now.
  assert.match(String(scorecard.value), /^4 calls · hit rate 50(\.0)?% · best PUMP 3\.00x$/);
  assert.deepEqual(asked.sort(), ['FlatAddr', 'GoneAddr', 'PumpAddr'], 'one request per distinct token');
});
