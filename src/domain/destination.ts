/**
 * Where a message goes: a platform, a chat on it, and maybe a thread in that
 * chat (a Telegram forum topic). A destination without a thread is the chat
 * itself, as every destination stored before threads existed, so its key is
 * unchanged: `platform:chat`. With a thread: `platform:chat:thread`.
 *
 * Everything kept per destination (subscriptions, the outbox, calls, digests,
 * quiet hours, the chat's language, button bindings, automatic cards) is keyed
 * by destinationKey. Pacing is not: a platform's limits count the whole chat,
 * every topic together, so senders pace by chat id alone.
 */

export type DestinationPlatform = 'discord' | 'telegram' | 'console';

export interface Destination {
  readonly platform: DestinationPlatform;
  /** Platform chat id, as a string (64-bit ids). */
  readonly chatId: string;
  /** The thread (Telegram `message_thread_id` of a forum topic); absent: the chat itself. */
  readonly threadId?: string | undefined;
}

/** The destination's key: `platform:chat`, or `platform:chat:thread` in a thread. */
export function destinationKey(d: Pick<Destination, 'chatId' | 'threadId'> & { readonly platform: string }): string {
  return d.threadId ? `${d.platform}:${d.chatId}:${d.threadId}` : `${d.platform}:${d.chatId}`;
}

/** The chat's own key, whatever the thread: what platform limits and per-chat state count. */
export function chatKeyOf(d: { readonly platform: string; readonly chatId: string }): string {
  return `${d.platform}:${d.chatId}`;
}

/** `{ threadId }` when there is one, else nothing: spread into a stored record so threadless ones stay as they were. */
export function threadPart(threadId: string | undefined): { threadId?: string } {
  return threadId ? { threadId } : {};
}

/**
 * Ids as the platforms write them: an optional minus, then digits without a
 * leading zero. `-04901` names the same Telegram group as `-4901` to the Bot
 * API (it reads a number), but as a string it is another chat here: another
 * subscription, another server's quota, the same alert twice. An id from a
 * payload, a button or a typed option is refused unless it is in this form,
 * before it is checked or stored.
 */
const CANONICAL_CHAT_ID = /^-?[1-9]\d{0,19}$/;
/** Thread (topic) ids: positive, no leading zero. */
const CANONICAL_THREAD_ID = /^[1-9]\d{0,11}$/;

export const isCanonicalChatId = (id: string): boolean => CANONICAL_CHAT_ID.test(id);
export const isCanonicalThreadId = (id: string): boolean => CANONICAL_THREAD_ID.test(id);
