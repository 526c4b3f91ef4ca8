// Chart, trading and safety links: the defaults per chain, an operator's LINKS_* overrides,
// and a bad template stopping start-up with the variable named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CHAINS, type ChainId } from '../../src/domain/chains.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { DEFAULT_LINKS, tokenLinks } from '../../src/domain/links.ts';
import { toDiscordPayload, BUTTON_URL_MAX } from '../../src/views/render/discord.ts';
import { toTelegramHtml } from '../../src/views/render/telegram.ts';
import { tokenCard } from '../../src/views/cards/tokenCard.ts';
import { translator } from '../../src/i18n/index.ts';
import type { TokenAnalyticsItem } from '../../src/api/index.ts';

const ADDRESS: Record<ChainId, string> = {
  solana: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm',
  bsc: '0x2170Ed0880ac9A755fd29B2688956BD959F933F8',
  base: '0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed',
  sui: '0x76cb819b01abed502bee8a702b4c2d547532c12f25001c9dea795a5e631c26f1::fud::FUD',
  aptos: '0x1::aptos_coin::AptosCoin',
};

const EXPECTED: Record<ChainId, string[]> = {
  solana: ['DexScreener', 'Birdeye', 'GMGN', 'Jupiter', 'RugCheck'],
  bsc: ['DexScreener', 'Birdeye', 'GMGN', 'PancakeSwap', 'GoPlus'],
  base: ['DexScreener', 'Birdeye', 'GMGN', 'Uniswap', 'GoPlus'],
  sui: ['DexScreener', 'Birdeye', 'Cetus'],
  aptos: ['DexScreener', 'Birdeye'],
};

test('every chain gets its chart, trading and safety links, with the address and no referral parameter', () => {
  for (const chain of CHAINS) {
    const links = tokenLinks(DEFAULT_LINKS, chain, ADDRESS[chain]);
    assert.deepEqual(
      links.map((l) => l.label),
      EXPECTED[chain],
      chain,
    );
    for (const l of links) {
      const url = new URL(l.url);
      assert.equal(url.protocol, 'https:', l.url);
      assert.ok(l.url.includes(ADDRESS[chain]), `${chain} ${l.label} carries the address: ${l.url}`);
      assert.ok(l.url.length <= BUTTON_URL_MAX);
      assert.doesNotMatch(l.url, /ref|invite|affiliate|utm_/i, `${chain} ${l.label} has no referral: ${l.url}`);
    }
  }
  assert.equal(tokenLinks(DEFAULT_LINKS, 'solana', 'x')[0]!.url, 'https://dexscreener.com/solana/x');
  assert.equal(tokenLinks(DEFAULT_LINKS, 'bsc', 'x')[1]!.url, 'https://birdeye.so/token/x?chain=bsc');
});

test('an operator adds referral parameters, adds a terminal on one chain and removes a link', () => {
  const { links } = loadConfig({
    LINKS_GMGN_SOLANA: 'https://gmgn.ai/sol/token/{address}?ref=kolradar-demo',
    LINKS_PHOTON_SOLANA: 'https://photon-sol.tinyastro.io/en/r/@demo/{address}',
    LINKS_BIRDEYE: 'off',
    LINKS_MY_CHARTS: 'https://charts.example.com/{chain}/{address}',
  });
  const sol = tokenLinks(links, 'solana', ADDRESS.solana);
  assert.deepEqual(
    sol.map((l) => l.label),
    ['DexScreener', 'GMGN', 'Jupiter', 'My Charts', 'Photon', 'RugCheck'],
  );
  assert.equal(sol[1]!.url, `https://gmgn.ai/sol/token/${ADDRESS.solana}?ref=kolradar-demo`);
  const bsc = tokenLinks(links, 'bsc', ADDRESS.bsc);
  assert.equal(
    bsc.find((l) => l.label === 'GMGN')!.url,
    `https://gmgn.ai/bsc/token/${ADDRESS.bsc}`,
    'other chains keep the default',
  );
  assert.ok(!bsc.some((l) => l.label === 'Photon' || l.label === 'Birdeye'));
  assert.equal(bsc.find((l) => l.label === 'My Charts')!.url, `https://charts.example.com/bsc/${ADDRESS.bsc}`);
  // Without any LINKS_* the defaults stand.
  assert.deepEqual(loadConfig({}).links, DEFAULT_LINKS);
});

test('a bad link template is refused at start-up, naming the variable, never the value', () => {
  const bad = {
    LINKS_GMGN: 'ftp://gmgn.ai/{address}',
    LINKS_NOADDR: 'https://example.com/{chain}',
    LINKS_ODD: 'https://example.com/{token}/{address}',
    LINKS_TOOLONG: `https://example.com/${'a'.repeat(500)}/{address}`,
  };
  assert.throws(
    () => loadConfig(bad),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /LINKS_GMGN must be an https:\/\/ URL template/);
      assert.match(err.message, /LINKS_NOADDR must contain \{address\}/);
      assert.match(err.message, /LINKS_ODD may only use \{chain\} and \{address\}/);
      assert.match(err.message, /LINKS_TOOLONG must stay within 512 characters/);
      assert.doesNotMatch(err.message, /ftp:/);
      return true;
    },
  );
  const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
  const run = spawnSync(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', LINKS_PHOTON_SOLANA: 'photon.example/{address}' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 2, 'start-up stops');
  assert.match(run.stderr, /LINKS_PHOTON_SOLANA must be an https:\/\/ URL template/);
});

test('a token card and an alert carry the links within each platform’s button limits', () => {
  const item = {
    token: { id: '1', name: 'Dogwifhat', symbol: 'WIF', icon_url: '', address: ADDRESS.solana },
    marketcap: 1,
    liquidity: 1,
    token_age: 1,
    smart_follower: '1',
    mention: '1',
    impression: '1',
    changes: { m5: 0, h1: 0, h4: 0, h24: 0 },
    total_score: '1',
    avg_score: '1',
    avg_score_v2: '1',
    score_v2: '1',
  } as unknown as TokenAnalyticsItem;
  // An operator with many links: the card keeps the first ones, and Discord's rows stay within 5 x 5.
  const many = loadConfig(
    Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`LINKS_EXTRA${i}`, `https://x${i}.example/{address}`])),
  ).links;
  const card = tokenCard({ chain: 'solana', item, tweets: [], now: 0, links: many }, translator('en'));
  assert.equal(card.links!.length, 9, 'the explorer and at most 8 more');
  const payload = toDiscordPayload({
    ...card,
    actions: card.actions!.map((a, i) => ({ ...a, id: `id${i}` })),
  });
  const rows = payload.components ?? [];
  assert.ok(rows.length <= 5);
  for (const r of rows) assert.ok(r.components.length <= 5);
  assert.equal(rows.flatMap((r) => r.components).filter((b) => 'url' in b).length, 9, 'every link fits');
  const tg = toTelegramHtml(card);
  const urls = (tg.reply_markup?.inline_keyboard ?? []).flat().filter((b) => 'url' in b);
  assert.equal(urls.length, 9);
  for (const b of urls) assert.ok(URL.canParse((b as { url: string }).url));
});
