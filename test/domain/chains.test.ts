import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findTokenRefs } from '../../src/core/detect.ts';
import { addressKey, isSolanaAddress, isValidAddress, sameAddress, tokenKeyOf } from '../../src/domain/chains.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { asError, harness } from '../commands/harness.ts';

const USDC = 'EPjFWdd5AufqSSqeM2qA1xsLBkLZwPYJd1wbCnCzw5Df';
/** Base58 of the right length whose value is past 32 bytes (58^44 > 2^256): no key. */
const TOO_BIG = 'z'.repeat(44);
/** 43 digits whose value is under 31 bytes: no key either. */
const TOO_SMALL = `2${'1'.repeat(42)}`;

test('one Solana rule: what /token accepts is what a paste is read as, and nothing else', () => {
  const samples = [USDC, '11111111111111111111111111111111', TOO_BIG, TOO_SMALL, '1'.repeat(31)];
  const accepted = samples.filter((s) => isValidAddress('solana', s));
  assert.deepEqual(accepted, [USDC, '11111111111111111111111111111111']);
  for (const s of samples)
    assert.equal(findTokenRefs(`look ${s} here`).length === 1, isSolanaAddress(s), `paste of ${s}`);
});

test('/token refuses base58 of a Solana length that is no key, with the example to copy', async (t) => {
  const h = await harness();
  t.after(() => h.close());
  for (const bad of [TOO_BIG, TOO_SMALL]) {
    const e = asError(await h.send(`/token solana ${bad}`));
    assert.match(e.message, /not a Solana token address/, bad);
    assert.ok(e.example?.startsWith('/token '), e.example);
  }
});

test('one key per address and token: EVM case does not matter, base58 and Move case does', () => {
  const evm = '0xAbCdEf0000000000000000000000000000000001';
  assert.equal(addressKey(evm), evm.toLowerCase(), 'the format says EVM');
  assert.equal(addressKey(evm, 'bsc'), evm.toLowerCase());
  assert.equal(tokenKeyOf('base', evm), `base:${evm.toLowerCase()}`);
  assert.equal(tokenKeyOf('solana', USDC), `solana:${USDC}`);
  assert.ok(sameAddress('bsc', evm, evm.toLowerCase()));
  assert.ok(!sameAddress('solana', USDC, USDC.toLowerCase()));
});

test('the sandbox lists Solana mints as the chain writes them: 32-byte keys, pump.fun suffixes kept', async (t) => {
  const sb = await startSandbox();
  t.after(() => sb.close());
  const mints = sb.data.tokens.filter((x) => x.chain_id === 'solana').map((x) => x.address);
  assert.ok(mints.length > 20, `${mints.length} mints`);
  assert.deepEqual(
    mints.filter((m) => !isSolanaAddress(m)),
    [],
  );
  assert.ok(mints.some((m) => m.endsWith('pump')));
});
