import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAINS, type ChainId } from '../../src/api/index.ts';
import { lastPath, lastQuery, sandboxPerFile } from './helpers.ts';

const setup = sandboxPerFile();

function nonDecreasing(xs: number[]): boolean {
  return xs.every((x, i) => i === 0 || (xs[i - 1] as number) <= x);
}

test('all ten operations answer with typed data; ids come back as strings', async (t) => {
  const { sb, client } = await setup(t);
  const token = sb.data.tokens[0];
  const kol = sb.data.kols[0];
  assert.ok(token && kol);

  const graph = await client.getTokenMindmap({ chainId: token.chain_id, address: token.address });
  assert.equal(graph.type, 'token');
  assert.ok(graph.nodes.some((n) => n.id === String(token.id)));
  assert.ok(graph.edges.length > 0, 'the token has links');
  for (const edge of graph.edges) assert.ok(graph.tokens[edge.target], 'edges point at listed tokens');

  const analytics = await client.getTokenAnalytics({ limit: 5 });
  assert.equal(analytics.items.length, 5);
  assert.ok(analytics.total >= 5);
  assert.match(analytics.items[0]?.total_score ?? '', /^-?\d+(\.\d+)?$/);

  const projects = await client.getKolProjects({ limit: 3 });
  assert.equal(projects.items.length, 3);
  assert.equal(typeof projects.items[0]?.id, 'string');

  const momentum = await client.getKolTokens({ xUserId: kol.twitter_id });
  assert.equal(momentum.total, momentum.items.length);
  assert.ok(momentum.items.length > 0, 'the KOL has tokens');
  for (const it of momentum.items) assert.ok((CHAINS as readonly string[]).includes(it.token_chain_id));
  assert.equal(typeof momentum.summary.win_rate5m, 'number');

  const rates = await client.getKolWinRates({ limit: 4 });
  assert.equal(rates.items.length, 4);
  assert.equal(typeof rates.items[0]?.x_user.twitter_id, 'string');

  const score = await client.getKolScore({ xUserId: kol.twitter_id });
  assert.equal(typeof score.score_v2, 'number');
  assert.ok(Number.isInteger(score.position_by_score_v2));

  const byToken = await client.getTweetsByToken({ chainId: token.chain_id, tokenAddress: token.address, limit: 3 });
  assert.ok(byToken.items.length > 0, 'the token has tweets');
  for (const tw of byToken.items) assert.ok(tw.highlights.some((h) => h.token_id === String(token.id)));

  const feed = await client.getTweets({ limit: 3 });
  assert.equal(feed.items.length, 3);
  assert.equal(typeof feed.next_cursor, 'string');

  const table = await client.getKolTable({ limit: 6 });
  assert.equal(table.items.length, 6);
  assert.deepEqual(table.meta, { limit: 6, offset: 0 });

  const mind = await client.getKolMindmap({ xUserId: kol.twitter_id, limit: 5 });
  assert.ok(mind.items.length <= 5);
  assert.ok(mind.total >= mind.items.length);

  assert.equal(sb.count(), 10);
  assert.ok(sb.requests.every((r) => r.status === 200 && r.hasKey));
});

test('every parameter reaches the server under the name the spec gives it', async (t) => {
  const { sb, client } = await setup(t, { cacheTtlMs: false });
  const token = sb.data.tokens[1];
  const kol = sb.data.kols[1];
  assert.ok(token && kol);
  const expectSent = (expected: Record<string, string | string[]>) => {
    const q = lastQuery(sb);
    for (const [k, v] of Object.entries(expected)) assert.deepEqual(q.getAll(k), Array.isArray(v) ? v : [v], k);
    assert.deepEqual([...new Set(q.keys())].sort(), Object.keys(expected).sort());
  };

  await client.getTokenMindmap({
    chainId: token.chain_id,
    address: token.address,
    minMarketCap: '1',
    maxMarketCap: 1e12,
    minLiquidity: '0',
    maxLiquidity: '1e12',
    minScore: '0',
    maxScore: '100',
    minTokenAge: '0',
    maxTokenAge: '9999',
    minFollower: '0',
    maxFollower: '1e9',
    minTokenPosted: '0',
    maxTokenPosted: '1e6',
    timeFrame: 48,
    isOnlySinceId: false,
    limit: 7,
  });
  expectSent({
    minMarketCap: '1',
    maxMarketCap: '1000000000000',
    minLiquidity: '0',
    maxLiquidity: '1e12',
    minScore: '0',
    maxScore: '100',
    minTokenAge: '0',
    maxTokenAge: '9999',
    minFollower: '0',
    maxFollower: '1e9',
    minTokenPosted: '0',
    maxTokenPosted: '1e6',
    timeFrame: '48',
    isOnlySinceId: 'false',
    limit: '7',
  });
  assert.equal(lastPath(sb), `/v2/tokens/${token.chain_id}/${encodeURIComponent(token.address)}/mindmap`);

  const ranges = [
    'Age',
    'Liquidity',
    'MarketCap',
    'SmartFollower',
    'Mention',
    'Impression',
    'AvgScore',
    'TotalScore',
    'M5Change',
    'H1Change',
    'H4Change',
    'H24Change',
    'AvgScoreV2',
    'ScoreV2',
  ];
  const bounds: Record<string, string> = {};
  for (const r of ranges) {
    bounds[`min${r}`] = '-1000000';
    bounds[`max${r}`] = '1e15';
  }
  await client.getTokenAnalytics({
    offset: 2,
    limit: 3,
    sortField: 'market_cap',
    sortOrder: 'ASC',
    newToken: 168,
    tokenAddress: 'a',
    chainId: 'bsc',
    ...bounds,
  });
  expectSent({
    offset: '2',
    limit: '3',
    sortField: 'market_cap',
    sortOrder: 'ASC',
    newToken: '168',
    tokenAddress: 'a',
    chainId: 'bsc',
    ...bounds,
  });

  await client.getKolProjects({ minFollowing: 0, maxFollowing: 100000, minFollowers: 1, maxFollowers: 1e9, limit: 30 });
  expectSent({ minFollowing: '0', maxFollowing: '100000', minFollowers: '1', maxFollowers: '1000000000', limit: '30' });

  await client.getKolTokens({
    xUserId: kol.twitter_id,
    chainId: 'solana',
    sortField: 'weightedPerformanceScore',
    sortOrder: 'ASC',
    startTime: 1,
  });
  expectSent({ chainId: 'solana', sortField: 'weightedPerformanceScore', sortOrder: 'ASC', startTime: '1' });
  assert.equal(lastPath(sb), `/v2/x-users/${kol.twitter_id}/tokens`);

  const v2 = {
    minScoreV2: -1,
    maxScoreV2: 101,
    minSScoreV2: -1,
    maxSScoreV2: 101,
    minAScoreV2: -1,
    maxAScoreV2: 101,
    minLScoreV2: -1,
    maxLScoreV2: 101,
    minEScoreV2: -1,
    maxEScoreV2: 101,
  };
  await client.getKolWinRates({
    offset: 1,
    limit: 2,
    labels: ['alpha', 'degen'],
    chainId: 'base',
    sortField: 'likeScore',
    sortOrder: 'DESC',
    startDate: '2020-01-01',
    endDate: '2100-01-01',
    ...v2,
  });
  expectSent({
    offset: '1',
    limit: '2',
    labels: ['alpha', 'degen'],
    chainId: 'base',
    sortField: 'likeScore',
    sortOrder: 'DESC',
    startDate: '2020-01-01',
    endDate: '2100-01-01',
    ...Object.fromEntries(Object.entries(v2).map(([k, v]) => [k, String(v)])),
  });

  await client.getKolScore({ xUserId: kol.twitter_id });
  expectSent({});
  assert.equal(lastPath(sb), `/v2/x-users/${kol.twitter_id}/score`);

  await client.getTweetsByToken({
    chainId: token.chain_id,
    tokenAddress: token.address,
    limit: 4,
    labels: ['whale'],
    sortField: 'rankingScore',
    sortOrder: 'asc',
  });
  expectSent({ limit: '4', labels: 'whale', sortField: 'rankingScore', sortOrder: 'asc' });

  await client.getTweets({
    limit: 5,
    labels: ['alpha', 'nft'],
    minTokenScore: 0,
    maxTokenScore: 100,
    minKolScore: 0,
    maxKolScore: 100,
    minFollowerCount: 0,
    maxFollowerCount: 1e9,
    sortField: 'followerCount',
    sortOrder: 'desc',
    tweetTypes: ['tweet', 'quote'],
    chainId: ['solana', 'sui'],
  });
  expectSent({
    limit: '5',
    labels: ['alpha', 'nft'],
    minTokenScore: '0',
    maxTokenScore: '100',
    minKolScore: '0',
    maxKolScore: '100',
    minFollowerCount: '0',
    maxFollowerCount: '1000000000',
    sortField: 'followerCount',
    sortOrder: 'desc',
    tweetTypes: ['tweet', 'quote'],
    chainId: ['solana', 'sui'],
  });
  await client.getTweets({ tweetTypes: [], chainId: 'base' });
  expectSent({ chainId: 'base' });

  const tableRanges = [
    'TotalToken',
    'SmFollower',
    'Mention',
    'Impression',
    'Winrate',
    'RugRate',
    'LoseRate',
    'ScoreV2',
    'ActiveScore',
  ];
  const tb: Record<string, string> = {};
  for (const r of tableRanges) {
    tb[`min${r}`] = '0';
    tb[`max${r}`] = '1e12';
  }
  await client.getKolTable({
    offset: 3,
    limit: 9,
    labels: ['kol'],
    sortField: 'eScoreV2',
    sortOrder: 'ASC',
    last24hMention: true,
    search: 'a',
    ...tb,
  });
  expectSent({
    offset: '3',
    limit: '9',
    labels: 'kol',
    sortField: 'eScoreV2',
    sortOrder: 'ASC',
    last24hMention: 'true',
    search: 'a',
    ...tb,
  });

  await client.getKolMindmap({ xUserId: kol.twitter_id, id: '5', offset: 1, limit: 50 });
  expectSent({ id: '5', offset: '1', limit: '50' });
  assert.equal(lastPath(sb), `/v2/x-users/${kol.twitter_id}/mindmap`);
  assert.ok(
    sb.requests.every((r) => r.status === 200),
    JSON.stringify(sb.requests.filter((r) => r.status !== 200).map((r) => r.path)),
  );
});

test('Move addresses with "::" are percent-encoded in the path and found', async (t) => {
  const { sb, client } = await setup(t);
  const sui = sb.data.tokens.find((tk) => tk.address.includes('::'));
  assert.ok(sui, 'the sandbox has a Sui or Aptos token');
  const graph = await client.getTokenMindmap({ chainId: sui.chain_id, address: sui.address });
  assert.equal(graph.tokens[String(sui.id)]?.address, sui.address);
  assert.ok(lastPath(sb).includes('%3A%3A'));
  const tweets = await client.getTweetsByToken({ chainId: sui.chain_id, tokenAddress: sui.address, limit: 30 });
  assert.ok(tweets.items.length > 0, 'the Move token has tweets');
  assert.ok(tweets.items.every((tw) => tw.highlights.some((h) => h.token_id === String(sui.id))));
});

test('offset paging walks to the end without gaps or repeats', async (t) => {
  const { client } = await setup(t);
  const first = await client.getKolTable({ limit: 1 });
  const seen: string[] = [];
  for (let offset = 0; offset < first.total; offset += 37) {
    const page = await client.getKolTable({ offset, limit: 37, sortField: 'userRanking', sortOrder: 'ASC' });
    assert.equal(page.meta.offset, offset);
    seen.push(...page.items.map((i) => i.id));
  }
  assert.equal(seen.length, first.total);
  assert.equal(new Set(seen).size, first.total);
  const beyond = await client.getKolTable({ offset: first.total, limit: 10 });
  assert.equal(beyond.items.length, 0);
});

test('cursor paging walks to the end without gaps or repeats', async (t) => {
  const { sb, client } = await setup(t);
  const walk = async <T>(
    page: (cursor?: string) => Promise<{ items: T[]; next_cursor: string | null }>,
    idOf: (x: T) => string,
  ) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await page(cursor);
      ids.push(...res.items.map(idOf));
      if (res.next_cursor === null) return ids;
      cursor = res.next_cursor;
    }
    throw new Error('paging never ended');
  };
  const kols = await walk(
    (cursor) => client.getKolProjects({ limit: 30, ...(cursor ? { cursor } : {}) }),
    (k) => k.id,
  );
  assert.equal(kols.length, sb.data.kols.length);
  assert.equal(new Set(kols).size, kols.length);

  const counts = new Map<number, number>();
  for (const tw of sb.data.tweets) for (const id of new Set(tw.tokenIds)) counts.set(id, (counts.get(id) ?? 0) + 1);
  const [busiestId, expected] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  const busiest = sb.data.tokens.find((tk) => tk.id === busiestId);
  assert.ok(busiest);
  assert.ok(expected > 30, 'the walk spans several pages');
  const tweets = await walk(
    (cursor) =>
      client.getTweetsByToken({
        chainId: busiest.chain_id,
        tokenAddress: busiest.address,
        limit: 30,
        ...(cursor ? { cursor } : {}),
      }),
    (tw) => tw.id,
  );
  assert.equal(tweets.length, expected);
  assert.equal(new Set(tweets).size, expected);
});

test('sorting and filters are honoured', async (t) => {
  const { client } = await setup(t);
  const asc = await client.getTokenAnalytics({ sortField: 'market_cap', sortOrder: 'ASC', limit: 50 });
  assert.ok(asc.items.length > 1 && nonDecreasing(asc.items.map((i) => i.marketcap)));
  const desc = await client.getTokenAnalytics({ sortField: 'market_cap', sortOrder: 'DESC', limit: 50 });
  assert.ok(desc.items.length > 1 && nonDecreasing(desc.items.map((i) => -i.marketcap)));
  assert.notDeepEqual(asc.items[0], desc.items[0]);

  const capped = await client.getTokenAnalytics({ minMarketCap: '100000', maxMarketCap: '5000000', limit: 100 });
  assert.ok(capped.items.length > 0);
  assert.ok(capped.items.every((i) => i.marketcap >= 100000 && i.marketcap <= 5000000));
  assert.ok(capped.total < asc.total);

  const chain: ChainId = 'sui';
  const feed = await client.getTweets({ chainId: [chain], limit: 30 });
  assert.ok(feed.items.length > 0);
  assert.ok(feed.items.every((tw) => tw.token.chain_id === chain));

  const rates = await client.getKolWinRates({ sortField: 'winRateAfter1h', sortOrder: 'ASC', limit: 30 });
  assert.ok(rates.items.length > 1 && nonDecreasing(rates.items.map((r) => Number(r.win_rate_after1h))));

  const labelled = await client.getKolTable({ labels: ['whale'], limit: 100 });
  assert.ok(labelled.items.length > 0);
  assert.ok(labelled.items.every((k) => k.labels.includes('whale')));
  const ranked = await client.getKolTable({ sortField: 'userRanking', sortOrder: 'ASC', limit: 100 });
  assert.ok(ranked.items.length > 1 && nonDecreasing(ranked.items.map((k) => k.user_ranking)));
});
