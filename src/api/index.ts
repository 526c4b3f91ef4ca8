export { createKolClient, DEFAULT_BUDGET_MS } from './client.ts';
export type { CallEvent, CallOptions, KolClient, KolClientOptions } from './client.ts';
export {
  ApiAbortedError,
  ApiBadRequestError,
  ApiError,
  ApiNotFoundError,
  ApiSchemaError,
  ApiUnauthorizedError,
  ApiUnavailableError,
  ApiValidationError,
} from './errors.ts';
export type { UnavailableKind } from './errors.ts';
export { CHAINS, isChainId } from '../domain/chains.ts';
export type { ChainId } from '../domain/chains.ts';
export { OPERATION_NAMES } from './names.ts';
export type { OperationName } from './names.ts';
export { DEFAULT_TTL_MS } from './cache.ts';
export type { LoggerLike } from './logger.ts';
export {
  KOL_TABLE_SORT_FIELDS,
  KOL_TOKENS_SORT_FIELDS,
  SORT_ORDERS,
  TOKEN_ANALYTICS_SORT_FIELDS,
  TWEETS_BY_TOKEN_SORT_FIELDS,
  TWEETS_SORT_FIELDS,
  WIN_RATE_SORT_FIELDS,
} from './params/index.ts';
export type {
  KolMindmapParams,
  KolProjectsParams,
  KolScoreParams,
  KolTableParams,
  KolTableSortField,
  KolTokensParams,
  KolTokensSortField,
  KolWinRatesParams,
  SortOrder,
  TokenAnalyticsParams,
  TokenAnalyticsSortField,
  TokenMindmapParams,
  TweetsByTokenParams,
  TweetsByTokenSortField,
  TweetsParams,
  TweetsSortField,
  WinRateSortField,
} from './params/index.ts';
export type {
  Highlight,
  KolAccount,
  KolAccountBrief,
  KolAccountRanked,
  KolMindmapResult,
  KolProjectsResult,
  KolScore,
  KolStatistic,
  KolTableItem,
  KolTableResult,
  KolTokenItem,
  KolTokensResult,
  MindmapEdge,
  MindmapGraph,
  MindmapNode,
  ProjectItem,
  TokenAnalyticsItem,
  TokenAnalyticsResult,
  TokenHighlight,
  TokenSummary,
  TokenTweet,
  TweetAuthor,
  TweetListItem,
  TweetsByTokenResult,
  TweetsResult,
  TweetToken,
  WinRateItem,
  WinRatesResult,
} from './schemas/index.ts';
export { parseJsonLossless } from './json.ts';
export { parseResponse } from './decode.ts';
export type { ResultOf } from './decode.ts';
