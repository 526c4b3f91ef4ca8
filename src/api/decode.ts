import type { z } from 'zod';
import { ApiSchemaError } from './errors.ts';
import { parseJsonLossless } from './json.ts';
import type { OperationName } from './names.ts';
import { OPERATIONS } from './operations.ts';

export type ResultOf<K extends OperationName> = z.output<(typeof OPERATIONS)[K]['result']>;

// A mapped type lets TypeScript tie each operation name to its own result type.
const RESULTS: { [K in OperationName]: z.ZodType<ResultOf<K>> } = {
  tokenMindmap: OPERATIONS.tokenMindmap.result,
  tokenAnalytics: OPERATIONS.tokenAnalytics.result,
  kolProjects: OPERATIONS.kolProjects.result,
  kolTokens: OPERATIONS.kolTokens.result,
  kolWinRates: OPERATIONS.kolWinRates.result,
  kolScore: OPERATIONS.kolScore.result,
  tweetsByToken: OPERATIONS.tweetsByToken.result,
  tweets: OPERATIONS.tweets.result,
  kolTable: OPERATIONS.kolTable.result,
  kolMindmap: OPERATIONS.kolMindmap.result,
};

/** Checks parsed JSON against a result schema; the first mismatch names the operation and field path. */
export function decodeResult<RS extends z.ZodType>(operation: OperationName, schema: RS, json: unknown): z.output<RS> {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
  throw new ApiSchemaError(operation, path, issue?.message ?? 'invalid', parsed.error.issues.length);
}

/** Parses a response body as the named operation would (lossless numbers, then the schema). */
export function parseResponse<K extends OperationName>(operation: K, text: string): ResultOf<K> {
  let json: unknown;
  try {
    json = parseJsonLossless(text);
  } catch {
    throw new ApiSchemaError(operation, '(body)', 'response is not valid JSON');
  }
  const schema: z.ZodType<ResultOf<K>> = RESULTS[operation];
  return decodeResult(operation, schema, json);
}
