// Operations 4.1 (token mindmap) and 4.2 (token analytics).
import { type Ctx, HOUR } from './ctx.ts';
import { offsetPage, sortByKey } from './paging.ts';
import { HttpError, type Params, asChain, rangeFilter } from './params.ts';
import { lowerBoundMs } from './store.ts';
import type { SandboxToken, SandboxTweet } from './types.ts';
import { tokenAgeDays, tokenAnalyticsItem, tokenSummary } from './views-token.ts';

type Key = (t: SandboxToken) => number;

/** sortField of op 2 -> the value it orders by (token_age orders by creation time, reversed). */
const TOKEN_SORT_KEYS: Record<string, Key> = {
  mention: (t) => t.mention,
  impression: (t) => t.impression,
  smart_follower: (t) => t.smart_follower,
  market_cap: (t) => t.marketcap,
  liquidity: (t) => t.liquidity,
  token_age: (t) => -t.createdMs,
  m5_change: (t) => t.changes.m5,
  h1_change: (t) => t.changes.h1,
  h4_change: (t) => t.changes.h4,
  h24_change: (t) => t.changes.h24,
  total_score: (t) => t.total_score,
  avg_score: (t) => t.avg_score,
  avg_score_v2: (t) => t.avg_score_v2,
  scoreV2: (t) => t.score_v2,
  token_created_at: (t) => t.createdMs,
};

export function tokenAnalytics(ctx: Ctx, p: Params) {
  const now = ctx.now();
  const offset = p.int('offset', 0, 0);
  const limit = p.int('limit', 20, 1, 100);
  const sortField = p.oneOf('sortField', Object.keys(TOKEN_SORT_KEYS), 'h1_change');
  const desc = p.desc('sortOrder', 'DESC', false);
  const newToken = p.optInt('newToken', 1, 168);
  const search = p.str('tokenAddress')?.toLowerCase();
  const chain = p.chain('chainId');
  const inRange = rangeFilter<SandboxToken>(p, [
    ['minAge', 'maxAge', (t) => tokenAgeDays(t, now)],
    ['minLiquidity', 'maxLiquidity', (t) => t.liquidity],
    ['minMarketCap', 'maxMarketCap', (t) => t.marketcap],
    ['minSmartFollower', 'maxSmartFollower', (t) => t.smart_follower],
    ['minMention', 'maxMention', (t) => t.mention],
    ['minImpression', 'maxImpression', (t) => t.impression],
    ['minAvgScore', 'maxAvgScore', (t) => t.avg_score],
    ['minTotalScore', 'maxTotalScore', (t) => t.total_score],
    ['minM5Change', 'maxM5Change', (t) => t.changes.m5],
    ['minH1Change', 'maxH1Change', (t) => t.changes.h1],
    ['minH4Change', 'maxH4Change', (t) => t.changes.h4],
    ['minH24Change', 'maxH24Change', (t) => t.changes.h24],
    ['minAvgScoreV2', 'maxAvgScoreV2', (t) => t.avg_score_v2],
    ['minScoreV2', 'maxScoreV2', (t) => t.score_v2],
  ]);
  const matching = ctx.store.data.tokens.filter(
    (t) =>
      (chain === undefined || t.chain_id === chain) &&
      (newToken === undefined || t.createdMs >= now - newToken * HOUR) &&
      (search === undefined || t.address.toLowerCase().includes(search) || t.name.toLowerCase().includes(search)) &&
      inRange(t),
  );
  sortByKey(matching, TOKEN_SORT_KEYS[sortField] as Key, desc);
  return {
    items: offsetPage(matching, offset, limit).map((t) => tokenAnalyticsItem(t, now)),
    total: matching.length,
    new_token_count24h: matching.filter((t) => t.createdMs >= now - 24 * HOUR).length,
  };
}

/**
 * Graph around a token: the other tokens mentioned, within the time frame, by the KOLs who
 * mentioned this one. Edge value = number of such shared KOLs; node value = mentions in the frame.
 */
export function tokenMindmap(ctx: Ctx, p: Params, chainRaw: string, address: string) {
  const chain = asChain(chainRaw);
  const now = ctx.now();
  const timeFrame = p.num('timeFrame') ?? 12;
  if (timeFrame <= 0) throw new HttpError(400, 'timeFrame must be positive');
  const limit = p.int('limit', 20, 1, 50);
  const onlySince = p.bool('isOnlySinceId') ?? false;
  const sinceRaw = p.str('id');
  const sinceId = onlySince && sinceRaw !== undefined && /^\d+$/.test(sinceRaw) ? Number(sinceRaw) : 0;
  const inRange = rangeFilter<SandboxToken>(p, [
    ['minMarketCap', 'maxMarketCap', (t) => t.marketcap],
    ['minLiquidity', 'maxLiquidity', (t) => t.liquidity],
    ['minScore', 'maxScore', (t) => t.avg_score],
    ['minTokenAge', 'maxTokenAge', (t) => tokenAgeDays(t, now)],
    ['minFollower', 'maxFollower', (t) => t.smart_follower],
    ['minTokenPosted', 'maxTokenPosted', (t) => t.mention],
  ]);
  const { store } = ctx;
  const center = store.findToken(chain, address);
  if (!center) throw new HttpError(404, 'token not found');
  const from = now - timeFrame * HOUR;
  const counted = (t: SandboxTweet) => t.id > sinceId;
  const centerList = store.tweetsByToken.get(center.id) ?? [];
  const kols = new Set<number>();
  for (let i = lowerBoundMs(centerList, from); i < centerList.length; i++) {
    const t = centerList[i] as SandboxTweet;
    if (counted(t)) kols.add(t.kolId);
  }
  const shared = new Map<number, Set<number>>();
  for (const kolId of kols) {
    const list = store.tweetsByKol.get(kolId) ?? [];
    for (let i = lowerBoundMs(list, from); i < list.length; i++) {
      const tw = list[i] as SandboxTweet;
      if (!counted(tw)) continue;
      for (const tokenId of tw.tokenIds) {
        if (tokenId === center.id) continue;
        let s = shared.get(tokenId);
        if (!s) {
          s = new Set();
          shared.set(tokenId, s);
        }
        s.add(kolId);
      }
    }
  }
  const neighbours = [...shared.entries()]
    .map(([id, set]) => ({ token: store.token(id), value: set.size }))
    .filter((n) => inRange(n.token))
    .sort((a, b) => b.value - a.value || a.token.id - b.token.id)
    .slice(0, limit);
  const mentions = (t: SandboxToken) => {
    const list = store.tweetsByToken.get(t.id) ?? [];
    let n = 0;
    for (let i = lowerBoundMs(list, from); i < list.length; i++) if (counted(list[i] as SandboxTweet)) n++;
    return n;
  };
  const all = [center, ...neighbours.map((n) => n.token)];
  return {
    type: 'token',
    nodes: all.map((t) => ({ id: t.id, value: mentions(t) })),
    edges: neighbours.map((n) => ({ source: center.id, target: n.token.id, value: n.value })),
    tokens: Object.fromEntries(all.map((t) => [String(t.id), tokenSummary(t)])),
  };
}
