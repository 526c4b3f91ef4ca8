/**
 * Market caps as of now for recorded calls (/calls, the digest's scorecard):
 * one operation-2 request per distinct token, in the order given (what the
 * reader sees first), at most `max` tokens so a command stays within its
 * upstream cap; the calls of tokens left over keep their last follow-up.
 */
import type { KolClient } from '../api/index.ts';
import { tokenKeyOf } from '../domain/chains.ts';
import { marketLookup, type MarketOptions, type TokenRef } from './market.ts';

export interface CurrentCaps {
  /** Token key -> market cap read now (a known token with a cap; 0 for one that fell to nothing: rugged). */
  readonly caps: ReadonlyMap<string, number>;
  /** Tokens the upstream answered for without them: no longer known there. */
  readonly gone: ReadonlySet<string>;
  /** Distinct tokens asked about (upstream requests) and distinct tokens in all. */
  readonly asked: number;
  /** Distinct tokens the upstream answered for (a cap, none, or gone): the reads actually made. */
  readonly read: number;
  readonly tokens: number;
}

export const keyOfToken = (t: TokenRef): string => tokenKeyOf(t.chain, t.address);

export async function currentCaps(
  api: KolClient,
  tokens: readonly TokenRef[],
  max: number,
  o: MarketOptions,
): Promise<CurrentCaps> {
  const distinct = new Map<string, TokenRef>();
  for (const t of tokens) if (!distinct.has(keyOfToken(t))) distinct.set(keyOfToken(t), t);
  const ask = [...distinct.values()].slice(0, Math.max(0, max));
  const { markets, gone } = ask.length
    ? await marketLookup(api, ask, o)
    : { markets: new Map(), gone: new Set<string>() };
  const caps = new Map<string, number>();
  // A cap of 0 is an answer, not a gap: the token is worth nothing now, a known loss.
  for (const [key, m] of markets) if (m.marketCap !== null && m.marketCap >= 0) caps.set(key, m.marketCap);
  return { caps, gone, asked: ask.length, read: markets.size + gone.size, tokens: distinct.size };
}
