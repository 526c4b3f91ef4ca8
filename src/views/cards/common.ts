/** Small pieces every builder uses: links to X, short addresses, one-line excerpts. */
import { cut, singleLine } from '../text.ts';
import { MISSING } from '../../i18n/english.ts';
import type { T } from '../../i18n/index.ts';

export const xProfileUrl = (username: string): string => `https://x.com/${encodeURIComponent(username)}`;
/** Profile by numeric id, for a KOL known only by id. */
export const xUserIdUrl = (id: string): string => `https://x.com/i/user/${id}`;
export const xPostUrl = (username: string, twitterId: string): string =>
  `https://x.com/${encodeURIComponent(username || 'i')}/status/${twitterId}`;

/** `7xKXtg…3fQm`: enough to recognise an address in a table cell. */
export function shortAddress(address: string): string {
  return address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** Upstream text on one line, cut to `max` characters (renderers escape it). */
export function excerpt(text: string, max: number): string {
  return cut(singleLine(text), max);
}

/** `$SYM`, falling back to the name when a token has no symbol. */
export function ticker(symbol: string, name = ''): string {
  const s = symbol.trim();
  return s ? `$${s}` : name.trim() || '?';
}

/** A rate with the sample it rests on, for a table cell: "62% of 13"; an unknown rate stays as it is. */
export function rateOf(rate: string, n: string, t: T): string {
  return rate === MISSING ? rate : t('columns.rateOf', { rate, n });
}
