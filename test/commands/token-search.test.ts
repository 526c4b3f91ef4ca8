/** `/token <name|$SYMBOL> [chain:]` and the reply form, through the real dispatcher and sandbox. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { isSolanaAddress } from '../../src/domain/chains.ts';
import type { TableView } from '../../src/domain/view.ts';
import { asCard, asError, caller, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());
const { tokens } = h.sandbox.data;

/** What the sandbox search (name or address, partial) returns for `term`. */
const matches = (term: string) =>
  tokens.filter((t) => t.name.toLowerCase().includes(term) || t.address.toLowerCase().includes(term));
const exactOf = (term: string) =>
  matches(term).filter((t) => t.symbol.toLowerCase() === term || t.name.toLowerCase() === term);

// A symbol that also names its token, on one token only: `/token $SYM` opens that card.
const single = tokens.find(
  (t) =>
    exactOf(t.symbol.toLowerCase()).length === 1 &&
    exactOf(t.symbol.toLowerCase())[0] === t &&
    matches(t.symbol.toLowerCase()).length <= 10,
)!;
// A word in many names that is no symbol or name by itself: a pick list.
const word = ['swap', 'dog', 'cat', 'neon', 'baby', 'moon', 'inu', 'pepe'].find(
  (w) => matches(w).length >= 3 && exactOf(w).length === 0,
)!;

test('/token $SYMBOL with one exact match opens that token’s card', async () => {
  assert.ok(single, 'the sandbox has a token whose symbol is unique');
  const card = asCard(await h.send(`/token $${single.symbol}`));
  assert.match(card.title, new RegExp(`\\$${single.symbol}\\b`));
  assert.ok(plain(card.description).includes(single.address));
  const lower = asCard(await h.send(`/token ${single.symbol.toLowerCase()}`));
  assert.equal(lower.title, card.title, 'case does not matter');
  const onChain = asCard(await h.send(`/token ${single.symbol.toLowerCase()} chain:${single.chain_id}`));
  assert.equal(onChain.title, card.title);
});

test('/token <word> with several matches shows a pick list whose buttons open the cards', async () => {
  assert.ok(word, 'the sandbox has a common name word');
  const view = await h.send(`/token ${word}`);
  assert.equal(view.kind, 'table', plain((view as { message?: string }).message ?? ''));
  const list = view as TableView;
  assert.ok(list.rows.length >= 2 && list.rows.length <= 5, `rows: ${list.rows.length}`);
  assert.equal(list.actions?.length, list.rows.length, 'one button per token');
  for (const row of list.rows) assert.ok(['solana', 'bsc', 'base', 'sui', 'aptos'].includes(row.chain!));
  // Ranked by mentions within equal match quality: the first row is the most mentioned match.
  const best = [...matches(word)].sort((a, b) => Number(b.mention) - Number(a.mention))[0]!;
  const first = asCard(await h.press(view, '1.'));
  assert.ok(plain(first.description).includes(best.address), `first button opens the most mentioned ${best.symbol}`);
});

test('/token <name> chain: narrows the search to that chain', async () => {
  const chain = matches(word)[0]!.chain_id;
  const view = await h.send(`/token ${word} chain:${chain}`);
  const rows = view.kind === 'table' ? view.rows.map((r) => r.chain) : [chain];
  assert.ok(
    rows.every((c) => c === chain),
    rows.join(','),
  );
});

test('/token <name> with no match says so with an example; a chain-looking typo still gets its hint', async () => {
  const none = asError(await h.send('/token zzqxqzz'));
  assert.match(none.message, /No token matches “zzqxqzz”/);
  assert.equal(none.example, '/token $PEPE');
  const short = asError(await h.send('/token $'));
  assert.ok(short.example);
  const typo = asError(await h.send(`/token solanaa ${single.address}`));
  assert.match(typo.message, /Unknown chain 'solanaa'/);
});

test('/token with a link reads the token and the chain from it', async () => {
  const sol = tokens.find((t) => t.chain_id === 'solana' && isSolanaAddress(t.address))!;
  const card = asCard(await h.send(`/token https://dexscreener.com/solana/${sol.address}`));
  assert.ok(plain(card.description).includes(sol.address));
});

test('reply form: /token and /kol with no argument read the message they answer', async () => {
  const sol = tokens.find((t) => t.chain_id === 'solana' && isSolanaAddress(t.address))!;
  const quoted = `look at this one https://gmgn.ai/sol/token/${sol.address} 🚀`;
  const card = asCard((await h.dispatcher.text('/token', caller, { quoted }))!);
  assert.ok(plain(card.description).includes(sol.address));
  const bySymbol = asCard((await h.dispatcher.text('/token', caller, { quoted: `aping $${single.symbol} now` }))!);
  assert.match(bySymbol.title, new RegExp(`\\$${single.symbol}\\b`));
  const nothing = asError((await h.dispatcher.text('/token', caller, { quoted: 'gm frens' }))!);
  assert.match(nothing.message, /no token address, link or \$SYMBOL/);
  const kol = h.sandbox.data.kols[0]!;
  const kolCard = asCard(
    (await h.dispatcher.text('/kol', caller, { quoted: `what does https://x.com/${kol.username}/status/1 think` }))!,
  );
  assert.ok(JSON.stringify(kolCard).includes(`@${kol.username}`), `card of @${kol.username}`);
  const noKol = asError((await h.dispatcher.text('/kol', caller, { quoted: 'nothing here' }))!);
  assert.match(noKol.message, /no @handle or x.com profile link/);
  // An argument given wins over the quoted message.
  const given = asCard((await h.dispatcher.text(`/token solana ${sol.address}`, caller, { quoted: 'gm' }))!);
  assert.ok(plain(given.description).includes(sol.address));
});
