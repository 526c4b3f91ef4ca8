/** Inline mode end to end: the real grammY adapter answers inline queries on the fake, within its limits. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isBase58Key } from '../../../src/core/detect.ts';
import { rig } from './helpers.ts';

test('inline queries: an address, a link, a $symbol, a name and a @kol each get articles with the compact card', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true } });
  const { tokens, kols } = r.sb.data;
  const sol = tokens.find((x) => x.chain_id === 'solana' && isBase58Key(x.address))!;
  const evm = tokens.find((x) => x.chain_id === 'base')!;

  const byAddress = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: sol.address })!);
  assert.equal(byAddress.results.length, 1);
  assert.match(byAddress.results[0]!.title!, new RegExp(`\\$${sol.symbol}`));
  assert.ok(byAddress.results[0]!.text.includes(sol.address), 'the card posts the address');
  assert.ok(byAddress.results[0]!.description!.startsWith('Solana · MC'));
  assert.equal(byAddress.cache_time, 30);
  assert.ok(
    byAddress.results.every((x) => x.thumbnail_url === undefined),
    'no remote thumbnails',
  );

  const byLink = await r.fake.waitForInlineAnswer(
    r.fake.sendInlineQuery({ query: `https://basescan.org/token/${evm.address}` })!,
  );
  assert.ok(byLink.results[0]!.text.includes(evm.address));

  const word = ['swap', 'dog', 'cat', 'neon', 'baby'].find(
    (w) => tokens.filter((x) => x.name.toLowerCase().includes(w)).length >= 3,
  )!;
  const byName = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: word })!);
  assert.ok(byName.results.length >= 3 && byName.results.length <= 10, `${byName.results.length} results`);
  assert.equal(new Set(byName.results.map((x) => x.id)).size, byName.results.length);

  const bySymbol = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: `$${sol.symbol}` })!);
  assert.ok(
    bySymbol.results.some((x) => x.text.includes(sol.address)),
    'the $symbol finds its token',
  );

  const kol = kols[0]!;
  const byKol = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: `@${kol.username}` })!);
  assert.equal(byKol.results[0]!.title, `KOL @${kol.username}`);
  assert.ok(byKol.results[0]!.text.includes(`/kol @${kol.username}`));
  for (const a of [byAddress, byLink, byName, bySymbol, byKol]) assert.ok(a.afterMs < 10_000, 'answered in time');
});

test('inline queries: an empty query shows a hint, nothing found offers a private chat, and faults stay quiet', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true }, budgetMs: 500 });
  const empty = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: '' })!);
  assert.deepEqual(empty.results, []);
  assert.match(empty.button!.text, /address, a link, a \$SYMBOL/);
  assert.equal(empty.button!.start_parameter, 'inline');
  const none = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: 'zzqxqzz' })!);
  assert.deepEqual(none.results, []);
  assert.match(none.button!.text, /open a chat with me/);
  r.sb.setFaults({ burst5xx: 1_000 });
  const down = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: 'pepe' })!, 8_000);
  r.sb.clearFaults();
  assert.deepEqual(down.results, []);
  assert.equal(r.fake.messages(424242).length, 0, 'nothing posted anywhere');
});

test('inline queries: a user past 20 queries in 10 s gets empty personal answers; others are unaffected', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true } });
  const fast = { id: 5001, first_name: 'Fast' };
  const ids = Array.from({ length: 22 }, (_, i) => r.fake.sendInlineQuery({ query: `zz${i}`, from: fast })!);
  const answers = await Promise.all(ids.map((id) => r.fake.waitForInlineAnswer(id, 8_000)));
  const limited = answers.filter((a) => a.is_personal && a.cache_time === 0 && a.button === undefined);
  assert.equal(limited.length, 2);
  const other = await r.fake.waitForInlineAnswer(
    r.fake.sendInlineQuery({ query: 'zzq', from: { id: 5002, first_name: 'Calm' } })!,
  );
  assert.equal(other.button?.start_parameter, 'inline', 'another user is answered normally');
});
