/**
 * The languages kolradar speaks and how a platform's language tag maps onto
 * them. Discord sends its own locale ids ('zh-CN', 'es-419'), Telegram an IETF
 * tag that may carry a region or script ('pt-br', 'zh-hans'), a terminal a
 * POSIX LANG ('ru_RU.UTF-8'): all are reduced to one of LOCALES or to nothing.
 */

export const LOCALES = ['en', 'zh', 'ru', 'es', 'pt-BR', 'tr', 'vi', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Primary subtag -> our locale. Any Portuguese reads Brazilian Portuguese better than English. */
const BY_PRIMARY: Readonly<Record<string, Locale>> = {
  en: 'en',
  zh: 'zh',
  ru: 'ru',
  es: 'es',
  pt: 'pt-BR',
  tr: 'tr',
  vi: 'vi',
  ko: 'ko',
};

/**
 * One of our locales for a platform tag, or undefined when we do not speak it
 * (the caller then falls back). Accepts 'zh-CN', 'pt-br', 'zh-hans', 'es-419',
 * 'ru_RU.UTF-8', 'ko', 'PT_br', ' en-GB '.
 */
export function negotiate(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const cleaned = tag
    .trim()
    .replace(/[.@].*$/, '')
    .replace(/_/g, '-')
    .toLowerCase();
  const primary = cleaned.split('-')[0] ?? '';
  return Object.hasOwn(BY_PRIMARY, primary) ? BY_PRIMARY[primary] : undefined;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first tag we speak, else English: "the chat's setting, else the caller's app language". */
export function pickLocale(...tags: (string | null | undefined)[]): Locale {
  for (const tag of tags) {
    const hit = negotiate(tag);
    if (hit) return hit;
  }
  return DEFAULT_LOCALE;
}

/** Discord locales that get our text, per locale (en-US is set explicitly: Discord's own default). */
export const DISCORD_LOCALES: Readonly<Record<Locale, readonly string[]>> = {
  en: ['en-US', 'en-GB'],
  zh: ['zh-CN'],
  ru: ['ru'],
  es: ['es-ES', 'es-419'],
  'pt-BR': ['pt-BR'],
  tr: ['tr'],
  vi: ['vi'],
  ko: ['ko'],
};

/** Telegram's `language_code` for setMyCommands and friends: two-letter ISO 639-1. */
export const TELEGRAM_CODES: Readonly<Record<Locale, string>> = {
  en: 'en',
  zh: 'zh',
  ru: 'ru',
  es: 'es',
  'pt-BR': 'pt',
  tr: 'tr',
  vi: 'vi',
  ko: 'ko',
};
