/**
 * The filters a trader sets on top of the score filters: words in the tweet
 * (allow and block lists) and the token's market figures at alert time. Words
 * are matched in the matcher's hot loop (matcher.ts); market figures are known
 * only after the operation-2 lookup of the tokens that matched, so they are
 * checked in plan.ts. Each rule has one definition here, used by both and by
 * the reason line (checks.ts).
 */
import type { AlertFilters } from '../store/subscriptions.ts';
import { parseDuration } from '../core/duration.ts';
import type { MarketAtTime } from './market.ts';

/**
 * A keyword as typed: a word or a `$TICKER`, letters, digits and `_`, case-insensitive.
 * Phrases are not supported: one word each keeps the hot loop to hash lookups.
 */
export const KEYWORD = /^\$?[\p{L}\p{N}_]{1,40}$/u;

/** Scripts written without spaces between words: a keyword in them is matched inside the text. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

export function normalizeKeyword(raw: string): string {
  return raw.trim().toLowerCase();
}

/** Is this keyword matched as a substring (unspaced scripts) rather than a whole word? */
export function isUnspaced(keyword: string): boolean {
  return UNSPACED.test(keyword);
}

/** A tweet's words, read once per tweet: each word, and each `$ticker` both with and without its `$`. */
export interface TweetWords {
  readonly words: ReadonlySet<string>;
  /** The lower-cased text, for keywords in unspaced scripts. */
  readonly text: string;
}

const WORD = /\$?[\p{L}\p{N}_]+/gu;

export function tweetWords(content: string): TweetWords {
  const text = content.toLowerCase();
  const words = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const w = m[0];
    words.add(w);
    if (w.startsWith('$') && w.length > 1) words.add(w.slice(1));
  }
  return { words, text };
}

/** `chadb` matches "$CHADB" and "chadb"; `$chadb` only the ticker "$CHADB". */
export function keywordHit(t: TweetWords, keyword: string): boolean {
  return isUnspaced(keyword) ? t.text.includes(keyword) : t.words.has(keyword);
}

/** The keywords of `list` the tweet mentions. */
export function keywordsIn(t: TweetWords, list: readonly string[] | undefined): string[] {
  return (list ?? []).filter((k) => keywordHit(t, k));
}

/**
 * Maximum token age as typed (`30m`, `6h`, `3d`, `2w`) in days. The spec does
 * not state the unit of operation 2's `token_age`; the bot reads it as days
 * (the token card does too), so the bound is stored in days under that
 * assumption. Undefined: not a duration.
 */
export function ageDays(text: string): number | undefined {
  const ms = parseDuration(text);
  return ms === undefined ? undefined : ms / 86_400_000;
}

/** Does this subscription filter on a market figure (so its matches wait for operation 2)? */
export function hasMarketFilters(f: AlertFilters): boolean {
  return (
    f.minMarketCap !== undefined ||
    f.maxMarketCap !== undefined ||
    f.minLiquidity !== undefined ||
    f.maxAgeDays !== undefined
  );
}

export type Verdict = 'pass' | 'fail' | 'unknown';

/** One market rule against its figure; `null` figures are unknown, never 0. */
export interface MarketRule {
  readonly figure: 'marketCap' | 'liquidity' | 'age';
  readonly bound: 'min' | 'max';
  readonly limit: number;
  readonly value: number | null;
  readonly verdict: Verdict;
}

export function marketRules(f: AlertFilters, m: MarketAtTime | null): MarketRule[] {
  const out: MarketRule[] = [];
  const put = (figure: MarketRule['figure'], bound: 'min' | 'max', limit: number | undefined, v: number | null) => {
    if (limit === undefined) return;
    const value = v !== null && Number.isFinite(v) ? v : null;
    const ok = value === null ? null : bound === 'min' ? value >= limit : value <= limit;
    out.push({ figure, bound, limit, value, verdict: ok === null ? 'unknown' : ok ? 'pass' : 'fail' });
  };
  put('marketCap', 'min', f.minMarketCap, m?.marketCap ?? null);
  put('marketCap', 'max', f.maxMarketCap, m?.marketCap ?? null);
  put('liquidity', 'min', f.minLiquidity, m?.liquidity ?? null);
  put('age', 'max', f.maxAgeDays, m?.ageDays ?? null);
  return out;
}

/** A failed rule drops the match; otherwise an unknown figure holds it. */
export function marketVerdict(f: AlertFilters, m: MarketAtTime | null): Verdict {
  const rules = marketRules(f, m);
  if (rules.some((r) => r.verdict === 'fail')) return 'fail';
  return rules.some((r) => r.verdict === 'unknown') ? 'unknown' : 'pass';
}
