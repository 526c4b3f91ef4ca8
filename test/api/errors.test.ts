import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiBadRequestError,
  ApiError,
  ApiNotFoundError,
  ApiUnauthorizedError,
  ApiValidationError,
  createKolClient,
  type KolClient,
} from '../../src/api/index.ts';
import { sandboxPerFile } from './helpers.ts';

const setup = sandboxPerFile();

type Case = [name: string, call: (c: KolClient) => Promise<unknown>, param: string, rule: RegExp];

const KOL = '1379438138962740322';
const cases: Case[] = [
  ['limit 0', (c) => c.getTokenAnalytics({ limit: 0 }), 'limit', /integer from 1 to 100/],
  ['limit 101', (c) => c.getTokenAnalytics({ limit: 101 }), 'limit', /integer from 1 to 100/],
  ['fractional limit', (c) => c.getKolTable({ limit: 2.5 }), 'limit', /integer/],
  ['negative offset', (c) => c.getKolWinRates({ offset: -1 }), 'offset', />= 0/],
  ['newToken 169', (c) => c.getTokenAnalytics({ newToken: 169 }), 'newToken', /1 to 168/],
  ['newToken 0', (c) => c.getTokenAnalytics({ newToken: 0 }), 'newToken', /1 to 168/],
  // @ts-expect-error: not a sortField of this operation
  ['unknown sortField', (c) => c.getTokenAnalytics({ sortField: 'price' }), 'sortField', /one of mention, impression/],
  // @ts-expect-error: the spec's ASC/DESC is upper-case here
  ['lower-case sortOrder', (c) => c.getKolTable({ sortOrder: 'asc' }), 'sortOrder', /ASC or DESC/],
  // @ts-expect-error: not a ChainId
  ['unknown chain', (c) => c.getTokenAnalytics({ chainId: 'eth' }), 'chainId', /solana, aptos, bsc, base, sui/],
  // @ts-expect-error: not a ChainId
  ['unknown chain in a list', (c) => c.getTweets({ chainId: ['solana', 'eth'] }), 'chainId', /ChainId/],
  ['non-numeric string bound', (c) => c.getTokenAnalytics({ minMarketCap: '10k' }), 'minMarketCap', /numeric string/],
  // @ts-expect-error: numeric bound given as text
  ['text for a number bound', (c) => c.getTweets({ minKolScore: '5' }), 'minKolScore', /finite number/],
  ['min above max', (c) => c.getKolTable({ minWinrate: '0.9', maxWinrate: '0.1' }), 'maxWinrate', />= minWinrate/],
  // @ts-expect-error: misspelled parameter
  ['unknown parameter', (c) => c.getTokenAnalytics({ limt: 5 }), 'limt', /not a parameter/],
  // @ts-expect-error: a JS number cannot hold every Twitter id
  // biome-ignore lint/correctness/noPrecisionLoss: the rounded number is the caller's mistake under test.
  ['numeric xUserId', (c) => c.getKolScore({ xUserId: 1379438138962740322 }), 'xUserId', /digit string/],
  ['non-digit xUserId', (c) => c.getKolTokens({ xUserId: '@alice' }), 'xUserId', /digit string/],
  // @ts-expect-error: address is required
  ['missing address', (c) => c.getTokenMindmap({ chainId: 'solana' }), 'address', /required/],
  ['empty address', (c) => c.getTweetsByToken({ chainId: 'sui', tokenAddress: '  ' }), 'tokenAddress', /empty/],
  ['mindmap limit 51', (c) => c.getTokenMindmap({ chainId: 'solana', address: 'x', limit: 51 }), 'limit', /1 to 50/],
  ['projects limit 31', (c) => c.getKolProjects({ limit: 31 }), 'limit', /1 to 30/],
  ['kol mindmap limit 51', (c) => c.getKolMindmap({ xUserId: KOL, limit: 51 }), 'limit', /1 to 50/],
  ['timeFrame 0', (c) => c.getTokenMindmap({ chainId: 'bsc', address: 'x', timeFrame: 0 }), 'timeFrame', /positive/],
  ['negative startTime', (c) => c.getKolTokens({ xUserId: KOL, startTime: -5 }), 'startTime', />= 0/],
  ['bad budget', (c) => c.getKolScore({ xUserId: KOL }, { budgetMs: 0 }), 'budgetMs', /positive/],
];

test('bad parameters are refused with ApiValidationError naming the parameter and rule, and nothing is sent', async (t) => {
  const { sb, client } = await setup(t);
  for (const [name, call, param, rule] of cases) {
    await assert.rejects(call(client), (err: unknown) => {
      assert.ok(err instanceof ApiValidationError, `${name}: ${String(err)}`);
      assert.equal(err.param, param, name);
      assert.match(err.rule, rule, name);
      assert.ok(err.message.includes(param), name);
      return true;
    });
  }
  assert.equal(sb.count(), 0, 'no request reached the server');
});

test('upstream 400 maps to ApiBadRequestError with the upstream message', async (t) => {
  const { sb, client } = await setup(t);
  const err = await client.getTweets({ cursor: 'not-a-cursor' }).catch((e: unknown) => e);
  assert.ok(err instanceof ApiBadRequestError, String(err));
  assert.equal(err.status, 400);
  assert.equal(err.operation, 'tweets');
  assert.match(err.message, /^tweets: upstream rejected the request \(400\): Bad Request/);
  assert.equal(sb.count('tweets'), 1, 'a 400 is not retried');
});

test('upstream 401 maps to ApiUnauthorizedError saying the API key was refused', async (t) => {
  const { sb } = await setup(t);
  const wrong = createKolClient({ baseUrl: sb.url, apiKey: 'wrong-key-123', retry: { baseDelayMs: 1 } });
  t.after(() => wrong.close());
  const err = await wrong.getKolTable({}).catch((e: unknown) => e);
  assert.ok(err instanceof ApiUnauthorizedError, String(err));
  assert.ok(err instanceof ApiError);
  assert.equal(err.status, 401);
  assert.equal(err.operatorFault, true);
  assert.match(err.message, /API key was refused/);
  assert.ok(!err.message.includes('wrong-key-123'));
  assert.equal(sb.count(), 1, 'a 401 is not retried');
});

test('upstream 404 maps to ApiNotFoundError on the operations that name a token or KOL', async (t) => {
  const { sb, client } = await setup(t);
  const unknownKol = '999999999999999999';
  for (const call of [
    () => client.getKolScore({ xUserId: unknownKol }),
    () => client.getKolTokens({ xUserId: unknownKol }),
    () => client.getKolMindmap({ xUserId: unknownKol }),
    () => client.getTokenMindmap({ chainId: 'solana', address: 'NoSuchToken111111111111111111111111111111111' }),
  ]) {
    const err = await call().catch((e: unknown) => e);
    assert.ok(err instanceof ApiNotFoundError, String(err));
    assert.equal(err.status, 404);
  }
  assert.equal(sb.count(), 4);
});
