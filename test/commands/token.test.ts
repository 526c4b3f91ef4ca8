import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { age, compact, pct, usd } from '../../src/i18n/english.ts';
import { asCard, asError, field, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());

const { tokens, tweets, kols } = h.sandbox.data;
const tweetsOf = (id: number) => tweets.filter((t) => t.tokenIds.includes(id));
const sol = tokens.find((t) => t.chain_id === 'solana' && tweetsOf(t.id).length >= 5)!;
const evm = tokens.find((t) => t.chain_id === 'base')!;

test('the token card shows the upstream values for that token, formatted', async () => {
  const card = asCard(await h.send(`/token solana ${sol.address}`));
  assert.match(card.title, new RegExp(`\\$${sol.symbol}`));
  assert.ok(plain(card.description).includes(sol.address), 'address shown');
  assert.equal(field(card, 'Market cap'), usd(sol.marketcap));
  assert.equal(field(card, 'Liquidity'), usd(sol.liquidity));
  assert.equal(field(card, 'Mentions'), compact(sol.mention));
  assert.equal(field(card, 'Smart followers'), compact(sol.smart_follower));
  assert.equal(field(card, 'Age'), age(Math.round(((Date.now() - sol.createdMs) / 86_400_000) * 100) / 100, 'days'));
  const changes = field(card, 'Price change');
  assert.ok(changes.includes(`24h ${pct(sol.changes.h24, 'percent', { sign: true })}`), changes);
  assert.ok(changes.includes(`5m ${pct(sol.changes.m5, 'percent', { sign: true })}`), changes);
  assert.equal(card.links?.[0]?.url, `https://solscan.io/token/${sol.address}`);
});

test('the card lists the newest tweets about the token with their authors and links to X', async () => {
  const card = asCard(await h.send(`/token solana ${sol.address}`));
  const newest = tweetsOf(sol.id).sort((a, b) => b.tweetedMs - a.tweetedMs)[0]!;
  const author = kols.find((k) => k.id === newest.kolId)!;
  const latest = field(card, 'Latest tweets');
  assert.ok(latest.startsWith(`@${author.username}`), latest);
  const spans = card.fields!.find((f) => f.name === 'Latest tweets')!.value;
  const links = [...spans].filter((s): s is { link: string; url: string } => typeof s === 'object' && 'url' in s);
  assert.ok(links.length >= 3 && links.length <= 5, `${links.length} tweets shown`);
  assert.equal(links[0]!.url, `https://x.com/${author.username}/status/${newest.twitter_id}`);
});

test('token card buttons open the tweets and the mindmap of the same token', async () => {
  const card = asCard(await h.send(`/token solana ${sol.address}`));
  const more = asCard(await h.press(card, 'More tweets'));
  assert.match(more.title, new RegExp(`Tweets about \\$${sol.symbol} on solana`));
  assert.ok((more.fields ?? []).length > 0);
  const map = await h.press(card, 'Mindmap');
  assert.equal(map.kind, 'text');
  assert.match(plain(map.kind === 'text' ? map.text : ''), new RegExp(`Mindmap of \\$${sol.symbol}`));
});

test('a bare base58 address is taken as Solana; a bare EVM address is looked up on each EVM chain', async () => {
  const card = asCard(await h.send(`/token ${sol.address}`));
  assert.equal(field(card, 'Market cap'), usd(sol.marketcap));
  const swapped = asCard(await h.send(`/token ${sol.address} sol`));
  assert.equal(field(swapped, 'Market cap'), usd(sol.marketcap), 'address before chain is put back in order');
  const found = asCard(await h.send(`/token ${evm.address}`));
  assert.equal(field(found, 'Market cap'), usd(evm.marketcap), 'the chain that has it');
  const onBase = asCard(await h.send(`/token base ${evm.address.toUpperCase().replace('0X', '0x')}`));
  assert.equal(field(onBase, 'Market cap'), usd(evm.marketcap), 'EVM addresses match whatever their case');
});

test('mistakes get a short answer with a correct example', async () => {
  const chain = asError(await h.send(`/token solanaa ${sol.address}`));
  assert.equal(chain.message, "Unknown chain 'solanaa'. Did you mean solana?");
  assert.ok(chain.example?.startsWith('/token '));
  const addr = asError(await h.send('/token bsc 0x1234'));
  assert.match(addr.message, /not a BNB Chain token address: expected 0x followed by 40 hex digits/);
  assert.ok(addr.example);
  const missing = asError(await h.send('/token'));
  assert.match(missing.message, /needs <address>/);
  const unknown = asError(await h.send('/token solana 11111111111111111111111111111111'));
  assert.match(unknown.message, /^No token 111111…1111 on solana/);
  assert.ok(unknown.example);
});

test('the analytics and the tweets are fetched in parallel', async () => {
  const other = tokens.find((t) => t.chain_id === 'solana' && t.id !== sol.id)!;
  // Held long enough that two calls sent together are both in flight at once.
  h.sandbox.setFaults({ latencyMs: 300, operations: ['tokenAnalytics', 'tweetsByToken'] });
  try {
    h.sandbox.resetRequests();
    asCard(await h.send(`/token solana ${other.address}`));
    assert.equal(h.sandbox.count(), 2);
    assert.equal(h.sandbox.maxInFlight, 2, 'the two calls ran one after the other');
  } finally {
    h.sandbox.clearFaults();
  }
});

test('/token with a bare 0x address finds the chain that has it', async () => {
  const h2 = await harness();
  try {
    const evm = h2.sandbox.data.tokens.find((x) => x.chain_id === 'base' || x.chain_id === 'bsc')!;
    const card = asCard(await h2.send(`/token ${evm.address}`));
    assert.ok(card.title.includes(evm.symbol), `${card.title} shows ${evm.symbol}`);
    const err = asError(await h2.send(`/token 0x${'0'.repeat(39)}1`));
    assert.match(err.message, /No token 0x0000.* on bsc or base/);
  } finally {
    await h2.close();
  }
});
