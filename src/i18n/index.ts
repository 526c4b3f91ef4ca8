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
import i18next, { type TFunction } from 'i18next';
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

/** The translation function of one answer. */
export type T = TFunction<'translation'>;

const bound = new Map<Locale, T>();
const localeOfT = new WeakMap<T, Locale>();

/** A `t` bound to `locale` (cached: binding is cheap, but answers are many). */
export function translator(locale: Locale): T {
  let t = bound.get(locale);
  if (!t) {
    t = memoised(i18n.getFixedT(locale) as T);
    bound.set(locale, t);
    localeOfT.set(t, locale);
  }
  return t;
}

/**
 * Texts without values are looked up once per language: an i18next lookup costs
 * about 6 µs, and a card asks for twenty labels (bench: "English views").
 */
function memoised(raw: T): T {
  const plain = new Map<string, string>();
  return ((key: unknown, ...rest: unknown[]) => {
    if (rest.length > 0 || typeof key !== 'string')
      return (raw as unknown as (...a: unknown[]) => unknown)(key, ...rest);
    let text = plain.get(key);
    if (text === undefined) {
      text = (raw as unknown as (k: string) => string)(key);
      plain.set(key, text);
    }
    return text;
  }) as unknown as T;
}

/** The language a `t` from translator() speaks (English for any other function). */
export function languageOf(t: T): Locale {
  return localeOfT.get(t) ?? DEFAULT_LOCALE;
}

/**
 * A command's one-line description in `t`'s language. In English it is the
 * command's own text (any registry, test commands too); other languages take
 * the catalogue's, or the English one where the catalogue has none.
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

/** An option's description in `t`'s language: as commandDescription, for `options.<command>.<option>`. */
export function optionDescription(t: T, command: string, option: string, english: string): string {
  if ((localeOfT.get(t) ?? DEFAULT_LOCALE) === DEFAULT_LOCALE || !hasOptionText(command, option)) return english;
  return t(`options.${command}.${option}` as never, { defaultValue: english }) as string;
}
