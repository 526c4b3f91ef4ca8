/**
 * The language a chat chose with /language, per destination (platform, chat
 * and maybe forum topic: domain/destination.ts). Groups, channels and alert
 * destinations have no language of their own on either platform, so the bot
 * keeps one; a topic without an entry speaks its chat's, and a chat without
 * one follows each caller's app language.
 */
import { destinationKey } from '../domain/destination.ts';
import { isLocale, type Locale } from '../i18n/locales.ts';
import type { Kv } from './strict.ts';

export interface ChatLanguages {
  /** The topic's language, else its chat's; undefined when neither chose one. */
  get(platform: string, chatId: string, threadId?: string): Promise<Locale | undefined>;
  set(platform: string, chatId: string, locale: Locale, threadId?: string): Promise<void>;
  clear(platform: string, chatId: string, threadId?: string): Promise<void>;
}

export function createChatLanguages(kv: Kv): ChatLanguages {
  const key = (platform: string, chatId: string, threadId?: string): string =>
    destinationKey({ platform, chatId, threadId });
  // A value from an older or newer build that we no longer speak reads as "not set".
  const read = async (k: string) => {
    const v = await kv.get<string>(k);
    return isLocale(v) ? v : undefined;
  };
  return {
    async get(platform, chatId, threadId) {
      const own = threadId ? await read(key(platform, chatId, threadId)) : undefined;
      return own ?? (await read(key(platform, chatId)));
    },
    set: (platform, chatId, locale, threadId) => kv.set(key(platform, chatId, threadId), locale),
    clear: (platform, chatId, threadId) => kv.delete(key(platform, chatId, threadId)),
  };
}
