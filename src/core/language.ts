/**
 * The language of an answer, in one place: the topic's or chat's /language, else the
 * caller's app language, else English. Commands, automatic cards, Telegram's
 * own texts and alerts (no caller) all ask here. A store fault costs only the
 * chat's choice, never the answer.
 */
import { pickLocale, type Locale } from '../i18n/index.ts';
import type { ChatLanguages } from '../store/languages.ts';

export async function chatLocale(
  languages: ChatLanguages,
  where: {
    readonly platform: string;
    readonly chatId: string;
    readonly threadId?: string | undefined;
    readonly locale?: string | undefined;
  },
  onError?: (err: unknown) => void,
): Promise<Locale> {
  let chosen: Locale | undefined;
  try {
    chosen = await languages.get(where.platform, where.chatId, where.threadId);
  } catch (err) {
    onError?.(err);
  }
  return pickLocale(chosen, where.locale);
}
