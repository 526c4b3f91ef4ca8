// Path -> operation. Path parameters arrive percent-encoded (Move addresses contain "::").
import type { Ctx } from './ctx.ts';
import { HttpError, type Params } from './params.ts';
import { kolMindmap, kolProjects, kolScoreOp, kolTable } from './routes-kol.ts';
import { tokenAnalytics, tokenMindmap } from './routes-token.ts';
import { tweets, tweetsByToken } from './routes-tweet.ts';
import { kolTokens, winRateTable } from './routes-winrate.ts';

/** Operation names in spec order 4.1 .. 4.10. */
export const OPERATIONS = [
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
export type Operation = (typeof OPERATIONS)[number];

export interface Route {
  operation: Operation;
  run: (ctx: Ctx, p: Params) => unknown;
}

function decode(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new HttpError(400, 'malformed percent-encoding in path');
  }
}

/**
 * Matches a raw path. Returns undefined for unknown paths. Decoding errors surface when the
 * route runs, so the request is still attributed to its operation.
 */
export function matchRoute(rawPath: string): Route | undefined {
  const s = rawPath.split('/');
  if (s[0] !== '' || s[1] !== 'v2') return undefined;
  const [, , a, b, c, d, ...rest] = s;
  if (rest.length > 0) return undefined;
  const arg = (x: string | undefined) => decode(x ?? '');
  if (a === 'tokens') {
    if (b === 'analytics' && c === undefined) return { operation: 'tokenAnalytics', run: tokenAnalytics };
    if (b && c && d === 'mindmap')
      return { operation: 'tokenMindmap', run: (ctx, p) => tokenMindmap(ctx, p, arg(b), arg(c)) };
    return undefined;
  }
  if (a === 'x-users' && b && d === undefined) {
    if (c === undefined) {
      if (b === 'projects') return { operation: 'kolProjects', run: kolProjects };
      if (b === 'win-rate') return { operation: 'kolWinRates', run: winRateTable };
      if (b === 'analytics') return { operation: 'kolTable', run: kolTable };
      return undefined;
    }
    if (c === 'tokens') return { operation: 'kolTokens', run: (ctx, p) => kolTokens(ctx, p, arg(b)) };
    if (c === 'score') return { operation: 'kolScore', run: (ctx, p) => kolScoreOp(ctx, p, arg(b)) };
    if (c === 'mindmap') return { operation: 'kolMindmap', run: (ctx, p) => kolMindmap(ctx, p, arg(b)) };
    return undefined;
  }
  if (a === 'tweets') {
    if (b === undefined) return { operation: 'tweets', run: tweets };
    if (b === 'token' && c && d && rest.length === 0)
      return { operation: 'tweetsByToken', run: (ctx, p) => tweetsByToken(ctx, p, arg(c), arg(d)) };
  }
  return undefined;
}

/** Accepts an operation name, its number ("8") or its section ("4.8"). */
export function operationName(ref: string): Operation | undefined {
  if ((OPERATIONS as readonly string[]).includes(ref)) return ref as Operation;
  const m = /^(?:4\.)?(\d{1,2})$/.exec(ref.trim());
  return m ? OPERATIONS[Number(m[1]) - 1] : undefined;
}
