import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SomeCommand } from '../../src/core/command.ts';
import { UserError } from '../../src/core/errors.ts';
import { opt } from '../../src/core/options.ts';
import { argsFor, splitCommand, tokenize, validate } from '../../src/core/parse.ts';
import { chainsForAddress, isValidAddress, suggest } from '../../src/domain/chains.ts';

const kols = {
  name: 'kols',
  examples: ['/kols sort:winrate limit:10'],
  options: {
    search: opt.string({ positional: true }),
    sort: opt.choice(['winrate', 'score', 'followers'], { noun: 'sort' }),
    limit: opt.integer({ min: 1, max: 25, default: 10 }),
    chains: opt.list(opt.chain({}), {}),
    mention: opt.boolean({}),
    followers: opt.number({ min: 0 }),
  },
  run: async () => ({ kind: 'text', text: '' }),
} satisfies SomeCommand;

const token = {
  name: 'token',
  examples: ['/token solana So11111111111111111111111111111111111111112'],
  options: {
    chain: opt.chain({ positional: true, required: true }),
    address: opt.string({ positional: true, required: true }),
  },
  run: async () => ({ kind: 'text', text: '' }),
} satisfies SomeCommand;

function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof UserError, `expected UserError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a UserError');
}

test('splitCommand reads /name, /name@bot and arguments; plain chat is not a command', () => {
  assert.deepEqual(splitCommand('/token@KolRadarBot solana abc'), {
    name: 'token',
    mention: 'KolRadarBot',
    args: ['solana', 'abc'],
  });
  assert.deepEqual(splitCommand('  /HELP  '), { name: 'help', mention: undefined, args: [] });
  assert.equal(splitCommand('hello /token'), undefined);
  assert.equal(splitCommand('/'), undefined);
});

test('tokenize keeps quoted words together', () => {
  assert.deepEqual(tokenize('search:"crypto cat" sort:score'), ['search:crypto cat', 'sort:score']);
  assert.deepEqual(tokenize('“smart money” x'), ['smart money', 'x']);
});

test('positional and key:value arguments map onto options and validate into typed input', () => {
  const raw = argsFor(kols, ['pepe', 'sort:WinRate', 'limit=5', 'chains:sol,bnb', 'mention:yes', 'followers:10k']);
  assert.deepEqual(validate(kols, raw), {
    search: 'pepe',
    sort: 'winrate',
    limit: 5,
    chains: ['solana', 'bsc'],
    mention: true,
    followers: 10_000,
  });
});

test('defaults apply when an option is absent', () => {
  assert.deepEqual(validate(kols, {}), { limit: 10 });
});

test('a Sui coin type with :: is a value, not a key', () => {
  const addr = `0x${'a'.repeat(64)}::coin::PEPE`;
  assert.deepEqual(argsFor(token, ['sui', addr]), { chain: 'sui', address: addr });
});

test('every user mistake gets a short message that says what was wrong', () => {
  assert.equal(
    userError(() => validate(token, { chain: 'solanaa', address: 'x' })).message,
    "Unknown chain 'solanaa'. Did you mean solana?",
  );
  assert.equal(
    userError(() => validate(token, { chain: 'doge', address: 'x' })).message,
    "Unknown chain 'doge'. Use one of: solana, aptos, bsc, base, sui",
  );
  assert.equal(userError(() => validate(token, {})).message, '/token needs <chain> <address>.');
  assert.equal(userError(() => validate(kols, { limit: '50' })).message, "limit must be between 1 and 25 (got '50').");
  assert.equal(userError(() => validate(kols, { limit: 'ten' })).message, "limit must be a whole number (got 'ten').");
  assert.equal(
    userError(() => validate(kols, { mention: 'maybe' })).message,
    "mention must be yes or no (got 'maybe').",
  );
  assert.equal(
    userError(() => validate(kols, { sort: 'winrat' })).message,
    "Unknown sort 'winrat'. Did you mean winrate?",
  );
  assert.equal(
    userError(() => argsFor(kols, ['limt:5'])).message,
    "Unknown option 'limt' for /kols. Did you mean limit?",
  );
  assert.equal(
    userError(() => argsFor(kols, ['zzzz:5'])).message,
    "Unknown option 'zzzz' for /kols. Options: search, sort, limit, chains, mention, followers.",
  );
  assert.equal(userError(() => argsFor(kols, ['a', 'b'])).message, "Too many values for /kols: 'b'.");
  assert.equal(userError(() => argsFor(kols, ['limit:1', 'limit:2'])).message, "Option 'limit' is given twice.");
  const e = userError(() => validate(kols, { limit: '0' }));
  assert.equal(e.example, '/kols sort:winrate limit:10', 'the example shows the option used correctly');
});

test('addresses are recognised per chain and a chain is inferred only when unambiguous', () => {
  const sol = 'So11111111111111111111111111111111111111112';
  const evm = `0x${'ab'.repeat(20)}`;
  const sui = `0x${'1'.repeat(64)}::pepe::PEPE`;
  assert.deepEqual(chainsForAddress(sol), ['solana']);
  assert.deepEqual(chainsForAddress(evm), ['bsc', 'base']);
  assert.deepEqual(chainsForAddress(sui), ['sui', 'aptos']);
  assert.deepEqual(chainsForAddress('hello world'), []);
  assert.equal(isValidAddress('solana', sol), true);
  assert.equal(isValidAddress('solana', evm), false);
  assert.equal(isValidAddress('base', evm), true);
  assert.equal(isValidAddress('aptos', sui), true);
  assert.equal(isValidAddress('bsc', '0x123'), false);
});

test('suggest finds near misses and refuses wild guesses', () => {
  assert.equal(suggest('solanaa', ['solana', 'sui']), 'solana');
  assert.equal(suggest('tokn', ['token', 'tokens', 'kol']), 'token');
  assert.equal(suggest('xyzzy', ['token', 'kol']), undefined);
});

test('keyed Move addresses, apostrophes and empty values are read as a user means them', () => {
  const addr = `0x${'b'.repeat(64)}::token::PIXEL`;
  assert.deepEqual(argsFor(token, [`chain:aptos`, `address:${addr}`]), { chain: 'aptos', address: addr });
  assert.deepEqual(tokenize("search:don't limit:2"), ["search:don't", 'limit:2']);
  assert.deepEqual(tokenize("search:'two words' x"), ['search:two words', 'x']);
  assert.equal(
    userError(() => argsFor(kols, ['limit:', '3'])).message,
    "Option 'limit' needs a value right after the colon, like limit:…",
  );
});

test('a role id is taken only as Discord writes it: a mention or the id, never another spelling with a leading zero', () => {
  const ping = {
    name: 'ping',
    examples: ['/ping role:<@&80351110224678912>'],
    options: { role: opt.role({}) },
    run: async () => ({ kind: 'text', text: '' }),
  } satisfies SomeCommand;
  assert.equal(validate(ping, { role: '<@&80351110224678912>' }).role, '80351110224678912');
  assert.equal(validate(ping, { role: '803511102246789120' }).role, '803511102246789120');
  for (const role of ['<@&080351110224678912>', '0080351110224678912'])
    assert.throws(() => validate(ping, { role }), UserError, role);
});
