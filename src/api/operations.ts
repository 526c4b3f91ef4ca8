import type { z } from 'zod';
import type { OperationName } from './names.ts';
import * as P from './params/index.ts';
import * as R from './schemas/index.ts';

type ParamsSchema = z.ZodType<Record<string, unknown>>;

export interface OperationDef<PS extends ParamsSchema, RS extends z.ZodType> {
  name: OperationName;
  params: PS;
  result: RS;
  /** Path parameters are percent-encoded: Sui and Aptos addresses contain `::`. */
  path: (p: z.output<PS>) => string;
  /** Parameters that go into the path and so are not repeated in the query. */
  pathKeys: readonly string[];
}

function op<PS extends ParamsSchema, RS extends z.ZodType>(def: OperationDef<PS, RS>): OperationDef<PS, RS> {
  return def;
}

const e = encodeURIComponent;

export const OPERATIONS = {
  tokenMindmap: op({
    name: 'tokenMindmap',
    params: P.tokenMindmapParams,
    result: R.mindmapGraphSchema,
    path: (p) => `/v2/tokens/${e(p.chainId)}/${e(p.address)}/mindmap`,
    pathKeys: ['chainId', 'address'],
  }),
  tokenAnalytics: op({
    name: 'tokenAnalytics',
    params: P.tokenAnalyticsParams,
    result: R.tokenAnalyticsResultSchema,
    path: () => '/v2/tokens/analytics',
    pathKeys: [],
  }),
  kolProjects: op({
    name: 'kolProjects',
    params: P.kolProjectsParams,
    result: R.kolProjectsResultSchema,
    path: () => '/v2/x-users/projects',
    pathKeys: [],
  }),
  kolTokens: op({
    name: 'kolTokens',
    params: P.kolTokensParams,
    result: R.kolTokensResultSchema,
    path: (p) => `/v2/x-users/${e(p.xUserId)}/tokens`,
    pathKeys: ['xUserId'],
  }),
  kolWinRates: op({
    name: 'kolWinRates',
    params: P.kolWinRatesParams,
    result: R.winRatesResultSchema,
    path: () => '/v2/x-users/win-rate',
    pathKeys: [],
  }),
  kolScore: op({
    name: 'kolScore',
    params: P.kolScoreParams,
    result: R.kolScoreSchema,
    path: (p) => `/v2/x-users/${e(p.xUserId)}/score`,
    pathKeys: ['xUserId'],
  }),
  tweetsByToken: op({
    name: 'tweetsByToken',
    params: P.tweetsByTokenParams,
    result: R.tweetsByTokenResultSchema,
    path: (p) => `/v2/tweets/token/${e(p.chainId)}/${e(p.tokenAddress)}`,
    pathKeys: ['chainId', 'tokenAddress'],
  }),
  tweets: op({
    name: 'tweets',
    params: P.tweetsParams,
    result: R.tweetsResultSchema,
    path: () => '/v2/tweets',
    pathKeys: [],
  }),
  kolTable: op({
    name: 'kolTable',
    params: P.kolTableParams,
    result: R.kolTableResultSchema,
    path: () => '/v2/x-users/analytics',
    pathKeys: [],
  }),
  kolMindmap: op({
    name: 'kolMindmap',
    params: P.kolMindmapParams,
    result: R.kolMindmapResultSchema,
    path: (p) => `/v2/x-users/${e(p.xUserId)}/mindmap`,
    pathKeys: ['xUserId'],
  }),
} as const;

/**
 * Query text in sorted key order, arrays as repeated keys. Being canonical, the same
 * text also serves as the cache and single-flight key.
 */
export function serializeQuery(params: Record<string, unknown>, skip: readonly string[]): string {
  const parts: string[] = [];
  for (const key of Object.keys(params).sort()) {
    if (skip.includes(key)) continue;
    const value = params[key];
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined || v === null) continue;
      parts.push(`${e(key)}=${e(typeof v === 'string' ? v : String(v))}`);
    }
  }
  return parts.join('&');
}
