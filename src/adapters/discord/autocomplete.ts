/**
 * KOL suggestions while a user types. Discord drops an autocomplete answer
 * after about 3 s, so the upstream gets a short budget, recent queries are
 * kept for a minute (people type, delete and retype), and any failure answers
 * an empty list: the user can still type a username by hand.
 */
import type { KolClient } from '../../api/index.ts';

export interface KolChoice {
  name: string;
  value: string;
}

export interface KolSuggestOptions {
  readonly api: KolClient;
  /** Upstream budget per lookup; default 1.5 s. */
  readonly budgetMs?: number;
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

const NAME_MAX = 100;
const VALUE_MAX = 100;
const CHOICES_MAX = 25;

function choiceName(username: string, displayName: string): string {
  const name =
    displayName.trim() && displayName.trim() !== username ? `@${username} — ${displayName.trim()}` : `@${username}`;
  return name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 1)}…`;
}

/** Normalises what was typed: the leading @ and case do not change the answer. */
function queryKey(typed: string): string {
  return typed.trim().replace(/^@+/, '').toLowerCase().slice(0, 50);
}

export function createKolSuggest(o: KolSuggestOptions): (typed: string, signal?: AbortSignal) => Promise<KolChoice[]> {
  const budgetMs = o.budgetMs ?? 1500;
  const ttlMs = o.ttlMs ?? 60_000;
  const maxEntries = o.maxEntries ?? 500;
  const now = o.now ?? Date.now;
  const cache = new Map<string, { at: number; choices: KolChoice[] }>();

  return async (typed, signal) => {
    const key = queryKey(typed);
    const hit = cache.get(key);
    if (hit && now() - hit.at < ttlMs) return hit.choices;
    try {
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
      cache.delete(key);
      cache.set(key, { at: now(), choices });
      // Map keeps insertion order: the first key is the oldest.
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      return choices;
    } catch {
      return [];
    }
  };
}
