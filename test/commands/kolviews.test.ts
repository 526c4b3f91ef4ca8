import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { pct } from '../../src/i18n/english.ts';
import { asCard, asError, asTable, asText, column, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());

const { kols, shills, tokens, tweets } = h.sandbox.data;
const DAY = 86_400_000;
const unique = (k: (typeof kols)[number]) =>
  !kols.some((o) => o !== k && o.username.toLowerCase().includes(k.username.toLowerCase()));
const shillsOf = (id: number) => shills.filter((s) => s.kolId === id);
const kol = kols.find(
  (k) => unique(k) && shillsOf(k.id).length >= 15 && shillsOf(k.id).some((s) => s.shillMs < Date.now() - 8 * DAY),
)!;
const tokenById = new Map(tokens.map((t) => [t.id, t]));

test('/momentum lists the KOL’s tokens newest first with the price change since the shill', async () => {
  const table = asTable(await h.send(`/momentum @${kol.username}`));
  const mine = shillsOf(kol.id).sort((a, b) => b.shillMs - a.shillMs || b.id - a.id);
  assert.equal(table.rows.length, 10);
  assert.match(table.footer ?? '', new RegExp(`^1-10 of ${mine.length} `));
  assert.deepEqual(
    column(table, 'token'),
    mine.slice(0, 10).map((s) => `$${tokenById.get(s.tokenId)!.symbol}`),
  );
  const now = Date.now();
  const expected7d = mine.slice(0, 10).map((s) => {
    if (s.shillMs + 7 * DAY > now) return '…';
    const after = Math.round(s.priceInitMantissa * s.multipliers[10]!);
    return pct((after / s.priceInitMantissa - 1) * 100, 'percent', { sign: true, decimals: 0 });
  });
  assert.deepEqual(column(table, '7d'), expected7d);
  assert.match(plain(table.description), /^Win rate: 5m \d+% · 15m/);
  const next = asTable(await h.press(table, 'Next'));
  assert.deepEqual(
    column(next, 'token'),
    mine.slice(10, 20).map((s) => `$${tokenById.get(s.tokenId)!.symbol}`),
  );
});

test('/momentum since and sort narrow and order the list', async () => {
  const week = shillsOf(kol.id).filter((s) => s.shillMs > Date.now() - 7 * DAY).length;
  const recent = asTable(await h.send(`/momentum ${kol.username} since:7d`));
  assert.match(recent.footer ?? '', new RegExp(`of ${week} `));
  const by1h = asTable(await h.send(`/momentum @${kol.username} sort:1h limit:25`));
  const changes = column(by1h, '1h')
    .filter((c) => c !== '…')
    .map((c) => Number(c.replace('%', '')));
  assert.ok(
    changes.every((c, i) => i === 0 || changes[i - 1]! >= c),
    changes.join(' '),
  );
  assert.match(asError(await h.send(`/momentum @${kol.username} since:soon`)).message, /since must be a date/);
  assert.match(asError(await h.send(`/momentum @${kol.username} since:2999-01-01`)).message, /in the future/);
});

test('/kolmap lists the tokens the KOL mentioned most, with token-card buttons', async () => {
  const counts = new Map<number, number>();
  for (const t of tweets.filter((x) => x.kolId === kol.id))
    for (const id of new Set(t.tokenIds)) counts.set(id, (counts.get(id) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => tokenById.get(id)!);
  const table = asTable(await h.send(`/kolmap @${kol.username} limit:5`));
  assert.deepEqual(
    column(table, 'token'),
    ranked.slice(0, 5).map((t) => `$${t.symbol}`),
  );
  assert.deepEqual(
    column(table, 'chain'),
    ranked.slice(0, 5).map((t) => t.chain_id),
  );
  assert.match(table.footer ?? '', new RegExp(`^1-5 of ${ranked.length}$`));
  const next = asTable(await h.press(table, 'Next'));
  assert.deepEqual(
    column(next, 'token'),
    ranked.slice(5, 10).map((t) => `$${t.symbol}`),
  );
  const card = asCard(await h.press(table, `$${ranked[0]!.symbol}`));
  assert.ok(plain(card.description).includes(ranked[0]!.address));
});

test('/mindmap lists the tokens most linked to a token, heaviest link first', async () => {
  const token = tokens.find(
    (t) => t.chain_id === 'solana' && tweets.filter((x) => x.tokenIds.includes(t.id)).length > 20,
  )!;
  const graph = await h.api.getTokenMindmap({ chainId: 'solana', address: token.address, timeFrame: 72, limit: 5 });
  const view = asText(await h.send(`/mindmap solana ${token.address} hours:72 limit:5`));
  const text = plain(view.text);
  assert.match(text, new RegExp(`^Mindmap of \\$${token.symbol} · last 72h`));
  const lines = text.split('\n').filter((l) => /^\d+\. /.test(l));
  assert.equal(lines.length, Math.min(5, graph.edges.length));
  const heaviest = Math.max(...graph.edges.map((e) => e.value));
  assert.ok(lines[0]!.endsWith(`— weight ${heaviest}`), lines[0]);
  const missing = asError(await h.send('/mindmap solana 11111111111111111111111111111111'));
  assert.match(missing.message, /^No token 111111…1111 on solana/);
  const rich = asText(await h.send(`/mindmap solana ${token.address} hours:72 min_mcap:1m`));
  const bigSymbols = new Set(tokens.filter((t) => t.marketcap >= 1e6).map((t) => t.symbol));
  for (const line of plain(rich.text)
    .split('\n')
    .filter((l) => /^\d+\. /.test(l))) {
    const sym = /^\d+\. \$(\S+)/.exec(line)?.[1];
    assert.ok(sym && bigSymbols.has(sym), line);
  }
});
