/**
 * The figures of a scorecard, from recorded calls alone: a call's multiple is
 * its latest market cap over the one at alert time (market cap stands in for
 * price: supply does not change), its peak the highest seen at any sample.
 */

/** What scoring reads of a recorded call (store/calls.ts `Call`): the floor knows no store. */
export interface Scorable {
  readonly at: number;
  /** At alert time; null when it could not be read. */
  readonly marketCap: number | null;
  readonly samples: readonly { readonly marketCap: number }[];
  readonly peak: number | null;
  /** Lower-case usernames of every KOL the alert names. */
  readonly kols: readonly string[];
}

/** A call "hit" when its peak reached this multiple of the market cap at alert time. */
export const HIT_MULTIPLE = 2;

/** A "best" call is named only when its peak rose at least this far: a best of 1x is no news. */
export const MOVED_MULTIPLE = 1.1;

/**
 * A rate over one or two tokens says nothing: 100% of 1 tops every window. Where a
 * rate is ranked, KOLs need at least this many tokens counted (`min_tokens:` changes
 * it where a command offers it). Five is where one lucky call stops deciding the
 * rate (one token moves it by 20 points at most), while most active KOLs still pass.
 */
export const DEFAULT_MIN_TOKENS = 5;

/**
 * `/calls by:kol` ranks a KOL after this many calls in the chat (`min_calls:` changes it).
 * A chat sees far fewer calls per KOL than the upstream counts tokens, so the bar is lower
 * than DEFAULT_MIN_TOKENS; three is the members' board's bar too (board.ts MIN_CALLS_RANKED),
 * and it keeps a single lucky 2x from topping the ranking at a 100% hit rate.
 */
export const MIN_KOL_CALLS = 3;

export interface Scored<C extends Scorable = Scorable> {
  readonly call: C;
  /** Latest market cap / market cap at alert time; null when either is unknown. */
  readonly now: number | null;
  readonly peak: number | null;
  readonly latestCap: number | null;
}

export interface Summary<C extends Scorable = Scorable> {
  readonly calls: number;
  /** Calls with a known multiple: the base of the hit rate and the median. */
  readonly scored: number;
  /** 0-1; null with no scored call. */
  readonly hitRate: number | null;
  readonly median: number | null;
  /** The call with the highest peak, when it rose at least MOVED_MULTIPLE; else null. */
  readonly best: Scored<C> | null;
}

/**
 * `current`: the market cap read just now, where the caller asked (/calls, the digest): it is
 * the call's "now" instead of its last follow-up sample, and one more figure for its peak.
 * A cap of 0 (rugged) is a known loss: now 0x, counted in rates and medians like any other.
 */
export function scoreCall<C extends Scorable>(call: C, o?: { readonly current?: number | null }): Scored<C> {
  const base = call.marketCap;
  // An object, not a bare number: `calls.map(scoreCall)` passes the index second.
  const current =
    typeof o === 'object' && o.current !== undefined && o.current !== null && o.current >= 0 ? o.current : null;
  // No sample yet: nothing is known since the alert, which is not the same as 1x.
  const latest = current ?? call.samples.at(-1)?.marketCap ?? null;
  if (base === null || !(base > 0) || latest === null) return { call, now: null, peak: null, latestCap: latest };
  const peak = Math.max(call.peak ?? base, base, latest);
  return { call, now: latest / base, peak: peak / base, latestCap: latest };
}

/** A token whose market cap fell to nothing: its "now" is 0x. */
export const isRugged = (s: Pick<Scored, 'now'>): boolean => s.now === 0;

export function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function summarise<C extends Scorable>(scored: readonly Scored<C>[]): Summary<C> {
  const known = scored.filter((s) => s.now !== null);
  const hits = known.filter((s) => s.peak! >= HIT_MULTIPLE).length;
  const top = known.reduce<Scored<C> | null>((b, s) => (b === null || s.peak! > b.peak! ? s : b), null);
  const best = top && top.peak! >= MOVED_MULTIPLE ? top : null;
  return {
    calls: scored.length,
    scored: known.length,
    hitRate: known.length ? hits / known.length : null,
    median: median(known.map((s) => s.now!)),
    best,
  };
}

export type CallSort = 'best' | 'recent' | 'worst';

export function sortCalls<C extends Scorable>(scored: readonly Scored<C>[], sort: CallSort): Scored<C>[] {
  const byPeak = (a: Scored<C>, b: Scored<C>) => (b.peak ?? -1) - (a.peak ?? -1) || b.call.at - a.call.at;
  const byNow = (a: Scored<C>, b: Scored<C>) => (a.now ?? Infinity) - (b.now ?? Infinity) || b.call.at - a.call.at;
  return [...scored].sort(sort === 'best' ? byPeak : sort === 'worst' ? byNow : (a, b) => b.call.at - a.call.at);
}

export interface KolRow<C extends Scorable = Scorable> {
  readonly kol: string;
  readonly summary: Summary<C>;
}

/** KOLs ranked by how their shills did here: hit rate, then median, then calls. A merged call counts for each of its KOLs. */
export function byKol<C extends Scorable>(scored: readonly Scored<C>[]): KolRow<C>[] {
  const groups = new Map<string, Scored<C>[]>();
  for (const s of scored) for (const k of s.call.kols) (groups.get(k) ?? groups.set(k, []).get(k)!).push(s);
  return [...groups]
    .map(([kol, xs]) => ({ kol, summary: summarise(xs) }))
    .sort(
      (a, b) =>
        (b.summary.hitRate ?? -1) - (a.summary.hitRate ?? -1) ||
        (b.summary.median ?? -1) - (a.summary.median ?? -1) ||
        b.summary.calls - a.summary.calls ||
        a.kol.localeCompare(b.kol),
    );
}
