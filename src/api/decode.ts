import { z } from 'zod';
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

/** A list row that did not parse: where, and why. */
export interface UnreadableRow {
  readonly index: number;
  readonly path: string;
  readonly message: string;
}

const pathOf = (p: readonly PropertyKey[]) => (p.length > 0 ? p.map(String).join('.') : '(root)');

/**
 * Checks parsed JSON against a result schema; the first mismatch names the operation and field path.
 * A list answer (an envelope with `items`) whose envelope parses keeps the rows that parse:
 * the result's `unreadable` counts the others and `onUnreadable` hears where each failed.
 * A single-item answer, a broken envelope or a list with no readable row still fails whole.
 */
export function decodeResult<RS extends z.ZodType>(
  operation: OperationName,
  schema: RS,
  json: unknown,
  onUnreadable?: (rows: UnreadableRow[]) => void,
): z.output<RS> {
  const parsed = schema.safeParse(json);
  if (parsed.success) {
    // `unreadable` is the client's own note; an upstream field of that name is not believed.
    if (parsed.data && typeof parsed.data === 'object' && 'unreadable' in parsed.data)
      delete (parsed.data as { unreadable?: number }).unreadable;
    return parsed.data;
  }
  const partial = readableRows(schema, json);
  if (partial && partial.bad.length > 0 && partial.bad.length < partial.total) {
    const envelope = schema.safeParse({ ...(json as object), items: partial.good });
    if (envelope.success) {
      onUnreadable?.(partial.bad);
      return Object.assign(envelope.data as object, { unreadable: partial.bad.length }) as z.output<RS>;
    }
  }
  const issue = parsed.error.issues[0];
  throw new ApiSchemaError(
    operation,
    pathOf(issue?.path ?? []),
    issue?.message ?? 'invalid',
    parsed.error.issues.length,
  );
}

function readableRows(
  schema: z.ZodType,
  json: unknown,
): { good: unknown[]; bad: UnreadableRow[]; total: number } | undefined {
  if (
    !(schema instanceof z.ZodObject) ||
    !json ||
    typeof json !== 'object' ||
    !Array.isArray((json as { items?: unknown }).items)
  )
    return undefined;
  const list = schema.shape['items'];
  if (!(list instanceof z.ZodArray)) return undefined;
  const row = list.element as z.ZodType;
  const items = (json as { items: unknown[] }).items;
  const good: unknown[] = [];
  const bad: UnreadableRow[] = [];
  items.forEach((item, index) => {
    const r = row.safeParse(item);
    if (r.success) good.push(item);
    else
      bad.push({
        index,
        path: `items.${index}.${pathOf(r.error.issues[0]?.path ?? [])}`,
        message: r.error.issues[0]?.message ?? 'invalid',
      });
  });
  return { good, bad, total: items.length };
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
