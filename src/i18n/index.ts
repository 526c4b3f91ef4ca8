/**
 * The platform-neutral message catalogue: `translator(locale)` gives a `t`
 * bound to one language for one answer.
 *
 * Why i18next (see ../../../shared notes): zero dependencies, ESM, keys
 * type-checked against the English source through `CustomTypeOptions`,
 * plurals through Intl.PluralRules (`key_one/_few/_many/_other`), fallback
 * chains, and `createInstance()` so the bot's catalogue is not a global.
 * intl-messageformat has no key concept (we would write the typing and lookup
 * ourselves), @fluent is pre-1.0, typesafe-i18n is unmaintained, and
 * @grammyjs/i18n needs a grammY context, which the core must not know.
 *
 * Text is returned unescaped: every renderer escapes for its platform, as it
 * does for English today.
 */
import i18next, { type ParseKeys } from 'i18next';
import en from './locales/en.ts';
import es from './locales/es.ts';
import ko from './locales/ko.ts';
import ptBR from './locales/pt-BR.ts';
import ru from './locales/ru.ts';
import tr from './locales/tr.ts';
import vi from './locales/vi.ts';
import zh from './locales/zh.ts';
import type { Catalogue } from './catalogue.ts';
import { DEFAULT_LOCALE, type Locale } from './locales.ts';

export {
  DEFAULT_LOCALE,
  DISCORD_LOCALES,
  LOCALES,
  TELEGRAM_CODES,
  isLocale,
  negotiate,
  pickLocale,
  type Locale,
} from './locales.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
  }
}

/** Every language's messages, English first. */
export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = { en, zh, ru, es, 'pt-BR': ptBR, tr, vi, ko };

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(Object.entries(CATALOGUES).map(([lng, translation]) => [lng, { translation }])),
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  // The resources are in memory: initialise synchronously, so `t` works at import.
  initAsync: false,
  // Look up 'pt-BR' exactly; never try a bare 'pt' or a 'dev' language.
  load: 'currentOnly',
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});

/** A key of the catalogue (a dotted path of en.ts), checked at compile time. */
export type Key = ParseKeys<'translation'>;

/**
 * The translation function of one answer: a key and its values, the text out.
 * Narrower than i18next's overloaded TFunction (options, objects, default
 * values), which the bot does not use: this is the whole contract.
 */
export type T = (key: Key, values?: Readonly<Record<string, unknown>>) => string;

const bound = new Map<Locale, T>();
const localeOfT = new WeakMap<T, Locale>();

/** A `t` bound to `locale` (cached: binding is cheap, but answers are many). */
export function translator(locale: Locale): T {
  let t = bound.get(locale);
  if (!t) {
    t = compiled(i18nextT(locale), locale);
    bound.set(locale, t);
    localeOfT.set(t, locale);
  }
  return t;
}

/** i18next's `t` for `locale` without the compiled templates: tests and the bench compare both ways. */
export function i18nextT(locale: Locale): T {
  const fixed = i18n.getFixedT(locale);
  return (key, values) => fixed(key, { ...values });
}

/** i18next's own `t()` options: a call carrying any of these goes to i18next whole. */
const OPTION_KEYS = new Set([
  'defaultValue',
  'ordinal',
  'context',
  'replace',
  'lng',
  'lngs',
  'fallbackLng',
  'ns',
  'keySeparator',
  'nsSeparator',
  'returnObjects',
  'returnDetails',
  'joinArrays',
  'postProcess',
  'interpolation',
  'skipInterpolation',
]);

/** A template cut at its `{{name}}` placeholders: text, name, text, name, ..., text. */
type Parts = readonly string[];

/** `undefined` when the template uses more than plain `{{name}}` (formats, nesting, paths, unescaped). */
function cut(template: string): Parts | undefined {
  const parts: string[] = [];
  let last = 0;
  for (const m of template.matchAll(/\{\{(.*?)\}\}/g)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(m[1]!)) return undefined;
    parts.push(template.slice(last, m.index), m[1]!);
    last = m.index + m[0].length;
  }
  if (template.includes('$t(')) return undefined;
  parts.push(template.slice(last));
  return parts;
}

/**
 * i18next stays the source of meaning (which text, which plural form, which
 * fallback language); this keeps what it resolves. A lookup through i18next
 * costs about 5 µs and a card asks for twenty or more, which English answers
 * paid on every command (bench "English views": 0.205 ms through i18next
 * against 0.094 ms with fixed strings). So each (key, plural form) is resolved
 * by i18next once per language, with interpolation skipped, and the template
 * is cut at its placeholders; a call then selects the plural form with the
 * same Intl.PluralRules i18next uses and fills the placeholders. Anything else
 * (an option such as defaultValue, a value that is not text or a number, a
 * placeholder the call does not fill) goes to i18next as before; a test
 * compares both ways for every key of every language.
 */
function compiled(call: T, locale: Locale): T {
  const plurals = new Intl.PluralRules(locale);
  // Key -> plural form ('' without a count) -> the cut template, or null where i18next must answer.
  const templates = new Map<string, Map<string, Parts | null>>();
  const partsOf = (key: Key, count: unknown): Parts | null => {
    const form = typeof count === 'number' ? plurals.select(count) : '';
    let forms = templates.get(key);
    if (!forms) {
      forms = new Map();
      templates.set(key, forms);
    }
    let parts = forms.get(form);
    if (parts === undefined) {
      const text = call(key, form ? { count, skipInterpolation: true } : { skipInterpolation: true });
      parts = (typeof text === 'string' && cut(text)) || null;
      forms.set(form, parts);
    }
    return parts;
  };
  return (key, values) => {
    if (values === undefined) {
      const parts = partsOf(key, undefined);
      if (parts?.length === 1) return parts[0]!;
      return call(key);
    }
    for (const k in values) if (OPTION_KEYS.has(k)) return call(key, values);
    // i18next picks a plural form for any count that is not text; only numbers are selected here.
    if (values['count'] !== undefined && typeof values['count'] !== 'number') return call(key, values);
    const parts = partsOf(key, values['count']);
    if (!parts) return call(key, values);
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      const x = values[parts[i]!];
      if (typeof x === 'string') out += x;
      else if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') out += String(x);
      else return call(key, values);
      out += parts[i + 1]!;
    }
    return out;
  };
}

/** The language a `t` from translator() speaks (English for any other function). */
export function languageOf(t: T): Locale {
  return localeOfT.get(t) ?? DEFAULT_LOCALE;
}

/**
 * A command's one-line description in `t`'s language. In English it is the
 * registry's (the catalogue's, or a test's own commands' texts); other languages
 * take the catalogue's, or the English one where the catalogue has none.
 */
export function commandDescription(t: T, command: { readonly name: string; readonly description: string }): string {
  if ((localeOfT.get(t) ?? DEFAULT_LOCALE) === DEFAULT_LOCALE) return command.description;
  return t(`commands.${command.name}` as never, { defaultValue: command.description }) as string;
}

/** True when the catalogue has this option's description (then every language has it: a test checks). */
export function hasOptionText(command: string, option: string): boolean {
  const byCommand = (CATALOGUES.en.options as Readonly<Record<string, Readonly<Record<string, string>>>>)[command];
  return byCommand !== undefined && Object.hasOwn(byCommand, option);
}

/** True when the catalogue names this choice value (`choices.<value>`) for Discord's picker. */
export function hasChoiceText(value: string): boolean {
  return Object.hasOwn(CATALOGUES.en.choices, value);
}

/** An option's description in `t`'s language: as commandDescription, for `options.<command>.<option>`. */
export function optionDescription(t: T, command: string, option: string, english: string): string {
  if ((localeOfT.get(t) ?? DEFAULT_LOCALE) === DEFAULT_LOCALE || !hasOptionText(command, option)) return english;
  return t(`options.${command}.${option}` as never, { defaultValue: english }) as string;
}

/** A real command's option, straight from the catalogue (the registry checked at start that it is there). */
export function optionText(t: T, command: string, option: string): string {
  return t(`options.${command}.${option}` as never) as string;
}
