// Forum topics and reply threads, as the Bot API applies them to sends.
//
// A forum (a supergroup with topics on, `is_forum`) has a General topic, which
// has no topic id: messages there carry none, and a send naming one (1 included)
// is refused "message thread not found". Every other topic is named by the id of
// its creation message; its messages carry `message_thread_id` and
// `is_topic_message: true`. A closed topic refuses sends ("TOPIC_CLOSED") from
// anyone but an admin; a deleted one, like an id the chat never had, is "message
// thread not found", and so is a topic id once the group turned topics off.
// Outside forums a reply in a supergroup carries its reply thread as
// `message_thread_id` (the first message of the chain), never `is_topic_message`.
import { badRequest } from './errors.ts';
import type { MethodContext } from './context.ts';
import type { Chat, Message, SentMessage } from './types.ts';

export interface Topic {
  readonly chatId: number;
  readonly id: number;
  readonly name: string;
  closed: boolean;
  deleted: boolean;
}

export class Topics {
  private readonly byKey = new Map<string, Topic>();
  /** Forums whose General topic an admin closed: only admins post there. */
  readonly generalClosed = new Set<number>();

  add(chatId: number, id: number, name: string): Topic {
    const topic: Topic = { chatId, id, name, closed: false, deleted: false };
    this.byKey.set(`${chatId}:${id}`, topic);
    return topic;
  }

  get(chatId: number, id: number): Topic | undefined {
    return this.byKey.get(`${chatId}:${id}`);
  }
}

/** Where a sent message lands: its thread, and whether that is a forum topic. */
export interface Placement {
  readonly threadId: number | undefined;
  readonly isTopic: boolean;
}

const NOT_FOUND = 'message thread not found';

/** The thread a message is in, for a reply to it (incoming or the bot's own). */
function threadOf(target: Message | SentMessage | undefined): Placement | undefined {
  if (!target) return undefined;
  const thread = target.message_thread_id as number | undefined;
  const isTopic = 'isTopic' in target ? target.isTopic : target.is_topic_message === true;
  if (isTopic) return { threadId: thread, isTopic: true };
  return { threadId: thread ?? target.message_id, isTopic: false };
}

/**
 * Checks `message_thread_id` of a send and says where the message lands; `replyTo`
 * is the message it replies to, when that still exists.
 */
export function placeSend(ctx: MethodContext, chat: Chat, replyTo: Message | SentMessage | undefined): Placement {
  const raw = ctx.params.message_thread_id;
  const asked = raw === undefined ? undefined : Number(raw);
  if (asked !== undefined && !Number.isInteger(asked)) throw badRequest('message_thread_id is invalid');
  if (chat.type !== 'supergroup') {
    if (asked !== undefined && chat.type !== 'private') throw badRequest(NOT_FOUND);
    return { threadId: undefined, isTopic: false };
  }
  if (chat.is_forum) {
    const status = ctx.state.statusOf(chat.id, ctx.state.bot.id);
    const admin = status === 'administrator' || status === 'creator';
    if (asked === undefined) {
      // A reply without a topic id goes to the replied message's topic; otherwise General.
      const t = threadOf(replyTo);
      if (t?.isTopic) return t;
      if (ctx.state.topics.generalClosed.has(chat.id) && !admin) throw badRequest('TOPIC_CLOSED');
      return { threadId: undefined, isTopic: false };
    }
    const topic = ctx.state.topics.get(chat.id, asked);
    if (!topic || topic.deleted) throw badRequest(NOT_FOUND);
    if (topic.closed && !admin) throw badRequest('TOPIC_CLOSED');
    return { threadId: asked, isTopic: true };
  }
  if (asked !== undefined) {
    // Topics turned off: their ids are no threads any more. A reply thread is named by its first message.
    const exists = ctx.state.incomingMessage(chat.id, asked) ?? ctx.state.sentMessage(chat.id, asked);
    if (ctx.state.topics.get(chat.id, asked) || !exists) throw badRequest(NOT_FOUND);
    return { threadId: asked, isTopic: false };
  }
  const t = threadOf(replyTo);
  return t ? { threadId: t.threadId, isTopic: false } : { threadId: undefined, isTopic: false };
}
