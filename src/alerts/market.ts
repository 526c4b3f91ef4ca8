/**
 * A token's market cap and liquidity at alert time, from token analytics
 * (operation 2, section 2.3): the feed's tweet token (2.9) carries neither.
 * One request per token per batch, shared by every destination of the batch;
 * a token that cannot be found or a failed request leaves it unknown ("-").
 * Also meant for call tracking (market cap when a KOL called a token).
 */
import type { Logger } from 'pino';
import type { ChainId } from '../domain/chains.ts';
import type { KolClient } from '../api/index.ts';
import { tokenKeyOf } from '../domain/chains.ts';

export interface MarketAtTime {
  readonly marketCap: number | null;
  readonly liquidity: number | null;
  /** Operation 2's token_age, read as days (its unit is not stated; see rules.ts). Absent: unknown. */
  readonly ageDays?: number | null;
}

export interface TokenRef {
  readonly chain: ChainId;
  readonly address: string;
}

/** Parallel op-2 requests of one batch. */
const CONCURRENCY = 4;

/**
 * Market data per token key (`chain:address`, see tokenKeyOf); tokens are deduplicated first.
 * `hedgeAfterMs`: a request not answered by then gets a twin, and the first answer wins (the
 * other is aborted). A new alert waits for this request, and an API's slowest answers (its
 * p99, often several times its median) would otherwise be every alert's delay; the twin
 * costs one extra request for the slowest few only.
 */
export async function marketNow(
  api: KolClient,
  tokens: Iterable<TokenRef>,
  o: MarketOptions,
): Promise<Map<string, MarketAtTime>> {
  return (await marketLookup(api, tokens, o)).markets;
}

export interface MarketOptions {
  readonly budgetMs: number;
  readonly log: Logger;
  readonly signal?: AbortSignal;
  readonly hedgeAfterMs?: number;
  /** 'use': a command's read may take the client's cached answer (15 s); alerts and follow-ups bypass it. */
  readonly cache?: 'use' | 'bypass';
}

/**
 * marketNow, also saying which tokens the upstream answered for without them: no
 * longer known there (delisted or wrong), not the same as a failed request.
 */
export async function marketLookup(
  api: KolClient,
  tokens: Iterable<TokenRef>,
  o: MarketOptions,
): Promise<{ markets: Map<string, MarketAtTime>; gone: Set<string> }> {
  const unique = new Map<string, TokenRef>();
  for (const t of tokens) unique.set(tokenKeyOf(t.chain, t.address), t);
  const out = new Map<string, MarketAtTime>();
  const gone = new Set<string>();
  const queue = [...unique];
  const work = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [key, t] = next;
      try {
        // tokenAddress is a partial, case-insensitive search (4.2): keep the exact address only.
        const ask = (signal: AbortSignal) =>
          api.getTokenAnalytics(
            { tokenAddress: t.address, chainId: t.chain, limit: 5 },
            { budgetMs: o.budgetMs, cache: o.cache ?? 'bypass', share: false, signal },
          );
        const r = await hedged(ask, o.hedgeAfterMs, o.signal);
        const hit =
          r.items.find((i) => i.token.address === t.address) ??
          r.items.find((i) => i.token.address.toLowerCase() === t.address.toLowerCase());
        if (hit) out.set(key, { marketCap: hit.marketcap, liquidity: hit.liquidity, ageDays: hit.token_age });
        else gone.add(key);
      } catch (err) {
        o.log.debug({ token: key, err }, 'market lookup failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, work));
  return { markets: out, gone };
}

/** The first answer of `ask`, asked a second time if the first has not answered after `afterMs`. */
async function hedged<T>(
  ask: (signal: AbortSignal) => Promise<T>,
  afterMs: number | undefined,
  outer: AbortSignal | undefined,
): Promise<T> {
  const ctls = [new AbortController()];
  const signalOf = (c: AbortController) => (outer ? AbortSignal.any([outer, c.signal]) : c.signal);
  const first = ask(signalOf(ctls[0]!));
  if (afterMs === undefined) return first;
  let timer: NodeJS.Timeout | undefined;
  try {
    // The first success wins; it fails only when every request asked has failed.
    return await new Promise<T>((resolve, reject) => {
      let pending = 1;
      let failure: unknown;
      const settle = (p: Promise<T>) =>
        p.then(resolve, (e: unknown) => {
          failure ??= e;
          if (--pending === 0) reject(failure);
        });
      settle(first);
      timer = setTimeout(() => {
        pending++;
        const c = new AbortController();
        ctls.push(c);
        settle(ask(signalOf(c)));
      }, afterMs);
    });
  } finally {
    clearTimeout(timer);
    for (const c of ctls) c.abort();
  }
}
