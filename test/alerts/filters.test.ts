// The trader's filters end to end (sandbox, watcher, delivery): market cap, liquidity,
// token age and keywords each let a tweet through or keep it out, and a filter that
// needs a figure nobody gave, or a blocked word, holds the tweet and says so in /alerts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertHarness, caller, titleOf } from './harness.ts';
import { usd } from '../../src/i18n/english.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };
const text = (v: unknown) => JSON.stringify(v);
const DAY = 86_400_000;

test('market cap and liquidity floors: a $4K token is kept out, a big one alerts with its figures in the reason', async (t) => {
  const h = await alertHarness(t);
  await h.dispatcher.run('subscribe', { ...OPEN, min_mcap: '100k', min_liquidity: '25k' }, caller('floor'));
  await h.dispatcher.run('subscribe', { ...OPEN, max_mcap: '50k' }, caller('small'));
  await h.cycle();
  const tiny = h.sb.data.tokens.find((x) => x.marketcap > 0 && x.marketcap < 50_000)!;
  const big = h.sb.data.tokens.find((x) => x.marketcap > 1_000_000 && x.liquidity > 100_000)!;
  const kol = h.sb.data.kols[2]!.id;
  h.sb.addTweets(1, { token: tiny.id, kol, tokenScore: 90, kolScore: 90 });
  h.sb.addTweets(1, { token: big.id, kol, tokenScore: 90, kolScore: 90 });
  await h.cycle();
  const to = (chat: string) => h.sent.filter((s) => s.chatId === chat);
  assert.deepEqual(
    to('floor').map((s) => titleOf(s).split(' ')[0]),
    [big.symbol],
  );
  assert.deepEqual(
    to('small').map((s) => titleOf(s).split(' ')[0]),
    [tiny.symbol],
  );
  assert.match(
    text(to('floor')[0]!.view),
    new RegExp(`market cap \\${usd(big.marketcap)} >= \\$100K, liquidity \\${usd(big.liquidity)} >= \\$25K`),
  );
  assert.match(text(to('small')[0]!.view), new RegExp(`market cap \\${usd(tiny.marketcap)} <= \\$50K`));
  assert.equal(h.ticks.at(-1)!.held, 0, 'a figure that fails is not a held tweet');
  const shown = await h.dispatcher.run('alerts', {}, caller('floor'));
  assert.match(text(shown), /Market cap at least \$100K/);
  assert.match(text(shown), /Liquidity at least \$25K/);
  assert.match(text(shown), /min_mcap:100000 min_liquidity:25000/);
});

test('an unknown market figure is never 0: the tweet is held, counted in /alerts, and a chat without the filter still hears it', async (t) => {
  const h = await alertHarness(t);
  await h.dispatcher.run('subscribe', { ...OPEN, min_liquidity: '1' }, caller('liq'));
  await h.dispatcher.run('subscribe', OPEN, caller('any'));
  await h.cycle();
  h.sb.setFaults({ errorRate: 1, operations: ['tokenAnalytics'] });
  h.sb.addTweets(1, { token: h.sb.data.tokens[7]!.id, kol: h.sb.data.kols[1]!.id, tokenScore: 90, kolScore: 90 });
  await h.cycle();
  h.sb.clearFaults();
  assert.equal(h.sent.filter((s) => s.chatId === 'liq').length, 0, 'no alert on a guessed figure');
  const any = h.sent.filter((s) => s.chatId === 'any');
  assert.equal(any.length, 1);
  assert.match(text(any[0]!.view), /-\s*\/\s*-/, 'market cap and liquidity shown as unknown');
  assert.equal(h.ticks.at(-1)!.held, 1);
  assert.match(text(await h.dispatcher.run('alerts', {}, caller('liq'))), /1 tweet held back in the last 24 h/);
  assert.match(text(await h.dispatcher.run('alerts', {}, caller('any'))), /0 tweets held back/);
});

test('max_age:3d: a token listed yesterday alerts, one listed weeks ago does not', async (t) => {
  const h = await alertHarness(t);
  const r = await h.dispatcher.run('subscribe', { ...OPEN, max_age: '3d' }, caller('fresh'));
  assert.match(text(r), /Token age at most 3d/);
  await h.cycle();
  const now = Date.now();
  const young = h.sb.data.tokens.find((x) => now - x.createdMs < 2 * DAY && x.marketcap > 0)!;
  const old = h.sb.data.tokens.find((x) => now - x.createdMs > 20 * DAY && x.marketcap > 0)!;
  assert.ok(young && old, 'the sandbox has both');
  h.sb.addTweets(1, { token: old.id, kol: h.sb.data.kols[3]!.id, tokenScore: 90, kolScore: 90 });
  h.sb.addTweets(1, { token: young.id, kol: h.sb.data.kols[3]!.id, tokenScore: 90, kolScore: 90 });
  await h.cycle();
  assert.deepEqual(
    h.sent.map((s) => titleOf(s).split(' ')[0]),
    [young.symbol],
  );
  assert.match(text(h.sent[0]!.view), /age [^,"]+ <= 3d/);
  const bad = await h.dispatcher.text('/subscribe max_age:soon', caller('fresh'));
  assert.match(text(bad), /Can’t read the token age “soon”/);
});

test('keywords: only tweets that say one; a blocked word holds the tweet, counted like other held tweets', async (t) => {
  const h = await alertHarness(t);
  await h.dispatcher.run('subscribe', { ...OPEN, keywords: 'moon,$wif' }, caller('words'));
  await h.dispatcher.run('subscribe', { ...OPEN, block: 'careful,rug' }, caller('safe'));
  await h.cycle();
  const kol = h.sb.data.kols[4]!.id;
  const [a, b, c] = h.sb.data.tokens.slice(20, 23);
  h.sb.addTweets(1, { token: a!.id, kol, tokenScore: 90, kolScore: 90, content: 'Sending this to the MOON' });
  h.sb.addTweets(1, {
    token: b!.id,
    kol,
    tokenScore: 90,
    kolScore: 90,
    content: 'Dev wallet on $CHADB just moved 13% of supply, careful',
  });
  h.sb.addTweets(1, { token: c!.id, kol, tokenScore: 90, kolScore: 90, content: 'wif hat season' });
  await h.cycle();
  const to = (chat: string) => h.sent.filter((s) => s.chatId === chat).map((s) => titleOf(s).split(' ')[0]);
  assert.deepEqual(to('words'), [a!.symbol], 'wif is not $wif; the warning mentions neither');
  assert.deepEqual(to('safe'), [a!.symbol, c!.symbol], 'the warning is held');
  assert.match(text(h.sent.find((s) => s.chatId === 'words')!.view), /mentions moon/);
  assert.equal(h.ticks.at(-1)!.held, 1);
  assert.match(text(await h.dispatcher.run('alerts', {}, caller('safe'))), /1 tweet held back in the last 24 h/);
  // off clears a list: the next warning reaches the chat.
  await h.dispatcher.run('subscribe', { block: 'off' }, caller('safe'));
  h.sb.addTweets(1, { token: b!.id, kol, tokenScore: 90, kolScore: 90, content: 'careful with this one' });
  await h.cycle();
  assert.deepEqual(to('safe').at(-1), b!.symbol);
});
