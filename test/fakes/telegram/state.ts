// What the fake Telegram knows: chats, users, memberships, the bot's messages
// with their edit history, injected failures and callback queries.
import { badRequest, chatNotFound, forbidden, ApiError } from './errors.ts';
import { newInlineState, type InlineState } from './inline.ts';
import { Topics } from './topics.ts';
import type {
  BotCommand,
  CallbackAnswer,
  Chat,
  FailureKind,
  MemberStatus,
  Message,
  PhotoInfo,
  SentMessage,
  User,
} from './types.ts';

interface Failure {
  kind: FailureKind;
  remaining: number;
}

export type ChangeListener = (kind: 'sent' | 'edited' | 'inline', message: SentMessage | undefined) => void;

export class FakeState {
  readonly chats = new Map<number, Chat>();
  readonly users = new Map<number, User>();
  readonly callbackAnswers: CallbackAnswer[] = [];
  /** Callback query id -> when it was created and whether it was answered. */
  readonly callbacks = new Map<string, { created: number; answered: boolean }>();
  /** setMyCommands by "scope|language_code". */
  readonly commands = new Map<string, BotCommand[]>();
  /** setMyDescription / setMyShortDescription by language_code ('' for the default). */
  readonly descriptions = new Map<string, string>();
  readonly shortDescriptions = new Map<string, string>();
  webhookUrl = '';
  /** BotFather /setprivacy: on (Telegram's default), groups deliver only commands, mentions, replies to the bot, or everything when the bot is an admin. */
  privacyMode = true;
  /** BotFather /setinline: inline_query updates are delivered only when on. */
  inlineMode = false;
  /** Inline queries sent and the answers accepted. */
  readonly inline: InlineState = newInlineState();
  /** Photos by file_id, so a bot can resend a photo by id as it would on Telegram. */
  readonly photos = new Map<string, PhotoInfo>();
  readonly bot: User;
  /** Forum topics by chat and id (topics.ts). */
  readonly topics = new Topics();
  /** A channel's linked discussion group, where Telegram forwards its posts (is_automatic_forward). */
  readonly discussion = new Map<number, number>();
  /** Administrator rights that differ from the defaults (a channel admin who may not post), by "chat:user". */
  readonly rights = new Map<string, Record<string, boolean>>();
  private readonly statuses = new Map<string, MemberStatus>();
  private readonly speakers = new Set<string>();
  private readonly sent = new Map<number, SentMessage[]>();
  private readonly incoming = new Map<string, Message>();
  private readonly nextId = new Map<number, number>();
  private readonly failures = new Map<number, Failure>();
  private readonly listeners = new Set<ChangeListener>();

  constructor(bot: User) {
    this.bot = bot;
  }

  addChat(chat: Chat): Chat {
    const known = this.chats.get(chat.id);
    const merged = { ...known, ...chat };
    this.chats.set(chat.id, merged);
    return merged;
  }

  addUser(user: User): User {
    const merged = { ...this.users.get(user.id), ...user };
    this.users.set(user.id, merged);
    return merged;
  }

  nextMessageId(chatId: number): number {
    const id = (this.nextId.get(chatId) ?? 0) + 1;
    this.nextId.set(chatId, id);
    return id;
  }

  recordIncoming(message: Message): void {
    this.incoming.set(`${message.chat.id}:${message.message_id}`, message);
    if (message.from) this.speakers.add(`${message.chat.id}:${message.from.id}`);
  }

  /** A user deleted their message: replies to it can no longer quote it. */
  forgetIncoming(chatId: number, messageId: number): void {
    this.incoming.delete(`${chatId}:${messageId}`);
  }

  incomingMessage(chatId: number, messageId: number): Message | undefined {
    return this.incoming.get(`${chatId}:${messageId}`);
  }

  recordSent(message: SentMessage): void {
    let list = this.sent.get(message.chat_id);
    if (!list) {
      list = [];
      this.sent.set(message.chat_id, list);
    }
    list.push(message);
    this.emit('sent', message);
  }

  sentIn(chatId: number): SentMessage[] {
    return this.sent.get(chatId) ?? [];
  }

  sentMessage(chatId: number, messageId: number): SentMessage | undefined {
    return this.sentIn(chatId).find((m) => m.message_id === messageId);
  }

  emit(kind: 'sent' | 'edited' | 'inline', message?: SentMessage): void {
    for (const listener of this.listeners) listener(kind, message);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setStatus(chatId: number, userId: number, status: MemberStatus): void {
    this.statuses.set(`${chatId}:${userId}`, status);
  }

  copyStatuses(fromChat: number, toChat: number): void {
    for (const [key, status] of [...this.statuses]) {
      const [chat, user] = key.split(':');
      if (Number(chat) === fromChat) this.statuses.set(`${toChat}:${user}`, status);
    }
  }

  /** Explicit status, else what Telegram would report for someone who spoke (member) or not (left). */
  statusOf(chatId: number, userId: number): MemberStatus {
    const explicit = this.statuses.get(`${chatId}:${userId}`);
    if (explicit) return explicit;
    if (userId === this.bot.id || chatId === userId || this.speakers.has(`${chatId}:${userId}`)) return 'member';
    return 'left';
  }

  fail(chatId: number, kind: FailureKind, count: number): void {
    this.failures.set(chatId, { kind, remaining: count });
  }

  clearFailures(chatId?: number): void {
    if (chatId === undefined) this.failures.clear();
    else this.failures.delete(chatId);
  }

  /** The failure to apply to a request on this chat, consuming one use of it. */
  takeFailure(chatId: number): FailureKind | undefined {
    const failure = this.failures.get(chatId);
    if (!failure) return undefined;
    failure.remaining--;
    if (failure.remaining <= 0) this.failures.delete(chatId);
    return failure.kind;
  }

  /** The Telegram error an injected failure stands for (drop and server errors are handled by the transport). */
  failureError(chatId: number, kind: FailureKind): ApiError | undefined {
    if (typeof kind === 'object') {
      return badRequest('group chat was upgraded to a supergroup chat', { migrate_to_chat_id: kind.migrateTo });
    }
    switch (kind) {
      case 'kicked':
        return forbidden(
          `bot was kicked from the ${this.chats.get(chatId)?.type === 'supergroup' ? 'supergroup' : 'group'} chat`,
        );
      case 'blocked':
        return forbidden('bot was blocked by the user');
      case 'not_found':
        return chatNotFound();
      case 'server_error':
        return new ApiError(500, 'Internal Server Error');
      default:
        return undefined;
    }
  }
}
