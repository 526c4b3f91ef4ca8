/**
 * Text to be said later, in a language not known yet: a catalogue key and its
 * values. Errors thrown where no `t` is at hand and alerts stored before their
 * destination's language is read carry these; whoever shows them renders them.
 */
import { formats } from './format.ts';
import { type Key, languageOf, type T } from './index.ts';

/**
 * A catalogue key and its values. A value may itself be a Message (rendered
 * first), `{ or: [...] }` / `{ and: [...] }` (a list joined as the language joins
 * them), `{ int: n }` (a count, grouped), `{ dec: n }` (one decimal at most),
 * `{ usd: n }` (a market cap, "$4.2M") or `{ days: n }` (an age, "6h").
 */
export interface Message {
  readonly key: string;
  readonly values?: Readonly<Record<string, unknown>>;
}

export function isMessage(v: unknown): v is Message {
  return typeof v === 'object' && v !== null && typeof (v as Message).key === 'string';
}

/** A Message in `t`'s language. */
export function renderMessage(t: T, m: Message): string {
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m.values ?? {})) {
    if (isMessage(v)) values[k] = renderMessage(t, v);
    else if (v && typeof v === 'object' && Array.isArray((v as { or?: unknown }).or))
      values[k] = listed(t, (v as { or: string[] }).or, 'disjunction');
    else if (v && typeof v === 'object' && Array.isArray((v as { and?: unknown }).and))
      values[k] = listed(t, (v as { and: string[] }).and, 'conjunction');
    else if (v && typeof v === 'object' && typeof (v as { int?: unknown }).int === 'number')
      values[k] = formats(languageOf(t)).int((v as { int: number }).int);
    else if (v && typeof v === 'object' && typeof (v as { dec?: unknown }).dec === 'number')
      values[k] = decimal(t, (v as { dec: number }).dec);
    else if (v && typeof v === 'object' && typeof (v as { usd?: unknown }).usd === 'number')
      values[k] = formats(languageOf(t)).usd((v as { usd: number }).usd);
    else if (v && typeof v === 'object' && typeof (v as { days?: unknown }).days === 'number')
      values[k] = formats(languageOf(t)).age((v as { days: number }).days, 'days');
    else values[k] = v;
  }
  // A Message's key is text (it may come back from the store); one the catalogue lacks renders as itself.
  return t(m.key as Key, values);
}

const lists = new Map<string, Intl.ListFormat>();
const decimals = new Map<string, Intl.NumberFormat>();

/** 82, 82.5 (ru 82,5): at most one decimal, no grouping. */
function decimal(t: T, n: number): string {
  const lng = languageOf(t);
  let f = decimals.get(lng);
  if (!f) {
    f = new Intl.NumberFormat(lng, { maximumFractionDigits: 1, useGrouping: false });
    decimals.set(lng, f);
  }
  return f.format(Math.round(n * 10) / 10);
}

/** "a or b" ("a 或 b", "a или b"), "a and b". */
function listed(t: T, items: readonly string[], type: 'disjunction' | 'conjunction'): string {
  const key = `${languageOf(t)}:${type}`;
  let f = lists.get(key);
  if (!f) {
    f = new Intl.ListFormat(languageOf(t), { type });
    lists.set(key, f);
  }
  return f.format(items);
}
