/**
 * What a channel wants to hear about. The defaults are what "high score" means
 * when a channel says nothing (documented in docs/alerts.md next to these numbers),
 * and every filter can be written back as the exact `/subscribe` line that
 * recreates it, so settings can be copied between channels.
 */
import { formats } from '../i18n/format.ts';
import { languageOf, translator, type T } from '../i18n/index.ts';
import type { AlertFilters } from '../store/subscriptions.ts';
import { DEFAULT_FOLLOWUPS, followupValue } from './calls/record.ts';

export const DEFAULT_FILTERS: AlertFilters = Object.freeze({
  chains: [],
  minTokenScore: 70,
  minKolScore: 60,
  minFollowers: 10_000,
  labels: [],
  tweetTypes: [],
  allowKols: [],
  denyKols: [],
  cooldownMinutes: 60,
});

/** Option names of `/subscribe` (commands/subscribe.ts), as `toSubscribeLine` writes them. */
const FILTER_OPTION = {
  chains: 'chains',
  minTokenScore: 'token_score',
  minKolScore: 'kol_score',
  minFollowers: 'followers',
  labels: 'labels',
  tweetTypes: 'types',
  allowKols: 'only',
  denyKols: 'except',
  cooldownMinutes: 'cooldown',
  followups: 'followups',
  minMarketCap: 'min_mcap',
  maxMarketCap: 'max_mcap',
  minLiquidity: 'min_liquidity',
  maxAgeDays: 'max_age',
  keywords: 'keywords',
  blockKeywords: 'block',
} as const satisfies Record<keyof AlertFilters, string>;

/** An age bound in days as `/subscribe` reads it back: 30m, 6h, 3d. */
export function ageText(days: number): string {
  const minutes = Math.round(days * 1440);
  if (minutes % 1440 === 0) return `${minutes / 1440}d`;
  return minutes % 60 === 0 ? `${minutes / 60}h` : `${minutes}m`;
}

/** The `/subscribe` line that recreates these filters (defaults omitted). */
export function toSubscribeLine(f: AlertFilters): string {
  const parts = ['/subscribe'];
  const put = (k: keyof AlertFilters, v: string) => parts.push(`${FILTER_OPTION[k]}:${v}`);
  if (f.chains.length) put('chains', f.chains.join(','));
  if (f.minTokenScore !== DEFAULT_FILTERS.minTokenScore) put('minTokenScore', String(f.minTokenScore));
  if (f.minKolScore !== DEFAULT_FILTERS.minKolScore) put('minKolScore', String(f.minKolScore));
  if (f.minFollowers !== DEFAULT_FILTERS.minFollowers) put('minFollowers', String(f.minFollowers));
  if (f.labels.length) put('labels', f.labels.join(','));
  if (f.tweetTypes.length) put('tweetTypes', f.tweetTypes.join(','));
  if (f.allowKols.length) put('allowKols', f.allowKols.join(','));
  if (f.denyKols.length) put('denyKols', f.denyKols.join(','));
  if (f.cooldownMinutes !== DEFAULT_FILTERS.cooldownMinutes) put('cooldownMinutes', String(f.cooldownMinutes));
  if (f.followups && followupValue(f.followups) !== followupValue(DEFAULT_FOLLOWUPS))
    put('followups', followupValue(f.followups));
  if (f.minMarketCap !== undefined) put('minMarketCap', String(f.minMarketCap));
  if (f.maxMarketCap !== undefined) put('maxMarketCap', String(f.maxMarketCap));
  if (f.minLiquidity !== undefined) put('minLiquidity', String(f.minLiquidity));
  if (f.maxAgeDays !== undefined) put('maxAgeDays', ageText(f.maxAgeDays));
  if (f.keywords?.length) put('keywords', f.keywords.join(','));
  if (f.blockKeywords?.length) put('blockKeywords', f.blockKeywords.join(','));
  return parts.join(' ');
}

/**
 * Each `/subscribe` option's current value, as it would be typed (defaults
 * included): what the settings panel fills in when it asks for a new one.
 */
export function filterValues(f: AlertFilters): Record<(typeof FILTER_OPTION)[keyof AlertFilters], string> {
  const list = (xs: readonly string[] | undefined) => (xs?.length ? xs.join(',') : '');
  const num = (n: number | undefined) => (n === undefined ? '0' : String(n));
  return {
    chains: f.chains.join(','),
    token_score: String(f.minTokenScore),
    kol_score: String(f.minKolScore),
    followers: String(f.minFollowers),
    labels: list(f.labels),
    types: list(f.tweetTypes),
    only: list(f.allowKols),
    except: list(f.denyKols),
    cooldown: String(f.cooldownMinutes),
    followups: followupValue(f.followups ?? DEFAULT_FOLLOWUPS),
    min_mcap: num(f.minMarketCap),
    max_mcap: num(f.maxMarketCap),
    min_liquidity: num(f.minLiquidity),
    max_age: f.maxAgeDays === undefined ? 'off' : ageText(f.maxAgeDays),
    keywords: list(f.keywords),
    block: list(f.blockKeywords),
  };
}

/** The filters in words, one line each, for `/alerts`. */
export function describeFilters(f: AlertFilters, t: T = translator('en')): string[] {
  const { int } = formats(languageOf(t));
  const num = (x: number) => (Number.isInteger(x) ? int(x) : formats(languageOf(t)).score(x));
  const kols = f.allowKols.length
    ? t('filters.onlyKols', { names: `@${f.allowKols.join(', @')}` })
    : t('filters.anyone');
  return [
    t('filters.chains', { chains: f.chains.length ? f.chains.join(', ') : t('filters.all') }),
    t('filters.scores', { token: num(f.minTokenScore), kol: num(f.minKolScore), followers: int(f.minFollowers) }),
    t('filters.labels', {
      labels: f.labels.length ? f.labels.join(', ') : t('filters.any'),
      types: f.tweetTypes.length ? f.tweetTypes.join(', ') : t('filters.all'),
    }),
    `${t('filters.kols', { kols })}${f.denyKols.length ? t('filters.except', { names: `@${f.denyKols.join(', @')}` }) : ''}`,
    t('filters.cooldown', { minutes: int(f.cooldownMinutes) }),
    ...marketLines(f, t),
  ];
}

/** The market and keyword filters, only those set: most chats have none. */
function marketLines(f: AlertFilters, t: T): string[] {
  const { usd, age } = formats(languageOf(t));
  const out: string[] = [];
  const { minMarketCap: lo, maxMarketCap: hi } = f;
  if (lo !== undefined && hi !== undefined) out.push(t('filters.mcapRange', { min: usd(lo), max: usd(hi) }));
  else if (lo !== undefined) out.push(t('filters.mcapMin', { min: usd(lo) }));
  else if (hi !== undefined) out.push(t('filters.mcapMax', { max: usd(hi) }));
  if (f.minLiquidity !== undefined) out.push(t('filters.liquidity', { min: usd(f.minLiquidity) }));
  if (f.maxAgeDays !== undefined) out.push(t('filters.age', { max: age(f.maxAgeDays, 'days') }));
  if (f.keywords?.length) out.push(t('filters.keywords', { words: f.keywords.join(', ') }));
  if (f.blockKeywords?.length) out.push(t('filters.block', { words: f.blockKeywords.join(', ') }));
  return out;
}
