/**
 * What an inline query (`@bot <text>` in any chat) finds: tokens by address,
 * link, $SYMBOL or name, or KOLs by @handle or x.com link. Platform-neutral;
 * the Telegram adapter turns the results into articles.
 */
import type { KolClient, KolTableItem } from '../api/index.ts';
import { findTokenRefs } from './detect.ts';
import { findOnChains, searchTerm, searchTokens, type FoundToken } from './lookup.ts';
import { argsFromQuote } from './quote.ts';

export const INLINE_MAX = 10;

export type InlineFound =
  | { readonly kind: 'token'; readonly token: FoundToken }
  | { readonly kind: 'kol'; readonly kol: KolTableItem };

type Call = { signal: AbortSignal; budgetMs: number };

export async function inlineLookup(api: KolClient, query: string, call: Call): Promise<InlineFound[]> {
  const q = query.trim();
  const refs = findTokenRefs(q, INLINE_MAX);
  if (refs.length) {
    const lists = await Promise.all(refs.map((r) => findOnChains(api, r.address, r.chains, call)));
    return lists
      .flat()
      .slice(0, INLINE_MAX)
      .map((token) => ({ kind: 'token', token }));
  }
  if (q.startsWith('@') || /(?:x|twitter)\.com\//i.test(q)) {
    let handle: string | undefined;
    try {
      handle = argsFromQuote('kol', q)[0]?.replace(/^@/, '');
    } catch {
      handle = undefined;
    }
    if (!handle) return [];
    const table = await api.getKolTable({ search: handle, limit: INLINE_MAX }, call);
    const lower = handle.toLowerCase();
    // The exact username first; the search also matches display names.
    const rows = [...table.items].sort(
      (a, b) => Number(b.kol.toLowerCase() === lower) - Number(a.kol.toLowerCase() === lower),
    );
    return rows.slice(0, INLINE_MAX).map((kol) => ({ kind: 'kol', kol }));
  }
  if (!searchTerm(q)) return [];
  const { ranked } = await searchTokens(api, q, undefined, call);
  return ranked.slice(0, INLINE_MAX).map((token) => ({ kind: 'token', token }));
}
