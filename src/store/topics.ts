/**
 * Forum topics the bot knows a chat has: each one it saw a message in that
 * asked for the settings link (commands/_where.ts). Telegram offers no way to
 * ask whether a topic exists, and a settings link names its topic by id, so a
 * link naming a topic the bot never saw there (an id typed by hand) is
 * refused instead of storing settings for a destination that does not exist.
 */
import { destinationKey } from '../domain/destination.ts';
import type { Kv } from './strict.ts';

export interface KnownTopics {
  add(platform: string, chatId: string, threadId: string): Promise<void>;
  has(platform: string, chatId: string, threadId: string): Promise<boolean>;
}

export function createKnownTopics(kv: Kv): KnownTopics {
  const key = (platform: string, chatId: string, threadId: string) => destinationKey({ platform, chatId, threadId });
  return {
    add: (platform, chatId, threadId) => kv.set(key(platform, chatId, threadId), 1),
    has: async (platform, chatId, threadId) => (await kv.get(key(platform, chatId, threadId))) !== undefined,
  };
}
