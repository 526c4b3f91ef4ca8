/**
 * What lookups outside commands may cost the upstream. Inline queries,
 * autocomplete, Discord's "Token card" and automatic cards draw on one budget
 * per sender, charged per upstream request (not per query: ten addresses on
 * two chains are twenty requests), and each lookup is bounded on its own. The
 * docs/security.md quotes these numbers; the cost tests hold the code
 * to them.
 */
import type { Platform } from './command.ts';
import type { TokenRef } from './detect.ts';
import { CHAINS } from '../domain/chains.ts';
import { createRateLimiter, type Verdict } from './ratelimit.ts';

/** Upstream requests one sender may cause per minute through lookups (inline, autocomplete, cards) together. */
export const LOOKUP_BUDGET_PER_MINUTE = 60;
/** Upstream requests one lookup may make: a name searched on every chain, or the first addresses of a paste. */
export const MAX_REQUESTS_PER_LOOKUP = CHAINS.length + 1;
/** A name or $SYMBOL search asks each chain once. */
export const SEARCH_REQUESTS = CHAINS.length;

export interface LookupBudget {
  /** Charges `cost` upstream requests to `sender` if they fit in its minute; a refusal charges nothing. */
  spend(sender: string, cost: number, now?: number): Verdict;
}

export function createLookupBudget(o: { perMinute?: number; now?: () => number } = {}): LookupBudget {
  const limiter = createRateLimiter(o.perMinute ?? LOOKUP_BUDGET_PER_MINUTE, 60_000);
  const clock = o.now ?? Date.now;
  return { spend: (sender, cost, now = clock()) => limiter.take(sender, now, cost) };
}

/**
 * Who pays: the user, or the chat they post as (Telegram's anonymous admins and
 * posts as a channel share one user account, so each such chat is its own sender).
 */
export function senderKey(platform: Platform, userId: string, senderChatId?: string): string {
  return senderChatId !== undefined ? `${platform}:chat:${senderChatId}` : `${platform}:${userId}`;
}

/** Upstream requests looking up these references costs: one per chain each could be on. */
export function refsCost(refs: readonly TokenRef[]): number {
  return refs.reduce((n, r) => n + r.chains.length, 0);
}

/** The first references whose lookups fit in `maxRequests` (always at least the first, if it fits alone). */
export function refsWithin(refs: readonly TokenRef[], maxRequests = MAX_REQUESTS_PER_LOOKUP): TokenRef[] {
  const out: TokenRef[] = [];
  let cost = 0;
  for (const r of refs) {
    if (cost + r.chains.length > maxRequests) break;
    cost += r.chains.length;
    out.push(r);
  }
  return out;
}

/**
 * Client calls one command may make. The costliest make up to fifteen (`/tokens`
 * of 25 rows telling apart the chains of repeated symbols, `/kol <id>` finding
 * the name); a call past the cap rejects, which those extras already survive
 * (the row shows its candidate chains), so one request never costs fifty.
 */
export const MAX_REQUESTS_PER_COMMAND = 16;

/** A command asked the upstream more than MAX_REQUESTS_PER_COMMAND times: a bug, answered as a failure. */
export class CostExceededError extends Error {
  override name = 'CostExceededError';
}

/** The client for one command: calls past `max` reject without reaching the upstream. */
export function cappedApi<A extends object>(api: A, max = MAX_REQUESTS_PER_COMMAND): A {
  let calls = 0;
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || !prop.startsWith('get')) return value;
      return (...args: unknown[]) => {
        if (++calls > max) return Promise.reject(new CostExceededError(`more than ${max} upstream calls`));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
