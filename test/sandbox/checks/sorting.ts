import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { enc, ok, walkCursor } from '../helpers.ts';

type Get = (item: any) => number;
const n = (v: unknown) => Number(v);
const H = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '24h', '7d'];
const HL = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '7d'];

/** sortField -> visible value it orders by, or null when it orders by a value the item does not show. */
const OP2: Record<string, Get | null> = {
  mention: (x) => n(x.mention),
  impression: (x) => n(x.impression),
  smart_follower: (x) => n(x.smart_follower),
  market_cap: (x) => x.marketcap,
  liquidity: (x) => x.liquidity,
  token_age: (x) => x.token_age,
  m5_change: (x) => x.changes.m5,
  h1_change: (x) => x.changes.h1,
  h4_change: (x) => x.changes.h4,
  h24_change: (x) => x.changes.h24,
  total_score: (x) => n(x.total_score),
  avg_score: (x) => n(x.avg_score),
  avg_score_v2: (x) => n(x.avg_score_v2),
  scoreV2: (x) => n(x.score_v2),
  token_created_at: (x) => -x.token_age,
};
const OP4: Record<string, Get | null> = {
  shillTime: (x) => Date.parse(x.shill_timestamp),
  ...Object.fromEntries(H.map((h, i) => [h, (x: any) => n(x[`price_after${HL[i]}`]) / n(x.price_init)])),
  weightedPerformanceScore: (x) => n(x.weighted_performance_score),
  consistencyScore: (x) => n(x.consistency_score),
  areaUnderCurveScore: (x) => n(x.area_under_curve_score),
  unifiedPerformanceScore: (x) => n(x.unified_performance_score),
  engagementScore: null,
  scoreV2: (x) => n(x.unified_performance_score),
  sScoreV2: (x) => n(x.weighted_performance_score),
  aScoreV2: (x) => n(x.area_under_curve_score),
  lScoreV2: (x) => n(x.consistency_score),
  eScoreV2: null,
};
const OP5: Record<string, Get | null> = {
  ...Object.fromEntries(HL.map((h) => [`winRateAfter${h}`, (x: any) => n(x[`win_rate_after${h}`])])),
  weightedPerformanceScore: (x) => n(x.weighted_performance_score),
  consistencyScore: (x) => n(x.consistency_score),
  areaUnderCurveScore: (x) => n(x.area_under_curve_score),
  unifiedPerformanceScore: (x) => n(x.unified_performance_score),
  numTokensCountedWinRate: (x) => x.num_tokens_counted_win_rate,
  likeScore: (x) => n(x.like_score),
  shareScore: (x) => n(x.share_score),
  mentionScore: (x) => n(x.mention_score),
  activeScore: (x) => n(x.active_score),
  engagementScore: null,
  scoreV2: (x) => n(x.unified_performance_score),
  sScoreV2: (x) => n(x.weighted_performance_score),
  aScoreV2: (x) => n(x.area_under_curve_score),
  lScoreV2: (x) => n(x.consistency_score),
  eScoreV2: null,
};
const OP9: Record<string, Get | null> = {
  totalToken: (x) => x.total_token,
  smFollower: (x) => x.sm_follower,
  mention: (x) => x.mention,
  impression: (x) => x.impression,
  sScore: (x) => x.s_score,
  aScore: (x) => x.a_score,
  lScore: (x) => x.l_score,
  eScore: (x) => x.e_score,
  totalScore: (x) => x.total_score,
  scoreV2: (x) => x.score_v2,
  activeScore: (x) => x.active_score,
  winrate: (x) => x.winrate,
  rugRate: (x) => x.rug_rate,
  loseRate: (x) => x.lose_rate,
  userRanking: (x) => x.user_ranking,
  sScoreV2: null,
  aScoreV2: null,
  lScoreV2: null,
  eScoreV2: null,
};

function assertOrder(
  items: any[],
  get: Get | null,
  desc: boolean,
  idOf: (x: any) => number,
  label: string,
  strictTies = true,
) {
  if (!get) return;
  for (let i = 1; i < items.length; i++) {
    const a = get(items[i - 1]);
    const b = get(items[i]);
    assert.ok(desc ? a >= b : a <= b, `${label}: ${a} then ${b} at ${i}`);
    if (strictTies && a === b)
      assert.ok(
        desc ? idOf(items[i - 1]) > idOf(items[i]) : idOf(items[i - 1]) < idOf(items[i]),
        `${label}: tie order by id at ${i}`,
      );
  }
}

/** First page both ways at the largest limit: enough to see each field order, cheap enough to do for all. */
async function checkOffsetOp(
  sb: Sandbox,
  path: string,
  fields: Record<string, Get | null>,
  limit: number,
  idOf: (x: any) => number,
  strictTies = (_f: string) => true,
) {
  const total = (await ok(sb, path, { limit: 1 })).total as number;
  let firstIds: string | undefined;
  for (const [field, get] of Object.entries(fields)) {
    const asc = (await ok(sb, path, { sortField: field, sortOrder: 'ASC', limit })).items;
    const desc = (
      await ok(sb, path, { sortField: field, sortOrder: 'DESC', limit, offset: Math.max(0, total - limit) })
    ).items;
    assert.equal(asc.length, Math.min(limit, total));
    assertOrder(asc, get, false, idOf, `${path} ${field} ASC`, strictTies(field));
    assertOrder(desc, get, true, idOf, `${path} ${field} DESC`, strictTies(field));
    assert.deepEqual(
      desc.map(idOf).reverse().slice(0, asc.length),
      asc.map(idOf).slice(0, desc.length),
      `${path} ${field}: DESC is ASC reversed`,
    );
    const ids = asc.map(idOf).join();
    assert.notEqual(ids, [...asc.map(idOf)].sort((a, b) => a - b).join(), `${path} ${field} is not plain id order`);
    if (get === null) assert.notEqual(ids, firstIds, `${path} ${field} changes the order`);
    firstIds ??= ids;
  }
}

/** every sortField orders by its value, ties by id, DESC the reverse of ASC */
export async function checkSorting(t: TestContext, sb: Sandbox): Promise<void> {
  const kol = [...sb.data.kols]
    .sort((a, b) => a.id - b.id)
    .find((k) => sb.data.shills.filter((s) => s.kolId === k.id).length >= 8)!;

  await t.test('4.2 token analytics', () =>
    checkOffsetOp(
      sb,
      '/v2/tokens/analytics',
      OP2,
      100,
      (x) => x.token.id,
      (f) => f !== 'token_age' && f !== 'token_created_at',
    ),
  );
  await t.test('4.5 win-rate table', () => checkOffsetOp(sb, '/v2/x-users/win-rate', OP5, 30, (x) => x.x_user_id));
  await t.test('4.9 KOL table', () => checkOffsetOp(sb, '/v2/x-users/analytics', OP9, 100, (x) => x.id));

  await t.test('4.4 token momentum by KOL', async () => {
    for (const [field, get] of Object.entries(OP4)) {
      const asc = (await ok(sb, `/v2/x-users/${kol.twitter_id}/tokens`, { sortField: field, sortOrder: 'ASC' })).items;
      const desc = (await ok(sb, `/v2/x-users/${kol.twitter_id}/tokens`, { sortField: field })).items;
      // Horizon ratios come from decimal strings; equal ratios may differ in the last float bit.
      assertOrder(asc, get, false, (x) => x.id, `4.4 ${field} ASC`, !H.includes(field));
      assertOrder(desc, get, true, (x) => x.id, `4.4 ${field} DESC`, !H.includes(field));
      assert.deepEqual(
        asc.map((x: any) => x.id),
        desc.map((x: any) => x.id).reverse(),
      );
    }
    const def = (await ok(sb, `/v2/x-users/${kol.twitter_id}/tokens`)).items;
    assertOrder(def, OP4.shillTime!, true, (x) => x.id, 'default newest shill first');
  });

  await t.test('4.7 tweets by token and 4.8 tweets (cursor walks)', async () => {
    // A token with a few pages of tweets, not the busiest one.
    const counts = new Map<number, number>();
    for (const tw of sb.data.tweets) for (const id of tw.tokenIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    const tok = sb.data.tokens.find((x) => (counts.get(x.id) ?? 0) >= 70 && (counts.get(x.id) ?? 0) <= 150)!;
    const p7 = `/v2/tweets/token/${tok.chain_id}/${enc(tok.address)}`;
    const f7: Record<string, Get> = {
      tweetedAt: (x) => Date.parse(x.tweeted_at),
      rankingScore: (x) => x.x_user.statistic.ranking_score,
      scoreV2: (x) => n(x.x_user.statistic.score_v2),
    };
    for (const [field, get] of Object.entries(f7)) {
      for (const order of ['asc', 'desc']) {
        const items = await walkCursor(sb, p7, { sortField: field, sortOrder: order, limit: 30 });
        assert.equal(items.length, counts.get(tok.id));
        assertOrder(items, get, order === 'desc', (x) => x.id, `4.7 ${field} ${order}`);
      }
    }
    const f8: Record<string, Get> = {
      tweetedAt: (x) => Date.parse(x.tweeted_at),
      tokenScore: (x) => x.token.avg_score,
      kolScore: (x) => x.x_user[0].statistic.ranking_score,
      followerCount: (x) => x.x_user[0].follower_count,
    };
    for (const [field, get] of Object.entries(f8)) {
      for (const order of ['ASC', 'desc']) {
        const items = (await ok(sb, '/v2/tweets', { sortField: field, sortOrder: order, limit: 30 })).items;
        assert.equal(items.length, 30);
        assertOrder(items, get, order === 'desc', (x) => x.id, `4.8 ${field} ${order}`);
      }
    }
    const head = (await ok(sb, '/v2/tweets')).items;
    assert.equal(head[0].id, sb.data.tweets.at(-1)!.id, 'default feed order is newest first');
  });
}
