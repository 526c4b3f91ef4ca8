/**
 * Finding tokens for people who paste or remember rather than type
 * `/token <chain> <address>`: an address looked up on the chains it could
 * belong to, and a name or $SYMBOL searched with operation 2's `tokenAddress`
 * (address or name, partial). Shared by /token, the automatic cards, the
 * inline mode and autocomplete.
 */
import type { KolClient, TokenAnalyticsItem } from '../api/index.ts';
import { CHAINS, type ChainId, sameAddress } from '../domain/chains.ts';
import { findTokenRefs } from './detect.ts';

export interface FoundToken {
  readonly chain: ChainId;
  readonly item: TokenAnalyticsItem;
}

type Call = { signal: AbortSignal; budgetMs: number };

/** The chains among `chains` whose analytics list `address`, each with its item. Several chains are asked at once. */
export async function findOnChains(
  api: KolClient,
  address: string,
  chains: readonly ChainId[],
  call: Call,
): Promise<FoundToken[]> {
  const hits = await Promise.all(
    chains.map(async (chain) => {
      const res = await api.getTokenAnalytics({ tokenAddress: address, chainId: chain, limit: 20 }, call);
      const item = res.items.find((i) => sameAddress(chain, i.token.address, address));
      return item ? { chain, item } : undefined;
    }),
  );
  return hits.filter((h): h is FoundToken => h !== undefined);
}

/** Candidates asked of each chain: enough to find an exact symbol among partial name matches. */
const PER_CHAIN = 10;

export interface SearchResult {
  /** Tokens whose symbol or name is exactly the query (case aside). */
  readonly exact: readonly FoundToken[];
  /** Every candidate, best first. */
  readonly ranked: readonly FoundToken[];
}

/** `$PEPE`, `pepe` -> `pepe`; undefined when nothing searchable is left. */
export function searchTerm(query: string): string | undefined {
  const t = query.trim().replace(/^\$/, '').trim();
  return t.length >= 2 && t.length <= 64 ? t : undefined;
}

/**
 * Name or symbol search across `chain` (or every chain, in parallel: the items
 * do not say their chain, so each chain is asked on its own).
 *
 * Ranking: an exact symbol match first (people type tickers), then an exact
 * name, then a symbol or name that starts with the query, and within each
 * group the most mentioned (what the chat is talking about), then the largest
 * market cap (the real token over its copycats).
 */
export async function searchTokens(
  api: KolClient,
  query: string,
  chain: ChainId | undefined,
  call: Call,
): Promise<SearchResult> {
  const term = searchTerm(query);
  if (!term) return { exact: [], ranked: [] };
  const chains = chain ? [chain] : [...CHAINS];
  const lists = await Promise.all(
    chains.map(async (c) =>
      (
        await api.getTokenAnalytics(
          { tokenAddress: term, chainId: c, limit: PER_CHAIN, sortField: 'mention', sortOrder: 'DESC' },
          call,
        )
      ).items.map((item) => ({ chain: c, item })),
    ),
  );
  const lower = term.toLowerCase();
  const rank = (f: FoundToken): number => {
    const sym = f.item.token.symbol.toLowerCase();
    const name = f.item.token.name.toLowerCase();
    if (sym === lower) return 0;
    if (name === lower) return 1;
    if (sym.startsWith(lower) || name.startsWith(lower)) return 2;
    return 3;
  };
  const ranked = lists
    .flat()
    .sort(
      (a, b) =>
        rank(a) - rank(b) || Number(b.item.mention) - Number(a.item.mention) || b.item.marketcap - a.item.marketcap,
    );
  return { exact: ranked.filter((f) => rank(f) <= 1), ranked };
}

/**
 * Tokens to suggest as the user types a name or symbol (autocomplete), best
 * first; views/cards/tokenChoices.ts labels them. An address or a link typed in
 * full needs no suggestion. A fault rejects, so the caller does not cache it.
 */
export async function suggestTokens(api: KolClient, typed: string, call: Call): Promise<readonly FoundToken[]> {
  if (!searchTerm(typed) || findTokenRefsCount(typed) > 0) return [];
  return (await searchTokens(api, typed, undefined, call)).ranked;
}

function findTokenRefsCount(text: string): number {
  return findTokenRefs(text, 1).length;
}
