import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { enc, get, type Query } from '../helpers.ts';

/** auth, validation and not-found answers */
export async function checkErrors(t: TestContext, sb: Sandbox): Promise<void> {
  const tok = sb.data.tokens[0]!;
  const kol = sb.data.kols[0]!;
  const ops: Record<string, string> = {
    tokenMindmap: `/v2/tokens/${tok.chain_id}/${enc(tok.address)}/mindmap`,
    tokenAnalytics: '/v2/tokens/analytics',
    kolProjects: '/v2/x-users/projects',
    kolTokens: `/v2/x-users/${kol.twitter_id}/tokens`,
    kolWinRates: '/v2/x-users/win-rate',
    kolScore: `/v2/x-users/${kol.twitter_id}/score`,
    tweetsByToken: `/v2/tweets/token/${tok.chain_id}/${enc(tok.address)}`,
    tweets: '/v2/tweets',
    kolTable: '/v2/x-users/analytics',
    kolMindmap: `/v2/x-users/${kol.twitter_id}/mindmap`,
  };
  const expectError = async (status: number, path: string, q?: Query, headers?: Record<string, string>) => {
    const r = await get(sb, path, q, headers);
    const phrase = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found' }[status];
    assert.equal(r.status, status, `${path} ${JSON.stringify(q)} -> ${r.status} ${r.text.slice(0, 100)}`);
    assert.deepEqual(r.body, { statusCode: status, message: phrase, error: phrase });
  };

  await t.test('every operation answers 200 with the key, 401 without it or with a wrong one', async () => {
    for (const [name, path] of Object.entries(ops)) {
      assert.equal((await get(sb, path)).status, 200, name);
      await expectError(401, path, undefined, {});
      await expectError(401, path, undefined, { 'x-api-key': 'wrong' });
    }
  });

  await t.test('unknown paths and unknown records are 404', async () => {
    await expectError(404, '/v2/nope');
    await expectError(404, '/v1/tweets');
    await expectError(404, '/v2/tweets/extra/segments/here/too');
    await expectError(404, `/v2/tokens/${tok.chain_id}/${'1'.repeat(44)}/mindmap`);
    for (const op of ['tokens', 'score', 'mindmap']) await expectError(404, `/v2/x-users/1000000000000000001/${op}`);
    // A Twitter id one above a real one must not match through float rounding.
    const near = (BigInt(kol.twitter_id) + 1n).toString();
    await expectError(404, `/v2/x-users/${near}/score`);
    // Declared without 404: an unknown token simply has no tweets.
    const r = await get(sb, `/v2/tweets/token/solana/${'1'.repeat(44)}`);
    assert.deepEqual(r.body, { items: [], next_cursor: null });
  });

  await t.test('400 for each rule', async () => {
    for (const path of [ops.tokenAnalytics!, ops.kolTokens!, ops.kolWinRates!])
      await expectError(400, path, { chainId: 'ethereum' });
    await expectError(400, ops.tweets!, { chainId: ['solana', 'tron'] });
    await expectError(400, `/v2/tokens/ethereum/${enc(tok.address)}/mindmap`);
    await expectError(400, `/v2/tweets/token/ethereum/${enc(tok.address)}`);
    for (const name of ['tokenAnalytics', 'kolTokens', 'kolWinRates', 'tweetsByToken', 'tweets', 'kolTable']) {
      await expectError(400, ops[name]!, { sortField: 'bogus' });
    }
    for (const name of ['tokenAnalytics', 'kolTokens', 'kolWinRates', 'kolTable']) {
      await expectError(400, ops[name]!, { sortOrder: 'asc' });
      await expectError(400, ops[name]!, { sortOrder: 'UP' });
      assert.equal((await get(sb, ops[name]!, { sortOrder: 'ASC' })).status, 200);
    }
    for (const name of ['tweetsByToken', 'tweets']) {
      for (const o of ['asc', 'DESC', 'Asc'])
        assert.equal((await get(sb, ops[name]!, { sortOrder: o })).status, 200, `${name} ${o}`);
      await expectError(400, ops[name]!, { sortOrder: 'up' });
    }
    const limits: Array<[string, number]> = [
      ['tokenMindmap', 50],
      ['tokenAnalytics', 100],
      ['kolProjects', 30],
      ['kolWinRates', 30],
      ['tweetsByToken', 30],
      ['tweets', 30],
      ['kolTable', 100],
      ['kolMindmap', 50],
    ];
    for (const [name, max] of limits) {
      const path = ops[name]!;
      assert.equal((await get(sb, path, { limit: max })).status, 200, `${name} limit ${max}`);
      assert.equal((await get(sb, path, { limit: 1 })).status, 200, `${name} limit 1`);
      for (const bad of [0, max + 1, -1, '2.5', 'ten', '']) await expectError(400, path, { limit: bad });
    }
    for (const name of ['tokenAnalytics', 'kolWinRates', 'kolTable', 'kolMindmap']) {
      await expectError(400, ops[name]!, { offset: -1 });
      await expectError(400, ops[name]!, { offset: 'x' });
    }
    for (const bad of [0, 169, 'week']) await expectError(400, ops.tokenAnalytics!, { newToken: bad });
    for (const good of [1, 168]) assert.equal((await get(sb, ops.tokenAnalytics!, { newToken: good })).status, 200);
    await expectError(400, ops.tokenAnalytics!, { minMarketCap: 'lots' });
    await expectError(400, ops.tokenAnalytics!, { maxH1Change: '1,5' });
    await expectError(400, ops.tokenMindmap!, { minLiquidity: 'abc' });
    await expectError(400, ops.kolProjects!, { minFollowers: 'many' });
    await expectError(400, ops.tweets!, { minKolScore: 'high' });
    await expectError(400, ops.kolTable!, { minWinrate: '50%' });
    await expectError(400, ops.kolWinRates!, { minScoreV2: 'NaN' });
    assert.equal((await get(sb, ops.tokenAnalytics!, { minMarketCap: '1e6', maxH1Change: '-0.5' })).status, 200);
    await expectError(400, ops.kolWinRates!, { startDate: 'yesterday' });
    await expectError(400, ops.kolTable!, { last24hMention: 'maybe' });
    await expectError(400, ops.tokenMindmap!, { isOnlySinceId: 'yes' });
    await expectError(400, ops.tokenMindmap!, { timeFrame: 0 });
    for (const name of ['kolProjects', 'tweetsByToken', 'tweets']) {
      await expectError(400, ops[name]!, { cursor: 'not-a-cursor!' });
      await expectError(400, ops[name]!, { cursor: Buffer.from('{"x":1}').toString('base64') });
    }
    for (const op of ['tokens', 'score', 'mindmap']) await expectError(400, `/v2/x-users/elonmusk/${op}`);
    // A scalar given twice is ambiguous.
    await expectError(400, ops.tokenAnalytics!, { limit: [5, 6] });
  });

  await t.test('a cursor from one sort order is refused by another', async () => {
    const first = await get(sb, ops.tweets!, { limit: 2 });
    const cursor = first.body.next_cursor as string;
    assert.equal((await get(sb, ops.tweets!, { cursor })).status, 200);
    await expectError(400, ops.tweets!, { cursor, sortField: 'kolScore' });
    await expectError(400, ops.tweets!, { cursor, sortOrder: 'asc' });
  });

  await t.test('the 400 body says only the status phrase; the reason is in a header', async () => {
    const r = await get(sb, ops.tokenAnalytics!, { limit: 500 });
    assert.match(r.headers.get('x-sandbox-reason') ?? '', /limit/);
  });
}
