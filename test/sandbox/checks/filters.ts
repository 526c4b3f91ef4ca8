import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { enc, ok, walkCursor, walkOffset } from '../helpers.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** filters keep exactly the matching records */
export async function checkFilters(t: TestContext, sb: Sandbox): Promise<void> {
  const { tokens, kols, tweets } = sb.data;
  const kolById = new Map(kols.map((k) => [k.id, k]));
  const tokenById = new Map(tokens.map((x) => [x.id, x]));

  await t.test('4.2 token analytics: chain, search, newToken and every range', async () => {
    const all = (await walkOffset(sb, '/v2/tokens/analytics', {}, 100)).items;
    assert.equal(all.length, tokens.length);
    const base = await ok(sb, '/v2/tokens/analytics', { chainId: 'base', limit: 100 });
    assert.equal(base.total, tokens.filter((x) => x.chain_id === 'base').length);
    for (const it of base.items) assert.equal(tokenById.get(it.token.id)!.chain_id, 'base');
    const pump = await ok(sb, '/v2/tokens/analytics', { tokenAddress: 'PUMP', limit: 100 });
    assert.ok(pump.total > 0);
    assert.equal(
      pump.total,
      tokens.filter((x) => x.address.toLowerCase().includes('pump') || x.name.toLowerCase().includes('pump')).length,
    );
    const fresh = await ok(sb, '/v2/tokens/analytics', { newToken: 24, limit: 100 });
    const now = Date.now();
    const expected = tokens.filter((x) => x.createdMs >= now - 24 * 3_600_000).length;
    assert.ok(fresh.total > 0 && fresh.total < tokens.length);
    assert.ok(Math.abs(fresh.total - expected) <= 1, 'tokens created in the last 24 hours');
    assert.equal(fresh.new_token_count24h, fresh.total);
    const ranges: Array<[string, (x: any) => number]> = [
      ['Age', (x) => x.token_age],
      ['Liquidity', (x) => x.liquidity],
      ['MarketCap', (x) => x.marketcap],
      ['SmartFollower', (x) => Number(x.smart_follower)],
      ['Mention', (x) => Number(x.mention)],
      ['Impression', (x) => Number(x.impression)],
      ['AvgScore', (x) => Number(x.avg_score)],
      ['TotalScore', (x) => Number(x.total_score)],
      ['M5Change', (x) => x.changes.m5],
      ['H1Change', (x) => x.changes.h1],
      ['H4Change', (x) => x.changes.h4],
      ['H24Change', (x) => x.changes.h24],
      ['AvgScoreV2', (x) => Number(x.avg_score_v2)],
      ['ScoreV2', (x) => Number(x.score_v2)],
    ];
    for (const [name, get] of ranges) {
      const m = median(all.map(get));
      const lo = await ok(sb, '/v2/tokens/analytics', { [`min${name}`]: String(m), limit: 100 });
      assert.equal(lo.total, all.filter((x) => get(x) >= m).length, `min${name}`);
      for (const it of lo.items) assert.ok(get(it) >= m, `min${name}`);
      const hi = await ok(sb, '/v2/tokens/analytics', { [`max${name}`]: String(m), limit: 100 });
      assert.equal(hi.total, all.filter((x) => get(x) <= m).length, `max${name}`);
      assert.ok(lo.total < all.length || hi.total < all.length, `${name} filters something`);
    }
  });

  await t.test('4.3 projects: follower and following bounds', async () => {
    const items = await walkCursor(sb, '/v2/x-users/projects', { minFollowers: 10000, maxFollowing: 1000, limit: 30 });
    const expected = kols.filter((k) => k.follower_count >= 10000 && k.following_count <= 1000);
    assert.deepEqual(new Set(items.map((x) => x.id)), new Set(expected.map((k) => k.id)));
    assert.ok(items.length > 0 && items.length < kols.length);
  });

  await t.test('4.4 momentum: chain and start time', async () => {
    const kol = kols.find(
      (k) =>
        new Set(sb.data.shills.filter((s) => s.kolId === k.id).map((s) => tokenById.get(s.tokenId)!.chain_id)).size >=
        3,
    )!;
    const all = (await ok(sb, `/v2/x-users/${kol.twitter_id}/tokens`)).items;
    const sol = await ok(sb, `/v2/x-users/${kol.twitter_id}/tokens`, { chainId: 'solana' });
    assert.equal(sol.total, all.filter((x: any) => x.token_chain_id === 'solana').length);
    const cut = median(all.map((x: any) => Date.parse(x.shill_timestamp)));
    const recent = await ok(sb, `/v2/x-users/${kol.twitter_id}/tokens`, { startTime: Math.floor(cut / 1000) });
    assert.ok(recent.total > 0 && recent.total < all.length);
    for (const it of recent.items) assert.ok(Date.parse(it.shill_timestamp) > Math.floor(cut / 1000) * 1000);
    const wins5m = recent.items.filter((x: any) => x.win_rate5m === '1.0000').length;
    assert.equal(recent.summary.win_rate5m, Math.round((wins5m / recent.total) * 10000) / 10000);
  });

  await t.test('4.5 win rates: labels, chain, dates, score bounds', async () => {
    const alpha = (await walkOffset(sb, '/v2/x-users/win-rate', { labels: 'alpha' }, 30)).items;
    assert.ok(alpha.length > 0);
    for (const it of alpha) assert.ok(it.x_user.labels.includes('alpha'));
    const two = await ok(sb, '/v2/x-users/win-rate', { labels: ['alpha', 'nft'], limit: 30 });
    assert.ok(two.total > alpha.length);
    for (const it of two.items) assert.ok(it.x_user.labels.includes('alpha') || it.x_user.labels.includes('nft'));
    const all = (await walkOffset(sb, '/v2/x-users/win-rate', {}, 30)).items;
    const sui = (await walkOffset(sb, '/v2/x-users/win-rate', { chainId: 'sui' }, 30)).items;
    for (const it of sui) {
      const overall = all.find((x: any) => x.x_user_id === it.x_user_id);
      assert.ok(it.num_tokens_counted_win_rate <= overall.num_tokens_counted_win_rate);
      const suiShills = sb.data.shills.filter(
        (s) => s.kolId === it.x_user_id && tokenById.get(s.tokenId)!.chain_id === 'sui',
      );
      assert.equal(it.num_tokens_counted_win_rate, suiShills.length);
    }
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const windowed = await ok(sb, '/v2/x-users/win-rate', { startDate: day, limit: 30 });
    assert.ok(windowed.total > 0 && windowed.total <= all.length);
    for (const it of windowed.items) {
      const count = sb.data.shills.filter((s) => s.kolId === it.x_user_id && s.shillMs >= Date.parse(day)).length;
      assert.equal(it.num_tokens_counted_win_rate, count);
    }
    const m = median(all.map((x: any) => Number(x.unified_performance_score)));
    const top = (await walkOffset(sb, '/v2/x-users/win-rate', { minScoreV2: m }, 30)).items;
    assert.equal(top.length, all.filter((x: any) => Number(x.unified_performance_score) >= m).length);
    const w = median(all.map((x: any) => Number(x.weighted_performance_score)));
    const low = (await walkOffset(sb, '/v2/x-users/win-rate', { maxSScoreV2: w }, 30)).items;
    for (const it of low) assert.ok(Number(it.weighted_performance_score) <= w);
  });

  await t.test('4.7 tweets by token: labels', async () => {
    const tok = tokenById.get(tweets.at(-1)!.tokenIds[0]!)!;
    const items = await walkCursor(sb, `/v2/tweets/token/${tok.chain_id}/${enc(tok.address)}`, {
      labels: ['degen', 'whale'],
      limit: 30,
    });
    const expected = tweets.filter(
      (x) => x.tokenIds.includes(tok.id) && kolById.get(x.kolId)!.labels.some((l) => l === 'degen' || l === 'whale'),
    );
    assert.deepEqual(
      items.map((x) => x.id),
      expected.map((x) => x.id).reverse(),
    );
  });

  await t.test('4.8 tweets: every filter', async () => {
    const q = {
      minTokenScore: 40,
      maxTokenScore: 80,
      minKolScore: 45,
      minFollowerCount: 1000,
      maxFollowerCount: 2_000_000,
      tweetTypes: ['tweet', 'quote'],
      chainId: ['solana', 'base'],
      labels: ['alpha', 'trader', 'degen'],
      limit: 30,
    };
    const items = await walkCursor(sb, '/v2/tweets', q);
    const expected = tweets.filter((x) => {
      const k = kolById.get(x.kolId)!;
      return (
        x.tokenScore >= 40 &&
        x.tokenScore <= 80 &&
        x.kolScore >= 45 &&
        k.follower_count >= 1000 &&
        k.follower_count <= 2_000_000 &&
        ['tweet', 'quote'].includes(x.tweet_type) &&
        ['solana', 'base'].includes(tokenById.get(x.tokenIds[0]!)!.chain_id) &&
        k.labels.some((l) => ['alpha', 'trader', 'degen'].includes(l))
      );
    });
    assert.ok(expected.length > 20 && expected.length < tweets.length / 4);
    assert.deepEqual(
      items.map((x) => x.id),
      expected.map((x) => x.id).reverse(),
    );
    for (const it of items) {
      assert.ok(it.token.avg_score >= 40 && it.token.avg_score <= 80 && it.x_user[0].statistic.ranking_score >= 45);
      assert.ok(['solana', 'base'].includes(it.token.chain_id) && ['tweet', 'quote'].includes(it.tweet_type));
    }
    const single = await ok(sb, '/v2/tweets', { tweetTypes: 'reply', limit: 30 });
    assert.ok(single.items.every((x: any) => x.tweet_type === 'reply'));
    const empty = await ok(sb, '/v2/tweets', { tweetTypes: '', limit: 5 });
    assert.equal(empty.items[0].id, tweets.at(-1)!.id, 'an empty tweetTypes means no filter');
  });

  await t.test('4.9 KOL table: search, labels, recent mentions, ranges', async () => {
    const k = kols[5]!;
    const found = await ok(sb, '/v2/x-users/analytics', { search: k.username.slice(1, 6).toUpperCase() });
    assert.ok(found.items.some((x: any) => x.id === k.id));
    for (const it of found.items) {
      const s = k.username.slice(1, 6).toLowerCase();
      assert.ok(it.kol.toLowerCase().includes(s) || it.display_name.toLowerCase().includes(s));
    }
    const nft = (await walkOffset(sb, '/v2/x-users/analytics', { labels: 'nft' }, 100)).items;
    assert.equal(nft.length, kols.filter((x) => x.labels.includes('nft')).length);
    const active = await ok(sb, '/v2/x-users/analytics', { last24hMention: 'true', limit: 100 });
    const since = Date.now() - 86_400_000;
    const expected = kols.filter((x) => tweets.some((tw) => tw.kolId === x.id && tw.tweetedMs >= since + 5_000));
    assert.ok(active.total >= expected.length && active.total < kols.length);
    const all = (await walkOffset(sb, '/v2/x-users/analytics', {}, 100)).items;
    const ranges: Array<[string, (x: any) => number]> = [
      ['TotalToken', (x) => x.total_token],
      ['SmFollower', (x) => x.sm_follower],
      ['Mention', (x) => x.mention],
      ['Impression', (x) => x.impression],
      ['Winrate', (x) => x.winrate],
      ['RugRate', (x) => x.rug_rate],
      ['LoseRate', (x) => x.lose_rate],
      ['ScoreV2', (x) => x.score_v2],
      ['ActiveScore', (x) => x.active_score],
    ];
    for (const [name, get] of ranges) {
      const m = median(all.map(get));
      const lo = await ok(sb, '/v2/x-users/analytics', { [`min${name}`]: m, limit: 100 });
      assert.equal(lo.total, all.filter((x: any) => get(x) >= m).length, `min${name}`);
      const hi = await ok(sb, '/v2/x-users/analytics', { [`max${name}`]: m, limit: 100 });
      assert.equal(hi.total, all.filter((x: any) => get(x) <= m).length, `max${name}`);
    }
  });

  await t.test('4.1 token mindmap: time frame, neighbour bounds, limit', async () => {
    const dayAgo = Date.now() - 86_400_000;
    const recent = new Map<number, number>();
    for (const x of tweets)
      if (x.tweetedMs >= dayAgo) for (const id of x.tokenIds) recent.set(id, (recent.get(id) ?? 0) + 1);
    const tok = tokens.find((x) => (recent.get(x.id) ?? 0) >= 10 && (recent.get(x.id) ?? 0) <= 25)!;
    const path = `/v2/tokens/${tok.chain_id}/${enc(tok.address)}/mindmap`;
    const wide = await ok(sb, path, { timeFrame: 168, limit: 50 });
    const narrow = await ok(sb, path, { timeFrame: 1, limit: 50 });
    assert.ok(wide.nodes.length > narrow.nodes.length);
    assert.ok(wide.nodes[0].value >= narrow.nodes[0].value);
    const capped = await ok(sb, path, { timeFrame: 168, limit: 3 });
    assert.equal(capped.edges.length, 3);
    const cap = median(wide.nodes.slice(1).map((x: any) => tokenById.get(x.id)!.marketcap));
    const big = await ok(sb, path, { timeFrame: 168, limit: 50, minMarketCap: String(cap) });
    assert.ok(big.nodes.length > 1);
    assert.ok(
      wide.nodes.slice(1).some((x: any) => tokenById.get(x.id)!.marketcap < cap),
      'the bound has something to remove',
    );
    for (const node of big.nodes.slice(1)) assert.ok(tokenById.get(node.id)!.marketcap >= cap);
  });

  await t.test('4.10 KOL mindmap: offset paging', async () => {
    const kol = kols.find((k) => new Set(tweets.filter((x) => x.kolId === k.id).flatMap((x) => x.tokenIds)).size > 25)!;
    const { items, total } = await walkOffset(sb, `/v2/x-users/${kol.twitter_id}/mindmap`, {}, 7);
    assert.equal(items.length, total);
    assert.deepEqual(
      new Set(items.map((x) => x.id)),
      new Set(tweets.filter((x) => x.kolId === kol.id).flatMap((x) => x.tokenIds)),
    );
  });
}
