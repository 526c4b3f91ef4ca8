/**
 * What resolving a KOL learnt, in a home of its own so that the command
 * context (command.ts) can carry it without importing the resolver that fills it.
 */
import type { KolAccountRanked } from '../api/index.ts';
import { TtlCache } from '../api/cache.ts';

/** Username (lower case) -> Twitter id, for six hours; bounded, least recently used dropped first. */
export const ID_MEMO_TTL_MS = 6 * 3600_000;
const ID_MEMO_MAX = 10_000;

/**
 * What resolving a KOL learnt, kept per dispatcher (one per app, not per module):
 * a username's Twitter id, and the win-rate table's account record for an id
 * (names hardly change). Both expire on the context's clock.
 */
export interface KolMemo {
  readonly ids: TtlCache<string>;
  readonly accounts: TtlCache<KolAccountRanked>;
}

export function createKolMemo(): KolMemo {
  return { ids: new TtlCache(ID_MEMO_MAX), accounts: new TtlCache(ID_MEMO_MAX) };
}
