/**
 * The leaderboard of members' calls, from recorded calls alone. A call's peak
 * multiple is the highest market cap sampled (follow-ups and the watcher's
 * sightings) over the one at the call; a call just made stands at 1x. Every call
 * of the period counts, so a member cannot hide a call by calling often.
 */
import { HIT_MULTIPLE, median } from './score.ts';

export interface BoardCall {
  readonly id: string;
  readonly at: number;
  readonly marketCap: number | null;
  readonly peak: number | null;
  readonly samples: readonly { readonly marketCap: number }[];
  readonly member?: { readonly id: string; readonly name: string };
  readonly token: { readonly symbol: string; readonly name: string };
}

/** Calls a member needs in the period to be ranked: below this, one lucky call decides the rate. */
export const MIN_CALLS_RANKED = 3;

export type BoardSort = 'hit' | 'median' | 'best' | 'calls';

export interface ScoredCall<C extends BoardCall = BoardCall> {
  readonly call: C;
  /** Highest sampled market cap over the one at the call (1 before any sample). */
  readonly peak: number;
  /** Latest sampled market cap over the one at the call; null before the first sample. */
  readonly now: number | null;
}

export interface CallerRow<C extends BoardCall = BoardCall> {
  readonly id: string;
  /** The name of their latest call. */
  readonly name: string;
  readonly calls: number;
  readonly hits: number;
  /** 0-1. */
  readonly hitRate: number;
  readonly medianPeak: number;
  readonly best: ScoredCall<C>;
  /** The call that did worst: lowest latest multiple (its peak where none was sampled). */
  readonly worst: ScoredCall<C>;
}

export function scoreBoardCall<C extends BoardCall>(c: C): ScoredCall<C> | undefined {
  const base = c.marketCap;
  if (base === null || !(base > 0)) return undefined;
  const latest = c.samples.at(-1)?.marketCap;
  const top = Math.max(base, c.peak ?? base, ...c.samples.map((s) => s.marketCap));
  return { call: c, peak: top / base, now: latest === undefined ? null : latest / base };
}

/** One member's figures over their calls (at least one, each with a market cap at the call). */
export function callerRow<C extends BoardCall>(scored: readonly ScoredCall<C>[]): CallerRow<C> {
  const last = scored.reduce((a, b) => (b.call.at > a.call.at ? b : a));
  const hits = scored.filter((s) => s.peak >= HIT_MULTIPLE).length;
  const best = scored.reduce((a, b) => (b.peak > a.peak ? b : a));
  const worst = scored.reduce((a, b) => ((b.now ?? b.peak) < (a.now ?? a.peak) ? b : a));
  return {
    id: last.call.member?.id ?? '',
    name: last.call.member?.name ?? '',
    calls: scored.length,
    hits,
    hitRate: hits / scored.length,
    medianPeak: median(scored.map((s) => s.peak))!,
    best,
    worst,
  };
}

/** Members with at least `min` calls, ranked by `sort` (ties: hit rate, median peak, calls, name). */
export function rankCallers<C extends BoardCall>(
  calls: readonly C[],
  sort: BoardSort = 'hit',
  min = MIN_CALLS_RANKED,
): CallerRow<C>[] {
  const groups = new Map<string, ScoredCall<C>[]>();
  for (const c of calls) {
    const s = scoreBoardCall(c);
    if (!s || !c.member) continue;
    (groups.get(c.member.id) ?? groups.set(c.member.id, []).get(c.member.id)!).push(s);
  }
  const rows = [...groups.values()].filter((g) => g.length >= min).map(callerRow);
  const key: Record<BoardSort, (r: CallerRow<C>) => number> = {
    hit: (r) => r.hitRate,
    median: (r) => r.medianPeak,
    best: (r) => r.best.peak,
    calls: (r) => r.calls,
  };
  return rows.sort(
    (a, b) =>
      key[sort](b) - key[sort](a) ||
      b.hitRate - a.hitRate ||
      b.medianPeak - a.medianPeak ||
      b.calls - a.calls ||
      a.name.localeCompare(b.name),
  );
}
