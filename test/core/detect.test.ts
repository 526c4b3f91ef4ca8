/**
 * The token-reference detector: a table of what people paste (per chain and per
 * site, with punctuation and case variants) and of what must stay silent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTokenRefs, MAX_REFS } from '../../src/core/detect.ts';
import { isSolanaAddress } from '../../src/domain/chains.ts';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WSOL = 'So11111111111111111111111111111111111111112';
const PUMP = '2qEHjDLDLbuBgRYvsxhc5D6uDWAivNFZGan56P1tpump';
const USDT_BSC = '0x55d398326f99059fF775485246999027B3197955';
const BASE_TOKEN = '0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed';
const SUI_COIN = '0x2::sui::SUI';
const SUI_USDC = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
const APT_COIN = '0x1::aptos_coin::AptosCoin';
const SIG = '5VfYmGBjvQKe3xgLtTQPSMEUdpEVHrJwfVJ2YiZmE1JdPAYuVLRrpRanAw4ZG4thtYHoGUMLmvNYGT7qqHJmWfZ1';
const HASH64 = `0x${'3f'.repeat(32)}`;

type Expect = readonly [address: string, chains: string, via?: string][];
const positive: [string, string, Expect][] = [
  // bare addresses, per chain
  ['solana mint', `ape ${USDC} now`, [[USDC, 'solana', 'text']]],
  ['solana mint with leading 1s (wSOL)', WSOL, [[WSOL, 'solana']]],
  ['pump.fun style mint', `CA: ${PUMP}`, [[PUMP, 'solana']]],
  ['evm checksum case', `bsc ${USDT_BSC}`, [[USDT_BSC, 'bsc,base', 'text']]],
  ['evm lower case', USDT_BSC.toLowerCase(), [[USDT_BSC.toLowerCase(), 'bsc,base']]],
  ['evm upper hex', `0x${USDT_BSC.slice(2).toUpperCase()}`, [[`0x${USDT_BSC.slice(2).toUpperCase()}`, 'bsc,base']]],
  ['move coin type (short address)', `buy ${SUI_COIN}!`, [[SUI_COIN, 'sui,aptos', 'text']]],
  ['move coin type (full address)', SUI_USDC, [[SUI_USDC, 'sui,aptos']]],
  ['aptos coin type', APT_COIN, [[APT_COIN, 'sui,aptos']]],
  // punctuation around an address
  ['trailing period', `${USDC}.`, [[USDC, 'solana']]],
  ['trailing comma and parenthesis', `(${USDC}), ok`, [[USDC, 'solana']]],
  ['in backticks', `\`${USDT_BSC}\``, [[USDT_BSC, 'bsc,base']]],
  ['in a code block', `\`\`\`\n${PUMP}\n\`\`\``, [[PUMP, 'solana']]],
  ['after a colon, no space', `ca:${USDC}`, [[USDC, 'solana']]],
  ['quoted', `"${BASE_TOKEN}"`, [[BASE_TOKEN, 'bsc,base']]],
  [
    'several in order',
    `${USDT_BSC} then ${USDC} then ${SUI_COIN}`,
    [
      [USDT_BSC, 'bsc,base'],
      [USDC, 'solana'],
      [SUI_COIN, 'sui,aptos'],
    ],
  ],
  ['repeat counted once (evm case-insensitive)', `${USDT_BSC} ${USDT_BSC.toLowerCase()}`, [[USDT_BSC, 'bsc,base']]],
  // links, per site
  ['solscan', `https://solscan.io/token/${USDC}`, [[USDC, 'solana', 'solscan.io']]],
  [
    'solscan with query and fragment',
    `https://solscan.io/token/${USDC}?cluster=mainnet#holders`,
    [[USDC, 'solana', 'solscan.io']],
  ],
  ['birdeye ?chain=', `https://birdeye.so/token/${USDT_BSC}?chain=bsc`, [[USDT_BSC, 'bsc', 'birdeye.so']]],
  ['birdeye without chain is solana', `https://birdeye.so/token/${USDC}`, [[USDC, 'solana', 'birdeye.so']]],
  ['birdeye chain in path', `https://birdeye.so/base/token/${BASE_TOKEN}`, [[BASE_TOKEN, 'base', 'birdeye.so']]],
  ['gmgn sol', `https://gmgn.ai/sol/token/${PUMP}`, [[PUMP, 'solana', 'gmgn.ai']]],
  ['gmgn referral form', `https://gmgn.ai/sol/token/Ab12Cd_${PUMP}`, [[PUMP, 'solana', 'gmgn.ai']]],
  ['gmgn bsc', `gmgn.ai/bsc/token/${USDT_BSC}`, [[USDT_BSC, 'bsc', 'gmgn.ai']]],
  ['pump.fun', `https://pump.fun/${PUMP}`, [[PUMP, 'solana', 'pump.fun']]],
  ['pump.fun /coin/', `https://pump.fun/coin/${PUMP}`, [[PUMP, 'solana', 'pump.fun']]],
  ['dexscreener solana', `https://dexscreener.com/solana/${USDC}`, [[USDC, 'solana', 'dexscreener.com']]],
  [
    'dexscreener base, no scheme, www',
    `www.dexscreener.com/base/${BASE_TOKEN}`,
    [[BASE_TOKEN, 'base', 'dexscreener.com']],
  ],
  ['dexscreener host in capitals', `https://DexScreener.com/bsc/${USDT_BSC}`, [[USDT_BSC, 'bsc', 'dexscreener.com']]],
  [
    'geckoterminal tokens',
    `https://www.geckoterminal.com/solana/tokens/${USDC}`,
    [[USDC, 'solana', 'geckoterminal.com']],
  ],
  [
    'geckoterminal sui-network',
    `https://www.geckoterminal.com/sui-network/tokens/${SUI_USDC}`,
    [[SUI_USDC, 'sui', 'geckoterminal.com']],
  ],
  ['bscscan', `https://bscscan.com/token/${USDT_BSC}`, [[USDT_BSC, 'bsc', 'bscscan.com']]],
  ['basescan', `https://basescan.org/token/${BASE_TOKEN}?a=1`, [[BASE_TOKEN, 'base', 'basescan.org']]],
  [
    'suiscan, encoded type',
    `https://suiscan.xyz/mainnet/coin/${encodeURIComponent(SUI_USDC)}/txs`,
    [[SUI_USDC, 'sui', 'suiscan.xyz']],
  ],
  ['suiscan, plain type', `https://suiscan.xyz/mainnet/coin/${SUI_COIN}`, [[SUI_COIN, 'sui', 'suiscan.xyz']]],
  ['suivision', `https://suivision.xyz/coin/${SUI_USDC}`, [[SUI_USDC, 'sui', 'suivision.xyz']]],
  [
    'aptos explorer coin',
    `https://explorer.aptoslabs.com/coin/${APT_COIN}?network=mainnet`,
    [[APT_COIN, 'aptos', 'explorer.aptoslabs.com']],
  ],
  [
    'aptos explorer, link in parentheses',
    `(see https://explorer.aptoslabs.com/coin/${APT_COIN})`,
    [[APT_COIN, 'aptos', 'explorer.aptoslabs.com']],
  ],
  [
    'link names the chain of a bare address repeated',
    `${SUI_COIN} https://suiscan.xyz/mainnet/coin/${SUI_COIN}`,
    [[SUI_COIN, 'sui', 'suiscan.xyz']],
  ],
  ['link with trailing period', `look https://dexscreener.com/solana/${USDC}.`, [[USDC, 'solana', 'dexscreener.com']]],
  ['unknown site: the address in it still counts', `https://jup.ag/swap/SOL-${USDC}`, [[USDC, 'solana', 'text']]],
];

const negative: [string, string][] = [
  ['plain chat', 'gm, wen moon? pepe to 1b'],
  ['solana transaction signature', SIG],
  ['solana signature in a solscan tx link', `https://solscan.io/tx/${SIG}`],
  ['evm tx hash (0x + 64 hex)', HASH64],
  ['bscscan tx link', `https://bscscan.com/tx/${HASH64}`],
  ['sui object id (0x + 64 hex)', `0x${'ab'.repeat(32)}`],
  ['evm address glued to more hex', `${USDT_BSC}ab`],
  ['0x + 41 hex', `0x${'a'.repeat(41)}`],
  ['0x + 39 hex', `0x${'a'.repeat(39)}`],
  ['base58-looking word that is not a 32-byte key', 'Supercalifragilisticexpialidociousxyzabcdefg'],
  ['base58 run too short', 'EPjFWdd5AufqSSqeM2qN1xzyba'],
  ['base58 run too long', `${USDC}abc`],
  ['solscan wallet page', `https://solscan.io/account/${USDC}`],
  ['solscan devnet token', `https://solscan.io/token/${USDC}?cluster=devnet`],
  ['geckoterminal pool page', `https://www.geckoterminal.com/solana/pools/${USDC}`],
  ['dexscreener unknown chain', `https://dexscreener.com/ethereum/${USDT_BSC}`],
  ['gmgn unknown chain', `https://gmgn.ai/eth/token/${USDT_BSC}`],
  ['bscscan address page', `https://bscscan.com/address/${USDT_BSC}`],
  ['suiscan testnet coin', `https://suiscan.xyz/testnet/coin/${SUI_COIN}`],
  ['suivision testnet', `https://testnet.suivision.xyz/coin/${SUI_COIN}`],
  ['aptos explorer testnet', `https://explorer.aptoslabs.com/coin/${APT_COIN}?network=testnet`],
  ['pump.fun board page', 'https://pump.fun/board'],
  ['site with no path', 'dexscreener.com is down again'],
  ['move type with one part', '0x2::sui'],
];

test('detector: positive cases, per chain and per site', () => {
  for (const [name, text, want] of positive) {
    const got = findTokenRefs(text).map((r) => [r.address, r.chains.join(','), r.via] as const);
    assert.equal(got.length, want.length, `${name}: ${JSON.stringify(got)}`);
    want.forEach(([address, chains, via], i) => {
      assert.equal(got[i]![0], address, name);
      assert.equal(got[i]![1], chains, name);
      if (via) assert.equal(got[i]![2], via, name);
    });
  }
});

test('detector: negative cases stay silent', () => {
  for (const [name, text] of negative) assert.deepEqual(findTokenRefs(text), [], name);
});

test('detector: 4,096-character messages', () => {
  const filler = 'wen moon ser, lfg 🚀 0xdeadbeef gm. ';
  const pad = (s: string) => (s + filler.repeat(200)).slice(0, 4096);
  assert.deepEqual(findTokenRefs(pad('')), []);
  const tail = filler.repeat(120).slice(0, 4096 - USDC.length - 1);
  assert.equal(`${tail} ${USDC}`.length, 4096);
  assert.deepEqual(
    findTokenRefs(`${tail} ${USDC}`).map((r) => r.address),
    [USDC],
    'an address at the very end',
  );
  const many = Array.from({ length: 40 }, () => `https://dexscreener.com/solana/${USDC} ${USDT_BSC}`)
    .join(' ')
    .slice(0, 4096);
  assert.deepEqual(
    findTokenRefs(many).map((r) => r.address),
    [USDC, USDT_BSC],
    'repeats collapse',
  );
  const distinct = Array.from({ length: 30 }, (_, i) => `0x${i.toString(16).padStart(40, 'a')}`).join(' ');
  assert.equal(findTokenRefs(distinct).length, MAX_REFS, 'capped');
  assert.deepEqual(findTokenRefs('x'.repeat(4096)), [], 'one long word is no key');
});

test('detector: base58 keys are checked by decoding', () => {
  assert.equal(isSolanaAddress(USDC), true);
  assert.equal(isSolanaAddress(WSOL), true);
  assert.equal(isSolanaAddress('11111111111111111111111111111111'), true, 'the system program: 32 zero bytes');
  assert.equal(isSolanaAddress('1111111111111111111111111111111'), false);
  assert.equal(isSolanaAddress(`${USDC.slice(0, -1)}0`), false, '0 is not base58');
});
