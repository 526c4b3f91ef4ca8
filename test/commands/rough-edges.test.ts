/**
 * Rough edges a user sees: each test here failed before its fix (issue 15).
 * The Discord one (an error never shown to the channel) lives with the Discord
 * adapter tests, where the fake records everything the channel was shown.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KolTokenItem } from '../../src/api/index.ts';
import { translator } from '../../src/i18n/index.ts';
import { changeAfter } from '../../src/views/cards/momentumTable.ts';
import { WINDOWS } from '../../src/views/cards/windows.ts';
import { pct } from '../../src/i18n/english.ts';
import type { View } from '../../src/domain/view.ts';
import { toTelegramHtml } from '../../src/views/render/telegram.ts';
import { telegramVisible } from '../views/render/helpers.ts';
import { asCard, asError, asTable, caller, column, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());
const { kols, tokens } = h.sandbox.data;

/** The monospace table as a Telegram user reads it. */
function telegramTable(view: View): string {
  const html = toTelegramHtml(view).text;
  const pre = /<pre>([\s\S]*)<\/pre>/.exec(html);
  assert.ok(pre, 'a table');
  return telegramVisible(pre[1]!);
}

test('Telegram /kols: every handle is shown whole, so the hint "Details: /kol @username" can be followed', async () => {
  const view = asTable(await h.send('/kols sort:winrate'));
  assert.match(plain(view.description), /Details: \/kol @username/);
  const shown = telegramTable(view);
  const handles = column(view, 'kol');
  assert.ok(
    handles.some((x) => x.length > 10),
    'the page has a long handle (the case that was cut)',
  );
  for (const handle of handles)
    assert.match(shown, new RegExp(`(^|\\s)${handle}(\\s|$)`, 'm'), `${handle} not shown whole`);
  assert.doesNotMatch(shown, /…/);
  // Follow the hint with the longest handle as shown.
  const longest = [...handles].sort((a, b) => b.length - a.length)[0]!;
  const typed = shown.split(/\s+/).find((w) => w.toLowerCase() === longest.toLowerCase())!;
  assert.equal(asCard(await h.send(`/kol ${typed}`)).kind, 'card');
});

test('Telegram /momentum: every window column keeps its values, even with the sorted window added', async () => {
  const kol = [...kols].sort((a, b) => b.username.length - a.username.length)[0]!;
  const view = asTable(await h.send(`/momentum @${kol.username} sort:12h`));
  assert.ok(view.rows.length > 0);
  const shown = telegramTable(view);
  const cells = shown.split(/\s+/);
  for (const row of view.rows) {
    for (const w of ['1h', '12h', '24h', '7d']) {
      const v = row[w]!;
      if (v !== '…') assert.ok(cells.includes(v), `${row['token']} ${w} ${v} is not shown`);
    }
    assert.ok(cells.includes(row['token']!), `${row['token']} is not shown whole`);
  }
});

test('a change of -99.99% does not read as a total loss; a 99.99% win rate is not a perfect one', () => {
  assert.equal(pct(-99.99, 'percent', { decimals: 0 }), '-99.99%');
  assert.equal(pct(-99.99, 'percent', { sign: true }), '-99.99%');
  assert.equal(pct(0.9999, 'fraction', { decimals: 0 }), '99.99%');
  assert.equal(pct(-100, 'percent', { decimals: 0 }), '-100%');
  assert.equal(pct(-42.4, 'percent', { decimals: 0 }), '-42%');
  // In /momentum: a token that kept a ten-thousandth of its shill price.
  const shill = Date.parse('2026-01-01T00:00:00Z');
  const w24 = WINDOWS.find((w) => w.label === '24h')!;
  const item = {
    shill_timestamp: new Date(shill).toISOString(),
    price_init: '0.5',
    [w24.priceKey]: '0.00005',
  } as unknown as KolTokenItem;
  assert.equal(changeAfter(item, w24, shill + 2 * w24.ms, translator('en')), '-99.99%');
});

test('/tokens: rows of one symbol on several chains each say their chain', async () => {
  const bySymbol = new Map<string, Set<string>>();
  for (const t of tokens)
    bySymbol.set(t.symbol.toLowerCase(), (bySymbol.get(t.symbol.toLowerCase()) ?? new Set()).add(t.chain_id));
  const symbol = [...bySymbol].find(([s, chains]) => chains.size >= 3 && /^[a-z]+$/.test(s))![0];
  const view = asTable(await h.send(`/tokens search:${symbol} limit:25`));
  const listed = column(view, 'token').filter(
    (c) => c.toLowerCase().startsWith(`$${symbol} `) || c.toLowerCase() === `$${symbol}`,
  );
  assert.ok(listed.length >= 3, listed.join(', '));
  const notes = (view.notes ?? []).map(plain);
  const seen = new Set<string>();
  for (const note of notes.filter((n) => n.toLowerCase().startsWith(`$${symbol} `))) {
    const [, chain, address] = /\((\w+)\) (\S+)$/.exec(note) ?? [];
    assert.ok(chain && address, `no chain in '${note}'`);
    const token = tokens.find((t) => t.address === address)!;
    assert.equal(chain, token.chain_id, `${address}`);
    seen.add(chain);
  }
  assert.ok(seen.size >= 2, 'tells the chains apart');
  for (const cell of listed) assert.match(cell, /\((solana|bsc|base|sui|aptos)\)$/);
});

test('a bad only: value shows an example that uses only:, and that example works', async () => {
  const group = { ...caller, chatId: 'rough-edges', chatType: 'group' as const };
  const err = asError((await h.dispatcher.text('/subscribe only:not-a-name!', group))!);
  assert.match(err.message, /only must be X usernames/);
  assert.match(err.example ?? '', /^\/subscribe .*only:\S+/);
  const ok = await h.dispatcher.text(err.example!, group);
  assert.notEqual(ok?.kind, 'error', ok?.kind === 'error' ? ok.message : '');
  const saved = await h.store.subscriptions.get(`console:${group.chatId}`);
  assert.ok(saved && saved.filters.allowKols.length > 0, 'the example set the option');
});
