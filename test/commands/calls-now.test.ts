// "Now" in /calls is now: the market cap read at the command (operation 2, one request per
// distinct token, through the client's cache), not the last follow-up sample; a token the
// analytics service no longer knows says so; past the command's cap the rest keep their sample.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REQUESTS_PER_COMMAND } from '../../src/core/budget.ts';
import type { Call } from '../../src/store/calls.ts';
import { multiple } from '../../src/views/cards/callLine.ts';
import { formats } from '../../src/i18n/format.ts';
import { asTable, caller, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());

const f = formats('en');
const subId = `${caller.platform}:${caller.chatId}`;
const analytics = () => h.sandbox.requests.filter((r) => r.path === '/v2/tokens/analytics').length;
let n = 0;

/** A call an hour ago at `base`, its one follow-up sample at `sampled`. */
async function call(token: { chain_id: string; address: string; symbol: string }, base: number, sampled: number) {
  const i = n++;
  const at = Date.now() - 3_600_000 - i * 60_000;
  const c: Call = {
    id: `now${i}`,
    subId,
    platform: 'console',
    chatId: caller.chatId,
    messageId: String(i),
    token: {
      chain: token.chain_id as Call['token']['chain'],
      address: token.address,
      symbol: token.symbol,
      name: token.symbol,
    },
    kols: ['kol_a'],
    tweetIds: [String(i)],
    at,
    marketCap: base,
    liquidity: null,
    points: [60],
    next: 1,
    samples: [{ at: at + 3_600_000, marketCap: sampled, point: 60 }],
    peak: Math.max(base, sampled),
  };
  await h.store.calls.record(c);
}

const known = h.sandbox.data.tokens.filter((x) => x.marketcap > 0);

test('/calls: now is read now, once per distinct token, cached; a token the service no longer knows says so', async () => {
  const [a, b] = known;
  // Both sampled flat at the alert's cap: only a read now can move them.
  await call(a!, a!.marketcap / 3, a!.marketcap / 3);
  await call(a!, a!.marketcap / 2, a!.marketcap / 2);
  await call(b!, b!.marketcap * 2, b!.marketcap * 2);
  await call({ chain_id: 'solana', address: 'GoneGoneGoneGoneGoneGoneGoneGoneGoneGone1111', symbol: 'GONE' }, 1e6, 2e6);
  const before = analytics();
  const view = asTable(await h.send('/calls sort:recent'));
  assert.equal(analytics() - before, 3, 'one request per distinct token');
  const rows = view.rows.map((r) => [r['token'], r['now'], r['peak']]);
  assert.deepEqual(rows, [
    [`$${a!.symbol}`, multiple(3, f), multiple(3, f)],
    [`$${a!.symbol}`, multiple(2, f), multiple(2, f)],
    [`$${b!.symbol}`, multiple(0.5, f).replace(/ \(.*\)$/, ''), multiple(1, f)],
    ['$GONE', 'not found', multiple(2, f)],
  ]);
  assert.doesNotMatch(plain(view.description), /tokens read just now/, 'every token was read: no note');
  assert.match(plain(view.notes?.[0]), /^Peak: the highest market cap the bot sampled since the alert/);
  // Asked again at once: the client's cache answers.
  asTable(await h.send('/calls sort:recent'));
  assert.equal(analytics() - before, 3, 'no new request within the cache');
  await h.store.calls.clear(subId);
});

test('/calls: a token whose market cap fell to $0 is a known loss: 0x (rugged), counted in the median, and read', async (t) => {
  const [a, b, c, d, rug] = known.slice(20, 25);
  const rugCap = rug!.marketcap;
  t.after(() => {
    rug!.marketcap = rugCap;
  });
  // Read now: 0.5x, 1.1x, 2x, 3x, and the rugged one, last sampled at 1.6x.
  for (const [x, m] of [
    [a!, 0.5],
    [b!, 1.1],
    [c!, 2],
    [d!, 3],
  ] as const)
    await call(x, x.marketcap / m, x.marketcap / m);
  await call(rug!, 1_000_000, 1_600_000);
  rug!.marketcap = 0;
  h.api.clearCache();
  const view = asTable(await h.send('/calls sort:worst'));
  assert.deepEqual(
    view.rows.map((r) => [r['token'], r['now']]),
    [
      [`$${rug!.symbol}`, '0x (rugged)'],
      [`$${a!.symbol}`, multiple(0.5, f).replace(/ \(.*\)$/, '')],
      [`$${b!.symbol}`, multiple(1.1, f)],
      [`$${c!.symbol}`, multiple(2, f)],
      [`$${d!.symbol}`, multiple(3, f)],
    ],
  );
  // The median of 0, 0.5, 1.1, 2 and 3; every token read, so no "read just now" note.
  assert.match(plain(view.description), /median now 1\.1x/);
  assert.doesNotMatch(plain(view.description), /tokens read just now/, plain(view.description));
  await h.store.calls.clear(subId);
});

test(`/calls over more tokens than the cap reads ${MAX_REQUESTS_PER_COMMAND}, the page's first, and says so`, async () => {
  const tokens = known.slice(0, MAX_REQUESTS_PER_COMMAND + 4);
  // The oldest calls sampled lowest: the worst page is the oldest ten, which the most recent first would miss.
  for (const [i, x] of tokens.entries()) await call(x, x.marketcap, x.marketcap * (0.5 + (tokens.length - i) / 100));
  h.api.clearCache();
  const before = analytics();
  const view = asTable(await h.send('/calls sort:worst'));
  assert.equal(analytics() - before, MAX_REQUESTS_PER_COMMAND);
  const asked = new Set(
    h.sandbox.requests.slice(-MAX_REQUESTS_PER_COMMAND).map((r) => new URLSearchParams(r.rawQuery).get('tokenAddress')),
  );
  const page = tokens.slice(-10);
  assert.deepEqual(
    page.filter((x) => !asked.has(x.address)).map((x) => x.symbol),
    [],
    'the tokens of the page shown are read first',
  );
  assert.match(
    plain(view.description),
    new RegExp(
      `tokens read just now: ${MAX_REQUESTS_PER_COMMAND} of ${tokens.length}; the others as of their last follow-up`,
    ),
  );
  await h.store.calls.clear(subId);
});

test('/calls with an upstream that never answers: the table within the budget, each now from its last sample, said', async (t) => {
  const slow = await harness({ budgetMs: 300 });
  t.after(() => slow.close());
  const [a] = known;
  const at = Date.now() - 7_200_000;
  await slow.store.calls.record({
    id: 'hung1',
    subId,
    platform: 'console',
    chatId: caller.chatId,
    messageId: '1',
    token: { chain: a!.chain_id as Call['token']['chain'], address: a!.address, symbol: a!.symbol, name: a!.symbol },
    kols: ['kol_a'],
    tweetIds: ['1'],
    at,
    marketCap: 1_000_000,
    liquidity: null,
    points: [60],
    next: 1,
    samples: [{ at: at + 3_600_000, marketCap: 1_500_000, point: 60 }],
    peak: 1_500_000,
  });
  slow.sandbox.setFaults({ hangRate: 1 });
  const view = asTable(await slow.send('/calls'));
  assert.deepEqual(
    view.rows.map((r) => r['now']),
    [multiple(1.5, f)],
  );
  assert.match(plain(view.description), /tokens read just now: 0 of 1; the others as of their last follow-up/);
});
