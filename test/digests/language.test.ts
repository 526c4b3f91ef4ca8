// A digest is stored as figures and said when it is sent: queued while the chat read English, sent
// after it chose Russian, it comes out in Russian, its chart drawn in Russian too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import { runOnce } from '../../src/alerts/delivery/queue.ts';
import { queueDigest } from '../../src/alerts/digest/runner.ts';
import type { ChartInputs, ChartKind, ChartPool } from '../../src/domain/charts.ts';
import type { CardView } from '../../src/domain/view.ts';
import { translator } from '../../src/i18n/index.ts';
import { silentLogger } from '../../src/log.ts';
import type { Call } from '../../src/store/calls.ts';
import { tokenAnalyticsItem, winRates } from '../api/fixtures.ts';
import { rawServer } from '../api/rawserver.ts';
import { deliveryKit, textOf } from '../alerts/delivery/kit.ts';

const en = translator('en');
const ru = translator('ru');

test('a digest queued in English and sent after the chat chose Russian is said and drawn in Russian', async (t) => {
  const base = winRates().items[0]!;
  const server = await rawServer(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v2/x-users/win-rate') {
      const kol = { ...base, num_tokens_counted_win_rate: 12, win_rate_after1d: '0.75' };
      res.end(
        JSON.stringify({ items: [{ ...kol, x_user: { ...(base['x_user'] as object), username: 'kol6' } }], total: 1 }),
      );
    } else if (url.searchParams.get('tokenAddress'))
      res.end(JSON.stringify({ items: [], total: 0, new_token_count24h: 0 }));
    else
      res.end(
        JSON.stringify({ items: [{ ...tokenAnalyticsItem(1), mention: '46003' }], total: 1, new_token_count24h: 0 }),
      );
  });
  const api = createKolClient({ baseUrl: server.url, apiKey: 'k', cacheTtlMs: false });
  t.after(() => api.close());
  // The pool records what it is asked to draw: the chart's words are the reader's at send time.
  const drawn: ChartInputs[ChartKind][] = [];
  const charts: ChartPool = {
    async draw(_kind, input) {
      drawn.push(input);
      return new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    },
    stats: () => ({ running: 0, queued: 0, refused: 0 }),
    close: async () => {},
  };
  const k = await deliveryKit(t, { charts });
  const sub = await k.subscribe('c', { digest: { period: 'daily', at: 540, tz: 'UTC', day: 1 } });
  await k.store.languages.set('console', 'c', 'en');
  const period = { key: 'daily:today', at: k.now, from: k.now - 86_400_000 };
  const call = (id: string, symbol: string, peak: number): Call => ({
    id,
    subId: sub.id,
    platform: 'console',
    chatId: 'c',
    messageId: id,
    token: { chain: 'solana', address: `${symbol}addr`, symbol, name: symbol },
    kols: ['alpha_kol'],
    tweetIds: [id],
    at: period.at - 3_600_000,
    marketCap: 1_000_000,
    liquidity: null,
    points: [],
    next: 0,
    samples: [{ at: period.at - 60_000, marketCap: peak }],
    peak,
  });
  await k.store.calls.record(call('c1', 'PUMPA', 3_000_000));
  await k.store.calls.record(call('c2', 'RUGGB', 1_000_000));

  const queued = await queueDigest(
    { api, calls: k.store.calls, log: silentLogger(), outbox: k.store.outbox },
    sub,
    period,
    false,
    k.now,
  );
  const stored = JSON.stringify((await k.store.outbox.get(queued.id))?.content);
  assert.match(stored, /"PUMPA"/, 'the figures are stored');
  for (const words of [en('digest.titleDaily'), en('digest.calls'), 'KOL mentions'])
    assert.ok(!stored.includes(words), `no words stored: ${words}`);

  await k.store.languages.set('console', 'c', 'ru');
  await runOnce(k.s);
  assert.equal(k.out.length, 1);
  const card = k.out[0]!.view as CardView;
  assert.equal(card.title, ru('digest.titleDaily'));
  const text = textOf(card);
  assert.match(text, /46\s003 упоминания KOL/u, 'mentions grouped as Russian groups digits');
  assert.match(text, /@kol6 · винрейт 75,0\s?% из 12/u);
  assert.match(text, /коллов: 2 · попаданий 50,0\s?% · лучший PUMPA 3\.00x/u);
  assert.doesNotMatch(text, /Daily digest|Calls in this chat|KOL mentions|win rate/);
  assert.equal(card.picture?.alt, ru('digest.calls'), 'the picture drawn when sent');
  assert.equal(drawn.length, 1);
  const chart = drawn[0] as ChartInputs['calls'];
  assert.equal(chart.title, ru('digest.calls'));
  assert.deepEqual(chart.legend, { peak: ru('calls.legendPeak'), now: ru('calls.legendNow') });
  assert.deepEqual(
    chart.rows.map((r) => r.label),
    ['PUMPA · @alpha_kol', 'RUGGB · @alpha_kol'],
  );
  assert.equal((await k.store.outbox.get(queued.id))?.state, 'sent');
});
