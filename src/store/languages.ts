/**
 * The language a chat chose with /language, per platform and chat id. Groups,
 * channels and alert destinations have no language of their own on either
 * platform, so the bot keeps one; a chat without an entry follows each
 * caller's app language.
 */
import { isLocale, type Locale } from '../i18n/locales.ts';
import type { Kv } from './strict.ts';

export interface ChatLanguages {
  get(platform: string, chatId: string): Promise<Locale | undefined>;
  set(platform: string, chatId: string, locale: Locale): Promise<void>;
  clear(platform: string, chatId: string): Promise<void>;
}

export function createChatLanguages(kv: Kv): ChatLanguages {
  const key = (platform: string, chatId: string): string => `${platform}:${chatId}`;
  return {
    async get(platform, chatId) {
      const v = await kv.get<string>(key(platform, chatId));
      // A value from an older or newer build that we no longer speak reads as "not set".
      return isLocale(v) ? v : undefined;
    },
    set: (platform, chatId, locale) => kv.set(key(platform, chatId), locale),
    clear: (platform, chatId) => kv.delete(key(platform, chatId)),
  };
}
