// What a method handler gets, and the helpers several handlers share.
import type { UploadedFile } from './body.ts';
import { badRequest, chatNotFound } from './errors.ts';
import type { FakeState } from './state.ts';
import type { UpdateQueue } from './updates.ts';
import type { Chat, Message, SentMessage, User } from './types.ts';

export interface MethodContext {
  params: Record<string, unknown>;
  files: Map<string, UploadedFile>;
  state: FakeState;
  updates: UpdateQueue;
  /** Milliseconds since the fake started. */
  now: () => number;
  /** Aborts when the client closes the connection. */
  closed: AbortSignal;
  /** When false, sends to chats nobody introduced create them on the fly. */
  knownChatsOnly: boolean;
}

export type Handler = (ctx: MethodContext) => unknown;

/** Resolves a chat_id parameter (number, numeric string or "@username") to a numeric id. */
export function chatIdOf(state: FakeState, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string') {
    if (/^-?\d+$/.test(value)) return Number(value);
    if (value.startsWith('@')) {
      const name = value.slice(1).toLowerCase();
      for (const chat of state.chats.values()) if (chat.username?.toLowerCase() === name) return chat.id;
    }
    throw chatNotFound();
  }
  throw badRequest('chat_id is empty');
}

export function requireChat(ctx: MethodContext): Chat {
  const id = chatIdOf(ctx.state, ctx.params.chat_id);
  const chat = ctx.state.chats.get(id);
  if (chat) return chat;
  if (ctx.knownChatsOnly) throw chatNotFound();
  return ctx.state.addChat(
    id < 0 ? { id, type: 'group', title: `Group ${id}` } : { id, type: 'private', first_name: `User ${id}` },
  );
}

export function intParam(params: Record<string, unknown>, key: string): number {
  const v = params[key];
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw badRequest(`${key} is empty`);
  return n;
}

export const unixNow = (): number => Math.floor(Date.now() / 1000);

/** The Message object Telegram answers for a bot message in its current state. */
export function toMessage(state: FakeState, m: SentMessage): Message {
  const chat = state.chats.get(m.chat_id) ?? { id: m.chat_id, type: m.chat_id < 0 ? 'group' : 'private' };
  const message: Message = { message_id: m.message_id, from: state.bot, chat, date: m.date };
  if (m.edits.length > 0) message.edit_date = m.date + Math.floor((m.edits.at(-1)!.time - m.time) / 1000);
  const entities = m.entities.length > 0 ? m.entities : undefined;
  if (m.isCaption) {
    if (m.text) message.caption = m.text;
    if (entities && m.text) message.caption_entities = entities;
  } else {
    message.text = m.text;
    if (entities) message.entities = entities;
  }
  if (m.photo) {
    const p = m.photo;
    message.photo = [
      { file_id: p.file_id, file_unique_id: `u${p.file_id}`, width: p.width, height: p.height, file_size: p.size },
    ];
  }
  if (m.reply_markup?.inline_keyboard) message.reply_markup = { inline_keyboard: m.reply_markup.inline_keyboard };
  if (m.message_thread_id !== undefined) message.message_thread_id = m.message_thread_id;
  if (m.isTopic) message.is_topic_message = true;
  return message;
}

export const userOf = (state: FakeState, id: number): User | undefined =>
  id === state.bot.id ? state.bot : state.users.get(id);
