import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiSchemaError, OPERATION_NAMES, parseResponse, type OperationName } from '../../src/api/index.ts';
import * as fx from './fixtures.ts';

const fixtures: Record<OperationName, () => unknown> = {
  tokenMindmap: fx.mindmapGraph,
  tokenAnalytics: () => fx.tokenAnalytics(),
  kolProjects: fx.kolProjects,
  kolTokens: fx.kolTokens,
  kolWinRates: fx.winRates,
  kolScore: fx.kolScore,
  tweetsByToken: fx.tweetsByToken,
  tweets: fx.tweets,
  kolTable: fx.kolTable,
  kolMindmap: fx.kolMindmap,
};

function schemaError(fn: () => unknown): ApiSchemaError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiSchemaError, `expected ApiSchemaError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the body to be refused');
}

test('a spec-shaped body of each of the ten operations is accepted', () => {
  for (const op of OPERATION_NAMES) {
    assert.doesNotThrow(() => parseResponse(op, JSON.stringify(fixtures[op]())), op);
  }
});

test('ids above 2^53 keep their exact digits, wherever an id appears', () => {
  const big = '1234567890123456789';
  assert.equal(parseResponse('kolMindmap', `{"items": [], "total": 0}`).total, 0);
  const text = JSON.stringify(fx.tweetsByToken())
    .replace('"id":100', `"id":${big}`)
    .replace('"tweet_id":100', `"tweet_id":${big}1`)
    .replace('"x_user_id":7', `"x_user_id":${big}2`)
    .replace('"twitter_id":"1790000000000000001"', '"twitter_id":1790000000000000001');
  const tweet = parseResponse('tweetsByToken', text).items[0];
  assert.ok(tweet);
  assert.equal(tweet.id, big);
  assert.equal(tweet.highlights[0]?.tweet_id, `${big}1`);
  assert.equal(tweet.x_user_id, `${big}2`);
  assert.equal(tweet.twitter_id, '1790000000000000001');
  // Small ids become strings too, so callers never juggle two types.
  assert.equal(tweet.x_user.id, '7');

  const graph = parseResponse(
    'tokenMindmap',
    JSON.stringify(fx.mindmapGraph()).replace('"source":1', `"source":${big}`),
  );
  assert.equal(graph.edges[0]?.source, big);
});

test('decimal strings stay exact; a JSON number in a decimal field becomes its source text', () => {
  const item = { ...fx.tokenAnalyticsItem(), smart_follower: '123456789012345678901234567890.000000000000000000001' };
  const text = JSON.stringify({ items: [item], total: 1, new_token_count24h: 0 })
    .replace('"mention":"1000"', '"mention":0.12345678901234567890123')
    .replace('"impression":"250000"', '"impression":1.50');
  const parsed = parseResponse('tokenAnalytics', text).items[0];
  assert.equal(parsed?.smart_follower, '123456789012345678901234567890.000000000000000000001');
  assert.equal(parsed?.mention, '0.12345678901234567890123');
  assert.equal(parsed?.impression, '1.50');
  assert.equal(parsed?.total_score, '87.5');
});

test('number fields stay numbers even when their source text is unusual', () => {
  const text = JSON.stringify(fx.kolScore())
    .replace('"score":5', '"score":5.10')
    .replace('"speed_score":4', '"speed_score":1e2');
  const score = parseResponse('kolScore', text);
  assert.equal(score.score, 5.1);
  assert.equal(score.speed_score, 100);
});

test('nulls are accepted exactly where the spec allows them', () => {
  const byToken = fx.tweetsByToken();
  const tweetsText = JSON.stringify(byToken);
  const parsed = parseResponse('tweetsByToken', tweetsText);
  assert.equal(parsed.next_cursor, null);
  assert.equal(parsed.items[0]?.metadata, null);
  assert.equal(parsed.items[0]?.x_user.statistic.first_tweet_id, null);
  assert.equal(parsed.items[0]?.deleted_at, null);

  const first = byToken.items[0];
  assert.ok(first);
  const withValues = JSON.stringify({ ...byToken, items: [{ ...first, deleted_at: '2024-06-01T00:00:00Z' }] })
    .replace('"metadata":null', '"metadata":{"lang":"en"}')
    .replace('"first_tweet_id":null', '"first_tweet_id":99999999999999999999');
  const again = parseResponse('tweetsByToken', withValues).items[0];
  assert.deepEqual(again?.metadata, { lang: 'en' });
  assert.equal(again?.x_user.statistic.first_tweet_id, '99999999999999999999');
  assert.equal(again?.deleted_at, '2024-06-01T00:00:00Z');

  const list = parseResponse('tweets', JSON.stringify({ ...fx.tweets(), next_cursor: null }));
  assert.equal(list.next_cursor, null);
  assert.equal(list.items[0]?.original_tweet, null);

  const e = schemaError(() =>
    parseResponse('kolMindmap', JSON.stringify({ items: [{ ...fx.tokenSummary(), name: null }], total: 1 })),
  );
  assert.equal(e.path, 'items.0.name');
  assert.match(e.message, /^kolMindmap: items\.0\.name: expected string, received null/);
});

test('unicode and emoji text is kept as sent', () => {
  const name = '🐸 Pepe 中文 עִבְרִית \u202e';
  const body = { items: [{ ...fx.tokenSummary(), name, symbol: '🚀' }], total: 1 };
  const parsed = parseResponse('kolMindmap', JSON.stringify(body));
  assert.equal(parsed.items[0]?.name, name);
  assert.equal(parsed.items[0]?.symbol, '🚀');
});

test('unknown extra fields are tolerated', () => {
  const body = { ...fx.kolTable(), brand_new: { x: 1 } };
  const row = { ...fx.kolTable().items[0], extra_field: 'surprise' };
  body.items = [row as (typeof body.items)[number]];
  const parsed = parseResponse('kolTable', JSON.stringify(body));
  assert.equal(parsed.items[0]?.kol, 'alice');
  assert.equal(parsed.total, 1);
});

test('a drifted field raises ApiSchemaError naming the operation and the field path; in a list it costs only its row', () => {
  const body = fx.tokenAnalytics(5);
  const drifted = JSON.stringify(body).replace(/"marketcap":1234567.5/g, (m, offset: number, all: string) =>
    all.slice(0, offset).split('"marketcap"').length - 1 === 3 ? '"marketcap":"1.2M"' : m,
  );
  const partial = parseResponse('tokenAnalytics', drifted);
  assert.equal(partial.items.length, 4, 'the other rows are kept');
  assert.equal(partial.unreadable, 1);
  assert.equal(
    parseResponse('tokenAnalytics', JSON.stringify(body)).unreadable,
    undefined,
    'a clean answer has no note',
  );
  const allBad = JSON.stringify(fx.tokenAnalytics(2)).replaceAll('"marketcap":1234567.5', '"marketcap":"1.2M"');
  const e = schemaError(() => parseResponse('tokenAnalytics', allBad));
  assert.equal(e.operation, 'tokenAnalytics');
  assert.equal(e.path, 'items.0.marketcap');
  assert.match(e.message, /^tokenAnalytics: items\.0\.marketcap: expected number/);

  const missing = { ...fx.kolScore() } as Record<string, unknown>;
  delete missing.score_v2;
  const e2 = schemaError(() => parseResponse('kolScore', JSON.stringify(missing)));
  assert.equal(e2.message, 'kolScore: score_v2: expected number, received undefined');

  const chain = schemaError(() =>
    parseResponse('kolMindmap', JSON.stringify({ items: [{ ...fx.tokenSummary(), chain_id: 'eth' }], total: 1 })),
  );
  assert.equal(chain.path, 'items.0.chain_id');
  assert.match(chain.message, /expected one of solana, aptos, bsc, base, sui, received "eth"/);

  const decimal = schemaError(() =>
    parseResponse(
      'tokenAnalytics',
      JSON.stringify(fx.tokenAnalytics(1)).replace('"score_v2":"90.0"', '"score_v2":"n/a"'),
    ),
  );
  assert.equal(decimal.path, 'items.0.score_v2');
});

test('a body that is not JSON raises ApiSchemaError', () => {
  const e = schemaError(() => parseResponse('kolScore', '{"accuracy_score": 1,'));
  assert.equal(e.path, '(body)');
  assert.match(e.message, /^kolScore: \(body\): response is not valid JSON/);
});

test('the tweet list author objects accept partial shapes', () => {
  const body = fx.tweets();
  const item = body.items[0];
  assert.ok(item);
  const text = JSON.stringify({
    ...body,
    // biome-ignore lint/correctness/noPrecisionLoss: the number is rounded on purpose, then its digits are restored in the JSON text.
    items: [{ ...item, x_user: [{ username: 'bob' }, { id: 12345678901234567890 }] }],
  }).replace('12345678901234567000', '12345678901234567890');
  const parsed = parseResponse('tweets', text);
  assert.equal(parsed.items[0]?.x_user[0]?.username, 'bob');
  assert.equal(parsed.items[0]?.x_user[1]?.id, '12345678901234567890');
});
