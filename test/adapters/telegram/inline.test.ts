/** Inline mode end to end: the real grammY adapter answers inline queries on the fake, within its limits. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSolanaAddress } from '../../../src/domain/chains.ts';
import { rig } from './helpers.ts';
import { INLINE_OUTAGE_CACHE_S } from '../../../src/adapters/telegram/inline.ts';
import { LOOKUP_BUDGET_PER_MINUTE, MAX_REQUESTS_PER_LOOKUP, SEARCH_REQUESTS } from '../../../src/core/budget.ts';

test('inline queries: an address, a link, a $symbol, a name and a @kol each get articles with the compact card', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true } });
  const { tokens, kols } = r.sb.data;
  // The search reads names and addresses (operation 2): a symbol its name holds and no other token has.
  const sol = tokens.find(
    (x) =>
      x.chain_id === 'solana' &&
      isSolanaAddress(x.address) &&
      x.name.toLowerCase().includes(x.symbol.toLowerCase()) &&
      tokens.filter((y) => y.symbol === x.symbol).length === 1,
  )!;
  assert.ok(sol, 'the sandbox has such a token');
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
  // In time, each: the fake refuses an answer after Telegram's 10 s ("query is too old"), so the ones above were accepted.
});

test('inline queries: an empty query shows a hint, nothing found offers a private chat, and faults stay quiet', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true } });
  const empty = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: '' })!);
  assert.deepEqual(empty.results, []);
  assert.match(empty.button!.text, /address, a link, a \$SYMBOL/);
  assert.equal(empty.button!.start_parameter, 'inline');
  const none = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: 'zzqxqzz' })!);
  assert.deepEqual(none.results, []);
  assert.match(none.button!.text, /open a chat with me/);
  r.sb.setFaults({ burst5xx: 1_000 });
  const down = await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: 'pepe' })!);
  r.sb.clearFaults();
  assert.deepEqual(down.results, []);
  assert.equal(r.fake.messages(424242).length, 0, 'nothing posted anywhere');
});

test('inline queries are charged per upstream request: past the lookup budget a user gets a personal "too many" answer; others are unaffected', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true } });
  const fast = { id: 5001, first_name: 'Fast' };
  // Each name search asks every chain: the budget holds this many, the rest are refused.
  const fits = Math.floor(LOOKUP_BUDGET_PER_MINUTE / SEARCH_REQUESTS);
  const before = r.sb.count();
  const ids = Array.from({ length: fits + 3 }, (_, i) => r.fake.sendInlineQuery({ query: `zz${i}`, from: fast })!);
  const answers = await Promise.all(ids.map((id) => r.fake.waitForInlineAnswer(id)));
  const limited = answers.filter((a) => a.is_personal && a.cache_time === 0);
  assert.equal(limited.length, 3);
  assert.ok(
    limited.every((a) => /Too many lookups/.test(a.button?.text ?? '')),
    'the refusal says why',
  );
  assert.equal(r.sb.count() - before, fits * SEARCH_REQUESTS, 'exactly the budget reached the upstream');
  const other = await r.fake.waitForInlineAnswer(
    r.fake.sendInlineQuery({ query: 'zzq', from: { id: 5002, first_name: 'Calm' } })!,
  );
  assert.match(other.button?.text ?? '', /open a chat with me/, 'another user is answered normally');
});

test('inline queries: ten addresses in one query make at most the per-lookup bound of upstream requests', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true } });
  const evm = r.sb.data.tokens.filter((x) => x.chain_id === 'base' || x.chain_id === 'bsc').slice(0, 10);
  assert.equal(evm.length, 10);
  const before = r.sb.count();
  const answer = await r.fake.waitForInlineAnswer(
    r.fake.sendInlineQuery({ query: evm.map((x) => x.address).join(' '), from: { id: 5003, first_name: 'Ten' } })!,
  );
  assert.ok(answer.results.length >= 1, 'the first addresses are answered');
  const made = r.sb.count() - before;
  t.diagnostic(`one query of 10 addresses: ${made} upstream requests (bound ${MAX_REQUESTS_PER_LOOKUP})`);
  assert.ok(made <= MAX_REQUESTS_PER_LOOKUP, `${made} requests`);
});

test('inline queries: an upstream outage is answered as an outage, for the asker only and briefly, never as "nothing found"', async (t) => {
  const r = await rig(t, { fake: { inlineMode: true } });
  r.sb.setFaults({ burst5xx: 1_000 });
  const down = await r.fake.waitForInlineAnswer(
    r.fake.sendInlineQuery({ query: 'pepe', from: { id: 5004, first_name: 'Out' } })!,
  );
  r.sb.clearFaults();
  assert.deepEqual(down.results, []);
  assert.match(down.button!.text, /not answering/);
  assert.doesNotMatch(down.button!.text, /Nothing found/);
  assert.equal(down.is_personal, true, 'not cached for everyone who types the same');
  assert.ok((down.cache_time ?? 300) <= INLINE_OUTAGE_CACHE_S, `cached ${down.cache_time} s`);
  // Once the upstream is back, the same query is answered (nothing kept the outage).
  const back = await r.fake.waitForInlineAnswer(
    r.fake.sendInlineQuery({ query: 'pepe', from: { id: 5004, first_name: 'Out' } })!,
  );
  assert.doesNotMatch(back.button?.text ?? '', /not answering/);
});
