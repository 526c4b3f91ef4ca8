/**
 * Suggestions while a user types (KOLs, tokens). Discord sends an
 * autocomplete event per keystroke pause and drops an answer after about 3 s,
 * so the upstream gets a short budget, recent queries are kept for a minute
 * (people type, delete and retype; a cached answer is free), each miss is
 * charged to the typist's lookup budget (a name search asks every chain), and
 * any failure or refusal answers an empty list: the user can still type the
 * value by hand.
 */
import type { KolClient } from '../../api/index.ts';
import { SEARCH_REQUESTS, type LookupBudget } from '../../core/budget.ts';
import { findTokenRefs } from '../../core/detect.ts';
import { searchTerm, suggestTokens } from '../../core/lookup.ts';
import { tokenChoices } from '../../views/cards/tokenChoices.ts';

export interface KolChoice {
  name: string;
  value: string;
}

export interface SuggestOptions {
  readonly api: KolClient;
  /** Upstream budget per lookup; default 1.5 s. */
  readonly budgetMs?: number;
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
  /** Charged per upstream request of a miss; unlimited when absent. */
  readonly lookups?: LookupBudget;
}

/** Who is typing (see senderKey), and when to give up. */
export type SuggestCall = { readonly signal?: AbortSignal; readonly sender?: string };
export type Suggest = (typed: string, call?: SuggestCall) => Promise<KolChoice[]>;

const NAME_MAX = 100;
const VALUE_MAX = 100;
const CHOICES_MAX = 25;

function choiceName(username: string, displayName: string): string {
  const name =
    displayName.trim() && displayName.trim() !== username ? `@${username} — ${displayName.trim()}` : `@${username}`;
  return name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 1)}…`;
}

/**
 * The cache and the charge around one kind of lookup. `cost` is what a miss
 * asks of the upstream (0: nothing, so nothing is charged); `fetch` may throw.
 */
function cachedSuggest(
  o: SuggestOptions,
  key: (typed: string) => string,
  cost: (key: string) => number,
  fetch: (key: string, signal: AbortSignal | undefined, budgetMs: number) => Promise<KolChoice[]>,
): Suggest {
  const budgetMs = o.budgetMs ?? 1500;
  const ttlMs = o.ttlMs ?? 60_000;
  const maxEntries = o.maxEntries ?? 500;
  const now = o.now ?? Date.now;
  const cache = new Map<string, { at: number; choices: KolChoice[] }>();
  return async (typed, call = {}) => {
    const k = key(typed);
    const hit = cache.get(k);
    if (hit && now() - hit.at < ttlMs) return hit.choices;
    const requests = cost(k);
    if (requests > 0 && o.lookups && call.sender && o.lookups.spend(call.sender, requests, now()).waitMs > 0) return [];
    try {
      const choices = await fetch(k, call.signal, budgetMs);
      cache.delete(k);
      cache.set(k, { at: now(), choices });
      // Map keeps insertion order: the first key is the oldest.
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      return choices;
    } catch {
      return [];
    }
  };
}

/** KOLs by username or display name; the leading @ and case do not change the answer. */
export function createKolSuggest(o: SuggestOptions): Suggest {
  return cachedSuggest(
    o,
    (typed) => typed.trim().replace(/^@+/, '').toLowerCase().slice(0, 50),
    () => 1,
    async (key, signal, budgetMs) => {
      // An empty box shows the top KOLs by score: a useful start, and the same answer for everyone.
      const params = key ? { search: key, limit: 10 } : { limit: 10 };
      const res = await o.api.getKolTable(params, { budgetMs, ...(signal ? { signal } : {}) });
      const seen = new Set<string>();
      const choices: KolChoice[] = [];
      for (const item of res.items) {
        const username = item.kol.replace(/^@+/, '');
        if (!username || username.length > VALUE_MAX || seen.has(username.toLowerCase())) continue;
        seen.add(username.toLowerCase());
        choices.push({ name: choiceName(username, item.display_name), value: username });
        if (choices.length === CHOICES_MAX) break;
      }
      return choices;
    },
  );
}

/** Tokens by name or $SYMBOL (every chain searched); an address or link typed in full costs nothing. */
export function createTokenSuggest(o: SuggestOptions): Suggest {
  return cachedSuggest(
    o,
    // Case kept: a base58 address is case-sensitive, and must be seen as one (it costs nothing).
    (typed) => typed.trim().slice(0, 64),
    (key) => (searchTerm(key) && !findTokenRefs(key, 1).length ? SEARCH_REQUESTS : 0),
    async (key, signal, budgetMs) =>
      tokenChoices(await suggestTokens(o.api, key, { signal: signal ?? new AbortController().signal, budgetMs })),
  );
}
