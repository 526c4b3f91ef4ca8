/**
 * What an inline query (`@bot <text>` in any chat) finds: tokens by address,
 * link, $SYMBOL or name, or KOLs by @handle or x.com link. Platform-neutral;
 * the Telegram adapter turns the results into articles.
 *
 * A query is planned before it runs, so its upstream cost is known (and
 * charged) first: the addresses looked up are the first that fit in
 * MAX_REQUESTS_PER_LOOKUP, a name is one request per chain, a handle one.
 */
import type { KolClient, KolTableItem } from '../api/index.ts';
import { refsCost, refsWithin, SEARCH_REQUESTS } from './budget.ts';
import { findTokenRefs } from './detect.ts';
import { findOnChains, searchTerm, searchTokens, type FoundToken } from './lookup.ts';
import { argsFromQuote } from './quote.ts';

export const INLINE_MAX = 10;

export type InlineFound =
  | { readonly kind: 'token'; readonly token: FoundToken }
  | { readonly kind: 'kol'; readonly kol: KolTableItem };

type Call = { signal: AbortSignal; budgetMs: number };

export interface InlinePlan {
  /** Upstream requests run() makes at most (cache hits aside). */
  readonly requests: number;
  run(api: KolClient, call: Call): Promise<InlineFound[]>;
}

function handleOf(q: string): string | undefined {
  try {
    return argsFromQuote('kol', q)[0]?.replace(/^@/, '') || undefined;
  } catch {
    return undefined;
  }
}

/** The lookup a query asks for, or undefined when there is nothing to look up. */
export function planInline(query: string): InlinePlan | undefined {
  const q = query.trim();
  const refs = refsWithin(findTokenRefs(q, INLINE_MAX));
  if (refs.length) {
    return {
      requests: refsCost(refs),
      async run(api, call) {
        const lists = await Promise.all(refs.map((r) => findOnChains(api, r.address, r.chains, call)));
        return lists
          .flat()
          .slice(0, INLINE_MAX)
          .map((token) => ({ kind: 'token', token }));
      },
    };
  }
  if (q.startsWith('@') || /(?:x|twitter)\.com\//i.test(q)) {
    const handle = handleOf(q);
    if (!handle) return undefined;
    return {
      requests: 1,
      async run(api, call) {
        const table = await api.getKolTable({ search: handle, limit: INLINE_MAX }, call);
        const lower = handle.toLowerCase();
        // The exact username first; the search also matches display names.
        const rows = [...table.items].sort(
          (a, b) => Number(b.kol.toLowerCase() === lower) - Number(a.kol.toLowerCase() === lower),
        );
        return rows.slice(0, INLINE_MAX).map((kol) => ({ kind: 'kol', kol }));
      },
    };
  }
  if (!searchTerm(q)) return undefined;
  return {
    requests: SEARCH_REQUESTS,
    async run(api, call) {
      const { ranked } = await searchTokens(api, q, undefined, call);
      return ranked.slice(0, INLINE_MAX).map((token) => ({ kind: 'token', token }));
    },
  };
}
