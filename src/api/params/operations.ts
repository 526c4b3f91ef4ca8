import { z } from 'zod';
import {
  boundPairs,
  chainId,
  chainList,
  flag,
  intRange,
  list,
  numberBound,
  numericString,
  offset,
  pairsOf,
  sortField,
  sortOrder,
  sortOrderLower,
  text,
  xUserId,
} from './rules.ts';

export const TOKEN_ANALYTICS_SORT_FIELDS = [
  'mention',
  'impression',
  'smart_follower',
  'market_cap',
  'liquidity',
  'token_age',
  'm5_change',
  'h1_change',
  'h4_change',
  'h24_change',
  'total_score',
  'avg_score',
  'avg_score_v2',
  'scoreV2',
  'token_created_at',
] as const;

export const KOL_TOKENS_SORT_FIELDS = [
  'shillTime',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '24h',
  '7d',
  'weightedPerformanceScore',
  'consistencyScore',
  'areaUnderCurveScore',
  'unifiedPerformanceScore',
  'engagementScore',
  'scoreV2',
  'sScoreV2',
  'aScoreV2',
  'lScoreV2',
  'eScoreV2',
] as const;

export const WIN_RATE_SORT_FIELDS = [
  'winRateAfter5m',
  'winRateAfter15m',
  'winRateAfter30m',
  'winRateAfter1h',
  'winRateAfter2h',
  'winRateAfter4h',
  'winRateAfter6h',
  'winRateAfter8h',
  'winRateAfter12h',
  'winRateAfter1d',
  'winRateAfter7d',
  'weightedPerformanceScore',
  'consistencyScore',
  'areaUnderCurveScore',
  'unifiedPerformanceScore',
  'numTokensCountedWinRate',
  'likeScore',
  'shareScore',
  'mentionScore',
  'activeScore',
  'engagementScore',
  'scoreV2',
  'sScoreV2',
  'aScoreV2',
  'lScoreV2',
  'eScoreV2',
] as const;

export const TWEETS_BY_TOKEN_SORT_FIELDS = ['tweetedAt', 'rankingScore', 'scoreV2'] as const;
export const TWEETS_SORT_FIELDS = ['tweetedAt', 'tokenScore', 'kolScore', 'followerCount'] as const;

export const KOL_TABLE_SORT_FIELDS = [
  'totalToken',
  'smFollower',
  'mention',
  'impression',
  'sScore',
  'aScore',
  'lScore',
  'eScore',
  'totalScore',
  'scoreV2',
  'activeScore',
  'winrate',
  'rugRate',
  'loseRate',
  'userRanking',
  'sScoreV2',
  'aScoreV2',
  'lScoreV2',
  'eScoreV2',
] as const;

export const SORT_ORDERS = ['ASC', 'DESC'] as const;

const S = numericString.optional();
const N = numberBound.optional();

// 4.1
export const tokenMindmapParams = z
  .strictObject({
    chainId,
    address: text,
    minMarketCap: S,
    maxMarketCap: S,
    minLiquidity: S,
    maxLiquidity: S,
    minScore: S,
    maxScore: S,
    minTokenAge: S,
    maxTokenAge: S,
    minFollower: S,
    maxFollower: S,
    minTokenPosted: S,
    maxTokenPosted: S,
    timeFrame: z
      .number({ error: 'must be a positive number of hours' })
      .positive({ error: 'must be a positive number of hours' })
      .optional(),
    isOnlySinceId: flag.optional(),
    id: text.optional(),
    limit: intRange(1, 50).optional(),
  })
  .superRefine(boundPairs(pairsOf('MarketCap', 'Liquidity', 'Score', 'TokenAge', 'Follower', 'TokenPosted')));

// 4.2
export const tokenAnalyticsParams = z
  .strictObject({
    offset: offset.optional(),
    limit: intRange(1, 100).optional(),
    sortField: sortField(TOKEN_ANALYTICS_SORT_FIELDS).optional(),
    sortOrder: sortOrder.optional(),
    newToken: intRange(1, 168).optional(),
    tokenAddress: text.optional(),
    chainId: chainId.optional(),
    minAge: S,
    maxAge: S,
    minLiquidity: S,
    maxLiquidity: S,
    minMarketCap: S,
    maxMarketCap: S,
    minSmartFollower: S,
    maxSmartFollower: S,
    minMention: S,
    maxMention: S,
    minImpression: S,
    maxImpression: S,
    minAvgScore: S,
    maxAvgScore: S,
    minTotalScore: S,
    maxTotalScore: S,
    minM5Change: S,
    maxM5Change: S,
    minH1Change: S,
    maxH1Change: S,
    minH4Change: S,
    maxH4Change: S,
    minH24Change: S,
    maxH24Change: S,
    minAvgScoreV2: S,
    maxAvgScoreV2: S,
    minScoreV2: S,
    maxScoreV2: S,
  })
  .superRefine(
    boundPairs(
      pairsOf(
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
      ),
    ),
  );

// 4.3
export const kolProjectsParams = z
  .strictObject({
    minFollowing: N,
    maxFollowing: N,
    minFollowers: N,
    maxFollowers: N,
    cursor: text.optional(),
    limit: intRange(1, 30).optional(),
  })
  .superRefine(boundPairs(pairsOf('Following', 'Followers')));

// 4.4
export const kolTokensParams = z.strictObject({
  xUserId,
  chainId: chainId.optional(),
  sortField: sortField(KOL_TOKENS_SORT_FIELDS).optional(),
  sortOrder: sortOrder.optional(),
  startTime: intRange(0).optional(),
});

// 4.5
export const kolWinRatesParams = z
  .strictObject({
    offset: offset.optional(),
    limit: intRange(1, 30).optional(),
    labels: list.optional(),
    chainId: chainId.optional(),
    sortField: sortField(WIN_RATE_SORT_FIELDS).optional(),
    sortOrder: sortOrder.optional(),
    startDate: text.optional(),
    endDate: text.optional(),
    minScoreV2: N,
    maxScoreV2: N,
    minSScoreV2: N,
    maxSScoreV2: N,
    minAScoreV2: N,
    maxAScoreV2: N,
    minLScoreV2: N,
    maxLScoreV2: N,
    minEScoreV2: N,
    maxEScoreV2: N,
  })
  .superRefine(boundPairs(pairsOf('ScoreV2', 'SScoreV2', 'AScoreV2', 'LScoreV2', 'EScoreV2')));

// 4.6
export const kolScoreParams = z.strictObject({ xUserId });

// 4.7
export const tweetsByTokenParams = z.strictObject({
  chainId,
  tokenAddress: text,
  limit: intRange(1, 30).optional(),
  cursor: text.optional(),
  labels: list.optional(),
  sortField: sortField(TWEETS_BY_TOKEN_SORT_FIELDS).optional(),
  sortOrder: sortOrderLower.optional(),
});

// 4.8
export const tweetsParams = z
  .strictObject({
    limit: intRange(1, 30).optional(),
    cursor: text.optional(),
    labels: list.optional(),
    minTokenScore: N,
    maxTokenScore: N,
    minKolScore: N,
    maxKolScore: N,
    minFollowerCount: N,
    maxFollowerCount: N,
    sortField: sortField(TWEETS_SORT_FIELDS).optional(),
    sortOrder: sortOrderLower.optional(),
    // "An empty array means no filter": an empty list is simply not sent.
    tweetTypes: list.optional(),
    chainId: chainList.optional(),
  })
  .superRefine(boundPairs(pairsOf('TokenScore', 'KolScore', 'FollowerCount')));

// 4.9
export const kolTableParams = z
  .strictObject({
    offset: offset.optional(),
    limit: intRange(1, 100).optional(),
    labels: list.optional(),
    sortField: sortField(KOL_TABLE_SORT_FIELDS).optional(),
    sortOrder: sortOrder.optional(),
    last24hMention: flag.optional(),
    search: text.optional(),
    minTotalToken: S,
    maxTotalToken: S,
    minSmFollower: S,
    maxSmFollower: S,
    minMention: S,
    maxMention: S,
    minImpression: S,
    maxImpression: S,
    minWinrate: S,
    maxWinrate: S,
    minRugRate: S,
    maxRugRate: S,
    minLoseRate: S,
    maxLoseRate: S,
    minScoreV2: S,
    maxScoreV2: S,
    minActiveScore: S,
    maxActiveScore: S,
  })
  .superRefine(
    boundPairs(
      pairsOf(
        'TotalToken',
        'SmFollower',
        'Mention',
        'Impression',
        'Winrate',
        'RugRate',
        'LoseRate',
        'ScoreV2',
        'ActiveScore',
      ),
    ),
  );

// 4.10
export const kolMindmapParams = z.strictObject({
  xUserId,
  id: text.optional(),
  offset: offset.optional(),
  limit: intRange(1, 50).optional(),
});

export type TokenMindmapParams = z.input<typeof tokenMindmapParams>;
export type TokenAnalyticsParams = z.input<typeof tokenAnalyticsParams>;
export type KolProjectsParams = z.input<typeof kolProjectsParams>;
export type KolTokensParams = z.input<typeof kolTokensParams>;
export type KolWinRatesParams = z.input<typeof kolWinRatesParams>;
export type KolScoreParams = z.input<typeof kolScoreParams>;
export type TweetsByTokenParams = z.input<typeof tweetsByTokenParams>;
export type TweetsParams = z.input<typeof tweetsParams>;
export type KolTableParams = z.input<typeof kolTableParams>;
export type KolMindmapParams = z.input<typeof kolMindmapParams>;

export type TokenAnalyticsSortField = (typeof TOKEN_ANALYTICS_SORT_FIELDS)[number];
export type KolTokensSortField = (typeof KOL_TOKENS_SORT_FIELDS)[number];
export type WinRateSortField = (typeof WIN_RATE_SORT_FIELDS)[number];
export type TweetsByTokenSortField = (typeof TWEETS_BY_TOKEN_SORT_FIELDS)[number];
export type TweetsSortField = (typeof TWEETS_SORT_FIELDS)[number];
export type KolTableSortField = (typeof KOL_TABLE_SORT_FIELDS)[number];
export type SortOrder = (typeof SORT_ORDERS)[number];
