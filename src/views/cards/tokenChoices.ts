/**
 * Autocomplete choices for /token: each value is "<chain> <address>", which
 * /token reads as both, each name the token at a glance. Discord's limits apply
 * (the only platform with autocomplete): 25 choices, names and values 1-100
 * characters.
 */
import type { FoundToken } from '../../core/lookup.ts';
import { usd } from '../../i18n/english.ts';

export interface TokenChoice {
  readonly name: string;
  readonly value: string;
}

/** Discord's limits: 25 choices, names and values 1-100 characters. */
const CHOICES_MAX = 25;
const CHOICE_MAX = 100;

export function tokenChoices(found: readonly FoundToken[]): TokenChoice[] {
  const out: TokenChoice[] = [];
  for (const f of found) {
    const t = f.item.token;
    const value = `${f.chain} ${t.address}`;
    if (value.length > CHOICE_MAX) continue;
    const label = `${t.symbol ? `$${t.symbol}` : t.name} · ${t.name} · ${f.chain} · MC ${usd(f.item.marketcap)}`;
    out.push({ name: label.length <= CHOICE_MAX ? label : `${label.slice(0, CHOICE_MAX - 1)}…`, value });
    if (out.length === CHOICES_MAX) break;
  }
  return out;
}
