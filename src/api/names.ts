export const OPERATION_NAMES = [
  'tokenMindmap',
  'tokenAnalytics',
  'kolProjects',
  'kolTokens',
  'kolWinRates',
  'kolScore',
  'tweetsByToken',
  'tweets',
  'kolTable',
  'kolMindmap',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];
