// The test-side handle on the fake: act as Telegram users, inject failures, and
// read back what the bot did. Each method says why a test would use it.
import type { Server } from 'node:http';
import type { Connections } from './connections.ts';
import { memberObject } from './bot-methods.ts';
import { toMessage, unixNow } from './context.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { FakeState } from './state.ts';
import type {
  BotCommand,
  CallbackAnswer,
  Chat,
  FailureKind,
  MemberStatus,
  Message,
  MessageEntity,
  MessageVersion,
  RequestLogEntry,
  SentMessage,
  Update,
  Violation,
} from './types.ts';
import type { UpdateQueue } from './updates.ts';
import type { InlineAnswer } from './inline.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';

export interface FakeChat {
  id: number;
  type: 'private' | 'group' | 'supergroup';
  title?: string;
  username?: string;
  /** A supergroup with topics on (topics.ts): see createTopic. */
  is_forum?: boolean;
}

/** A channel a message can be posted as (channels never send commands themselves here). */
export interface SenderChannel {
  id: number;
  type: 'channel';
  title?: string;
}

export interface FakeUser {
  id: number;
  first_name: string;
  username?: string;
  /** The user's app language as Telegram sends it (an IETF tag such as 'pt-br'); 'en' when not given. */
  language_code?: string;
}

export interface DriverParts {
  apiRoot: string;
  token: string;
  timeScale: number;
  server: Server;
  state: FakeState;
  updates: UpdateQueue;
  limiter: RateLimiter;
  now: () => number;
  advanceClock: (ms: number) => void;
  log: RequestLogEntry[];
  internalErrors: unknown[];
  connections: Connections;
}

const DEFAULT_GROUP_USER: FakeUser = { id: 424242, first_name: 'Tester', username: 'tester' };
/** The placeholder users Telegram puts in `from` when a message is sent on behalf of a chat. */
export const GROUP_ANONYMOUS_BOT: FakeUser = { id: 1087968824, first_name: 'Group', username: 'GroupAnonymousBot' };
export const CHANNEL_BOT: FakeUser = { id: 136817688, first_name: 'Channel', username: 'Channel_Bot' };

/** bot_command entities as Telegram marks them: "/name" or "/name@bot" at the start of a word. */
function commandEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  for (const m of text.matchAll(/(^|\s)(\/[a-zA-Z0-9_]{1,64}(?:@[a-zA-Z0-9_]{3,32})?)/g)) {
    entities.push({ type: 'bot_command', offset: m.index + (m[1]?.length ?? 0), length: m[2]!.length });
  }
  return entities;
}

export class TelegramFake {
  /** Base URL for grammY's `client.apiRoot` (no trailing slash). */
  readonly apiRoot: string;
  readonly token: string;
  readonly botUsername: string;
  readonly botId: number;
  /** Real milliseconds per fake millisecond of flood-control time (retry_after stays whole seconds). */
  readonly timeScale: number;
  private readonly parts: DriverParts;
  private readonly delivered = new WeakSet<object>();
  private readonly cancels = new Set<(err: Error) => void>();
  private callbackCounter = 0;
  private closing: Promise<void> | undefined;

  constructor(parts: DriverParts) {
    this.parts = parts;
    this.apiRoot = parts.apiRoot;
    this.token = parts.token;
    this.botUsername = parts.state.bot.username ?? '';
    this.botId = parts.state.bot.id;
    this.timeScale = parts.timeScale;
  }

  /** Declares a chat so the bot may send to it without a user writing first (e.g. alert fan-out). */
  addChat(chat: FakeChat): Chat {
    const defaults = chat.type === 'private' ? { first_name: `User ${chat.id}` } : { title: `Group ${chat.id}` };
    return this.parts.state.addChat({ ...defaults, ...this.parts.state.chats.get(chat.id), ...chat });
  }

  /**
   * A user (or, with `fromBot`, another bot) writes `text`; commands get their bot_command
   * entity, so `bot.command()` fires as on Telegram. With privacy mode on, a group message
   * that is no command, no mention of the bot and no reply to it is not delivered (unless
   * the bot is an admin there): undefined is returned and the bot never sees it.
   * `senderChat` posts on behalf of a chat, as Telegram sends it: `sender_chat` set, and `from` the shared
   * placeholder user (@GroupAnonymousBot for the group's own anonymous admins, @Channel_Bot for a channel).
   */
  sendText(input: {
    chat: FakeChat;
    from?: FakeUser;
    text: string;
    replyToMessageId?: number;
    /** Posted in this forum topic (createTopic's id); absent: General, or the chat. */
    threadId?: number;
    fromBot?: boolean;
    senderChat?: FakeChat | SenderChannel;
  }): Update | undefined {
    const { state } = this.parts;
    const placeholder = input.senderChat
      ? input.senderChat.id === input.chat.id
        ? GROUP_ANONYMOUS_BOT
        : CHANNEL_BOT
      : undefined;
    const fromInput =
      placeholder ??
      input.from ??
      (input.chat.type === 'private' ? { id: input.chat.id, first_name: 'Tester' } : DEFAULT_GROUP_USER);
    const from = state.addUser({
      language_code: 'en',
      ...fromInput,
      is_bot: placeholder !== undefined || input.fromBot === true,
    });
    const known = state.chats.get(input.chat.id);
    const chat =
      input.chat.type === 'private'
        ? state.addChat({
            ...known,
            first_name: from.first_name,
            ...(from.username ? { username: from.username } : {}),
            ...input.chat,
          })
        : state.addChat({ title: `Group ${input.chat.id}`, ...known, ...input.chat });
    const message: Message = {
      message_id: state.nextMessageId(chat.id),
      from,
      chat,
      date: unixNow(),
      text: input.text,
    };
    if (input.senderChat) {
      const { id, type } = input.senderChat;
      message.sender_chat =
        id === chat.id ? { ...chat } : { id, type, title: input.senderChat.title ?? `Channel ${id}` };
    }
    const entities = commandEntities(input.text);
    if (entities.length > 0) message.entities = entities;
    if (input.replyToMessageId !== undefined) {
      const target = state.sentMessage(chat.id, input.replyToMessageId);
      const replied = target ? toMessage(state, target) : state.incomingMessage(chat.id, input.replyToMessageId);
      if (!replied) throw new Error(`no message ${input.replyToMessageId} in chat ${chat.id} to reply to`);
      message.reply_to_message = replied;
    }
    this.placeIncoming(chat, message, input.threadId);
    state.recordIncoming(message);
    if (!this.deliverable(chat, message)) return undefined;
    return this.parts.updates.push({ message });
  }

  /**
   * Where a user's message sits, as Telegram marks it: in a forum topic it carries the
   * topic's id and `is_topic_message`, and "replies" to the topic's creation when it
   * replies to nothing else; in General it carries neither. Outside forums a reply in a
   * supergroup carries its reply thread (the chain's first message), never `is_topic_message`.
   */
  private placeIncoming(chat: Chat, message: Message, threadId: number | undefined): void {
    const { state } = this.parts;
    if (chat.is_forum && threadId !== undefined) {
      const topic = state.topics.get(chat.id, threadId);
      if (!topic || topic.deleted) throw new Error(`no topic ${threadId} in chat ${chat.id}`);
      message.message_thread_id = threadId;
      message.is_topic_message = true;
      message.reply_to_message ??= state.incomingMessage(chat.id, threadId);
      return;
    }
    if (threadId !== undefined) throw new Error(`chat ${chat.id} has no topics`);
    const replied = message.reply_to_message;
    if (chat.type === 'supergroup' && !chat.is_forum && replied)
      message.message_thread_id = (replied.message_thread_id as number | undefined) ?? replied.message_id;
    if (chat.is_forum && replied?.is_topic_message) {
      // A reply to a topic's message is in that topic.
      message.message_thread_id = replied.message_thread_id;
      message.is_topic_message = true;
    }
  }

  /** An admin creates a forum topic (the chat becomes a forum); returns its id, that of its creation message. */
  createTopic(chatId: number, name: string): number {
    const { state } = this.parts;
    const chat = state.addChat({ ...this.addChat({ id: chatId, type: 'supergroup' }), is_forum: true });
    let id = state.nextMessageId(chatId);
    // Thread 1 is the General topic's, in clients; no created topic takes it.
    if (id === 1) id = state.nextMessageId(chatId);
    const from = state.addUser({ ...DEFAULT_GROUP_USER, is_bot: false });
    state.topics.add(chatId, id, name);
    const created: Message = {
      message_id: id,
      from,
      chat,
      date: unixNow(),
      message_thread_id: id,
      is_topic_message: true,
      forum_topic_created: { name, icon_color: 7322096 },
    };
    state.recordIncoming(created);
    this.parts.updates.push({ message: created });
    return id;
  }

  /** An admin closes (or reopens) a topic: a service message in it; only admins may post there while closed. */
  closeTopic(chatId: number, topicId: number, closed = true): void {
    const { state } = this.parts;
    const topic = state.topics.get(chatId, topicId);
    if (!topic || topic.deleted) throw new Error(`no topic ${topicId} in chat ${chatId}`);
    topic.closed = closed;
    const from = state.addUser({ ...DEFAULT_GROUP_USER, is_bot: false });
    this.parts.updates.push({
      message: {
        message_id: state.nextMessageId(chatId),
        from,
        chat: state.chats.get(chatId)!,
        date: unixNow(),
        message_thread_id: topicId,
        is_topic_message: true,
        ...(closed ? { forum_topic_closed: {} } : { forum_topic_reopened: {} }),
      },
    });
  }

  /** An admin closes (or reopens) the General topic: only admins may post in it (sends naming no topic). */
  closeGeneral(chatId: number, closed = true): void {
    const { state } = this.parts;
    const chat = state.chats.get(chatId);
    if (!chat?.is_forum) throw new Error(`chat ${chatId} is no forum`);
    if (closed) state.topics.generalClosed.add(chatId);
    else state.topics.generalClosed.delete(chatId);
    const from = state.addUser({ ...DEFAULT_GROUP_USER, is_bot: false });
    const message_id = state.nextMessageId(chatId);
    const service = closed ? { forum_topic_closed: {} } : { forum_topic_reopened: {} };
    this.parts.updates.push({ message: { message_id, from, chat, date: unixNow(), ...service } });
  }

  /** An admin deletes a topic with its messages (no update): sends to it are "message thread not found". */
  deleteTopic(chatId: number, topicId: number): void {
    const { state } = this.parts;
    const topic = state.topics.get(chatId, topicId);
    if (!topic) throw new Error(`no topic ${topicId} in chat ${chatId}`);
    topic.deleted = true;
    for (const m of state.sentIn(chatId)) if (m.isTopic && m.message_thread_id === topicId) m.deleted = true;
  }

  /** An admin turns topics off (or on again): the chat is no forum, and every topic id is "message thread not found". */
  setTopics(chatId: number, on: boolean): void {
    const { state } = this.parts;
    const chat = state.chats.get(chatId);
    if (!chat) throw new Error(`no chat ${chatId}`);
    state.addChat({ ...chat, is_forum: on });
  }

  /** Privacy mode, as Telegram applies it to group messages. */
  private deliverable(chat: Chat, message: Message): boolean {
    const { state } = this.parts;
    if (chat.type === 'private' || !state.privacyMode) return true;
    if (message.entities?.some((e) => e.type === 'bot_command')) return true;
    if (message.reply_to_message?.from?.id === state.bot.id) return true;
    if (new RegExp(`@${state.bot.username}\\b`, 'i').test(message.text ?? '')) return true;
    const status = state.statusOf(chat.id, state.bot.id);
    return status === 'administrator' || status === 'creator';
  }

  /** A group admin deletes one of the bot's messages (no update for that either): a later edit finds no message. */
  deleteSent(chatId: number, messageId: number): void {
    const m = this.parts.state.sentMessage(chatId, messageId);
    if (!m) throw new Error(`deleteSent: the bot sent no message ${messageId} in ${chatId}`);
    m.deleted = true;
  }

  /** A user deletes their message (bots get no update for that); a later reply to it finds no message. */
  deleteIncoming(chatId: number, messageId: number): void {
    this.parts.state.forgetIncoming(chatId, messageId);
  }

  /**
   * A user edits their message: an `edited_message` update, delivered only if the bot asked
   * for it in allowed_updates (Telegram sends it by default otherwise). Privacy mode applies as to new messages.
   */
  editText(input: { chat: FakeChat; messageId: number; text: string; from?: FakeUser }): Update | undefined {
    const { state } = this.parts;
    const old = state.incomingMessage(input.chat.id, input.messageId);
    if (!old) throw new Error(`no message ${input.messageId} in chat ${input.chat.id} to edit`);
    const edited: Message = { ...old, text: input.text, edit_date: unixNow() };
    state.recordIncoming(edited);
    if (!this.deliverable(old.chat, edited)) return undefined;
    return this.parts.updates.push({ edited_message: edited });
  }

  /** BotFather /setprivacy: true (the default) hides ordinary group messages from the bot. */
  setPrivacy(on: boolean): void {
    this.parts.state.privacyMode = on;
  }

  /**
   * A user types into the reply field a forced reply opened for them: a reply to
   * the latest bot message asking them. With `selective`, Telegram opens it only
   * for users the message mentions (or whose message it replies to); anyone else
   * has no such field, so this throws for them, as their app would not offer it.
   * `senderChat` posts it as the group (an anonymous admin).
   */
  answerForceReply(input: { chat: FakeChat; from: FakeUser; text: string; senderChat?: FakeChat }): Update | undefined {
    const { state } = this.parts;
    const asking = state
      .sentIn(input.chat.id)
      .filter((m) => !m.deleted && m.reply_markup?.force_reply === true)
      .findLast((m) => {
        if (m.reply_markup?.selective !== true) return true;
        const named = (m.entities ?? []).some(
          (e) =>
            (e.type === 'text_link' && e.url === `tg://user?id=${input.from.id}`) ||
            (e.type === 'text_mention' && (e as { user?: { id?: number } }).user?.id === input.from.id),
        );
        const repliedTo =
          m.reply_to_message_id !== undefined &&
          state.incomingMessage(input.chat.id, m.reply_to_message_id)?.from?.id === input.from.id;
        return named || repliedTo;
      });
    if (!asking) throw new Error(`no forced reply asks user ${input.from.id} in chat ${input.chat.id}`);
    return this.sendText({
      chat: input.chat,
      from: input.from,
      text: input.text,
      replyToMessageId: asking.message_id,
      ...(asking.message_thread_id !== undefined && asking.isTopic ? { threadId: asking.message_thread_id } : {}),
      ...(input.senderChat ? { senderChat: input.senderChat } : {}),
    });
  }

  /** A user presses an inline button; throws unless the message currently shows a button with that data. */
  pressButton(input: {
    chatId: number;
    messageId: number;
    data: string;
    from?: FakeUser;
    unchecked?: boolean;
  }): string {
    const { state } = this.parts;
    const message = state.sentMessage(input.chatId, input.messageId);
    if (!message || message.deleted) throw new Error(`no bot message ${input.messageId} in chat ${input.chatId}`);
    const buttons = message.reply_markup?.inline_keyboard?.flat() ?? [];
    if (!input.unchecked && !buttons.some((b) => b.callback_data === input.data)) {
      throw new Error(`message ${input.messageId} has no button with callback_data ${JSON.stringify(input.data)}`);
    }
    const chat = state.chats.get(input.chatId);
    const fromInput =
      input.from ?? (chat?.type === 'private' ? { id: input.chatId, first_name: 'Tester' } : DEFAULT_GROUP_USER);
    const from = state.addUser({ language_code: 'en', ...fromInput, is_bot: false });
    const id = String(7_000_000_000_000_000n + BigInt(++this.callbackCounter));
    state.callbacks.set(id, { created: this.parts.now(), answered: false });
    this.parts.updates.push({
      callback_query: {
        id,
        from,
        message: toMessage(state, message),
        chat_instance: `ci${input.chatId}`,
        data: input.data,
      },
    });
    return id;
  }

  /**
   * A user types `@bot <query>` in some chat. Delivered only when inline mode is on
   * (BotFather /setinline); returns the query id, or undefined when not delivered.
   */
  sendInlineQuery(input: {
    query: string;
    from?: FakeUser;
    chatType?: 'sender' | 'private' | 'group' | 'supergroup';
  }): string | undefined {
    const { state } = this.parts;
    if (!state.inlineMode) return undefined;
    const from = state.addUser({ ...(input.from ?? DEFAULT_GROUP_USER), is_bot: false, language_code: 'en' });
    const id = String(8_000_000_000_000_000n + BigInt(++this.callbackCounter));
    state.inline.queries.set(id, { created: this.parts.now(), answered: false });
    this.parts.updates.push({
      inline_query: { id, from, query: input.query, offset: '', chat_type: input.chatType ?? 'sender' },
    });
    return id;
  }

  /** Resolves with the bot's accepted answer to an inline query. */
  waitForInlineAnswer(id: string, timeoutMs = PATIENCE_MS): Promise<InlineAnswer> {
    return this.waitFor(
      () => this.parts.state.inline.answers.find((a) => a.inline_query_id === id),
      timeoutMs,
      () => `no answer to inline query ${id} within ${timeoutMs} ms`,
    );
  }

  /** BotFather /setinline on or off. */
  setInline(on: boolean): void {
    this.parts.state.inlineMode = on;
  }

  /** Answers the bot gave to one button press (normally exactly one). */
  answersFor(callbackQueryId: string): CallbackAnswer[] {
    return this.parts.state.callbackAnswers.filter((a) => a.callback_query_id === callbackQueryId);
  }

  /** Every answerCallbackQuery accepted, in order. */
  get callbackAnswers(): readonly CallbackAnswer[] {
    return this.parts.state.callbackAnswers;
  }

  /** The bot's messages in a chat, oldest first, with current content and edit history (deleted ones flagged). */
  messages(chatId: number): SentMessage[] {
    return [...this.parts.state.sentIn(chatId)];
  }

  /**
   * Resolves with the oldest bot message in the chat that matches and that no earlier
   * waitForMessage returned, so successive calls walk through the replies in order.
   */
  waitForMessage(
    chatId: number,
    predicate: (m: SentMessage) => boolean = () => true,
    timeoutMs = PATIENCE_MS,
  ): Promise<SentMessage> {
    return this.waitFor(
      () => {
        const hit = this.parts.state.sentIn(chatId).find((m) => !this.delivered.has(m) && predicate(m));
        if (hit) this.delivered.add(hit);
        return hit;
      },
      timeoutMs,
      () =>
        `no new bot message in chat ${chatId} matched within ${timeoutMs} ms; bot messages there: ${JSON.stringify(this.messages(chatId).map((m) => m.text))}`,
    );
  }

  /** Resolves with a bot message once it has an edit (not returned before) that matches. */
  waitForEdit(
    chatId: number,
    predicate: (m: SentMessage, edit: MessageVersion) => boolean = () => true,
    timeoutMs = PATIENCE_MS,
  ): Promise<SentMessage> {
    return this.waitFor(
      () => {
        for (const m of this.parts.state.sentIn(chatId)) {
          const edit = m.edits.find((e) => !this.delivered.has(e) && predicate(m, e));
          if (edit) {
            this.delivered.add(edit);
            return m;
          }
        }
        return undefined;
      },
      timeoutMs,
      () => `no new edit in chat ${chatId} matched within ${timeoutMs} ms`,
    );
  }

  /**
   * Sets a member's status (and, for an admin, rights that differ from the defaults: a channel
   * admin without `can_post_messages`); for the bot itself this also delivers my_chat_member,
   * as Telegram does on a kick, a promotion or a change of rights.
   */
  setMember(chatId: number, userId: number, status: MemberStatus, rights?: Record<string, boolean>): void {
    const { state } = this.parts;
    if (!state.chats.has(chatId)) this.addChat({ id: chatId, type: chatId < 0 ? 'group' : 'private' });
    const user =
      userId === this.botId
        ? state.bot
        : (state.users.get(userId) ?? state.addUser({ id: userId, is_bot: false, first_name: `User ${userId}` }));
    const old = state.statusOf(chatId, userId);
    const key = `${chatId}:${userId}`;
    const oldRights = state.rights.get(key);
    state.setStatus(chatId, userId, status);
    if (rights) state.rights.set(key, rights);
    else state.rights.delete(key);
    if (userId === this.botId && (old !== status || JSON.stringify(oldRights) !== JSON.stringify(rights))) {
      const from = state.addUser({ ...DEFAULT_GROUP_USER, is_bot: false });
      const chat = state.chats.get(chatId)!;
      const channel = chat.type === 'channel';
      this.parts.updates.push({
        my_chat_member: {
          chat,
          from,
          date: unixNow(),
          old_chat_member: memberObject(old, user, channel, oldRights),
          new_chat_member: memberObject(status, user, channel, rights),
        },
      });
    }
  }

  /** Declares a broadcast channel (only admins post there: see postInChannel). */
  addChannel(channel: SenderChannel): Chat {
    return this.parts.state.addChat({
      title: `Channel ${channel.id}`,
      ...this.parts.state.chats.get(channel.id),
      ...channel,
    });
  }

  /** Links a discussion group to a channel: each post is then forwarded there by Telegram (is_automatic_forward). */
  linkDiscussion(channelId: number, groupId: number): void {
    this.parts.state.discussion.set(channelId, groupId);
  }

  /**
   * An admin posts in a channel: a `channel_post` (sender_chat the channel, no `from`), which
   * Telegram delivers only while the bot is an admin there and only when allowed_updates names
   * it (or is empty). A linked discussion group gets the post too, as a message from the
   * "Telegram" account (777000) with `is_automatic_forward`. Returns the channel_post update,
   * undefined when the bot is no admin there.
   */
  postInChannel(input: { channel: SenderChannel; text: string }): Update | undefined {
    const { state } = this.parts;
    const chat = state.addChat({
      title: `Channel ${input.channel.id}`,
      ...state.chats.get(input.channel.id),
      ...input.channel,
    });
    const entities = commandEntities(input.text);
    const post: Message = {
      message_id: state.nextMessageId(chat.id),
      sender_chat: { ...chat },
      chat,
      date: unixNow(),
      text: input.text,
      ...(entities.length ? { entities } : {}),
    };
    state.recordIncoming(post);
    const groupId = state.discussion.get(chat.id);
    if (groupId !== undefined) {
      const group = state.chats.get(groupId) ?? this.addChat({ id: groupId, type: 'supergroup' });
      const forward: Message = {
        message_id: state.nextMessageId(groupId),
        from: state.addUser({ id: 777000, is_bot: false, first_name: 'Telegram' }),
        sender_chat: { ...chat },
        chat: group,
        date: post.date,
        text: input.text,
        ...(entities.length ? { entities } : {}),
        is_automatic_forward: true,
        forward_origin: { type: 'channel', chat: { ...chat }, message_id: post.message_id, date: post.date },
      };
      state.recordIncoming(forward);
      this.parts.updates.push({ message: forward });
    }
    const status = state.statusOf(chat.id, state.bot.id);
    if (status !== 'administrator' && status !== 'creator') return undefined;
    return this.parts.updates.push({ channel_post: post });
  }

  /** Makes requests about this chat fail like Telegram (or the network) would; `count` limits how many. */
  failChat(chatId: number, kind: FailureKind, opts: { count?: number } = {}): void {
    this.parts.state.fail(chatId, kind, opts.count ?? Infinity);
  }

  /** Removes injected failures (for one chat, or all). */
  clearFailures(chatId?: number): void {
    this.parts.state.clearFailures(chatId);
  }

  /** The next `count` sends (to `chatId`, or anywhere) get 429 retry_after; without chatId the window is global. */
  force429(opts: { count: number; retryAfter: number; chatId?: number }): void {
    this.parts.limiter.force(opts.count, opts.retryAfter, opts.chatId);
  }

  /** Paid broadcasts: sets the bot's Stars balance (and, when given, whether the bot is eligible). */
  setStars(stars: number, eligible?: boolean): void {
    this.parts.limiter.tenths = Math.round(stars * 10);
    if (eligible !== undefined) this.parts.limiter.eligible = eligible;
  }

  /** The bot's Stars balance left (0.1 less for each paid send accepted). */
  get stars(): number {
    return this.parts.limiter.tenths / 10;
  }

  /** Paid sends accepted (and charged). */
  get paidSends(): number {
    return this.parts.limiter.paidSends;
  }

  /** Forgets flood-control windows and forced 429s, e.g. between benchmark phases. */
  resetRateLimits(): void {
    this.parts.limiter.reset();
  }

  /**
   * Moves the fake's clock (flood windows, callback query expiry, log times) forward by `ms`
   * real milliseconds (a retry_after N window lasts N * 1000 * timeScale), so a test can let
   * a window expire without sleeping; long-poll timeouts stay real time.
   */
  advanceClock(ms: number): void {
    this.parts.advanceClock(ms);
  }

  /** Upgrades a group: service messages in both chats, and the old id then answers migrate_to_chat_id. */
  migrateGroup(oldId: number, newId: number): Update[] {
    const { state } = this.parts;
    const old = state.chats.get(oldId) ?? this.addChat({ id: oldId, type: 'group' });
    const next = state.addChat({ id: newId, type: 'supergroup', ...(old.title ? { title: old.title } : {}) });
    state.copyStatuses(oldId, newId);
    const from = state.addUser({ ...DEFAULT_GROUP_USER, is_bot: false });
    const date = unixNow();
    const updates = [
      this.parts.updates.push({
        message: { message_id: state.nextMessageId(oldId), from, chat: old, date, migrate_to_chat_id: newId },
      }),
      this.parts.updates.push({
        message: { message_id: state.nextMessageId(newId), from, chat: next, date, migrate_from_chat_id: oldId },
      }),
    ];
    state.fail(oldId, { migrateTo: newId }, Infinity);
    return updates;
  }

  /** Queues any update shape the helpers above do not cover. */
  pushUpdate(body: Omit<Update, 'update_id'>): Update {
    return this.parts.updates.push(body);
  }

  /** Every request received: method, chat_id, HTTP status (0 = dropped), time in ms since start. */
  get requests(): readonly RequestLogEntry[] {
    return this.parts.log;
  }

  /** Sends that arrived while a 429 window was open: a correct client produces none. */
  get violations(): readonly Violation[] {
    return this.parts.limiter.violations;
  }

  /** The last setMyCommands list for the default scope and no language (undefined before any). */
  get commands(): BotCommand[] | undefined {
    return this.parts.state.commands.get('default|||');
  }

  /**
   * The menu a user sees in a chat, as Telegram picks it: the narrowest scope set for them,
   * each scope in the user's language first, then without one. In a group: chat_member,
   * chat_administrators (admins), chat, all_chat_administrators (admins), all_group_chats,
   * default; in a private chat: chat, all_private_chats, default.
   */
  menuFor(input: { chatId: number; userId: number; languageCode?: string }): BotCommand[] {
    const { state } = this.parts;
    const { chatId, userId } = input;
    const status = state.statusOf(chatId, userId);
    const admin = status === 'administrator' || status === 'creator';
    const scopes =
      chatId === userId
        ? [`chat|${chatId}|`, 'all_private_chats||', 'default||']
        : [
            `chat_member|${chatId}|${userId}`,
            ...(admin ? [`chat_administrators|${chatId}|`] : []),
            `chat|${chatId}|`,
            ...(admin ? ['all_chat_administrators||'] : []),
            'all_group_chats||',
            'default||',
          ];
    for (const scope of scopes)
      for (const lang of [input.languageCode ?? '', ''].filter((l, i) => i === 1 || l !== '')) {
        const hit = state.commands.get(`${scope}|${lang}`);
        if (hit) return hit;
      }
    return [];
  }

  /** Command lists by "scopeType|chat_id|user_id|language_code", for scoped registrations. */
  get allCommands(): ReadonlyMap<string, BotCommand[]> {
    return this.parts.state.commands;
  }

  /** The bot's descriptions by language_code ('' = default), as set with setMyDescription / setMyShortDescription. */
  get descriptions(): { readonly long: ReadonlyMap<string, string>; readonly short: ReadonlyMap<string, string> } {
    return { long: this.parts.state.descriptions, short: this.parts.state.shortDescriptions };
  }

  /** getUpdates requests currently held open: lets tests see that a bot is really long polling. */
  get pendingPolls(): number {
    return this.parts.updates.pendingPolls;
  }

  /** Updates not yet confirmed by the bot's offset. */
  get unconfirmedUpdates(): readonly Update[] {
    return this.parts.updates.queued;
  }

  /**
   * The server ends its idle kept-alive connections now (each gets a FIN): a client that writes on one
   * in the same turn of its event loop has not read the close yet.
   */
  closeIdleConnections(): void {
    this.parts.server.closeIdleConnections();
  }

  /** Each open connection's idle time in real ms; undefined while it carries a request (see `keepAlive`). */
  connectionIdleTimes(): (number | undefined)[] {
    return this.parts.connections.idleTimes();
  }

  /** Requests that came on a connection the server had ended (`keepAlive`): never read, never answered. */
  get closedOnReuse(): number {
    return this.parts.connections.closedOnReuse;
  }

  /** Exceptions inside the fake itself (answered as 500): should stay empty. */
  get internalErrors(): readonly unknown[] {
    return this.parts.internalErrors;
  }

  /** Ends held polls and waits, drops keep-alive sockets and stops the server; safe to call twice. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      for (const cancel of this.cancels) cancel(new Error('telegram fake closed'));
      this.parts.updates.releaseAll();
      this.parts.server.close(() => resolve());
      this.parts.server.closeAllConnections();
    });
    return this.closing;
  }

  private waitFor<T>(check: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    const first = check();
    if (first !== undefined) return Promise.resolve(first);
    return new Promise<T>((resolve, reject) => {
      const finish = (): void => {
        off();
        clearTimeout(timer);
        this.cancels.delete(cancel);
      };
      const cancel = (err: Error): void => {
        finish();
        reject(err);
      };
      const off = this.parts.state.onChange(() => {
        const hit = check();
        if (hit === undefined) return;
        finish();
        resolve(hit);
      });
      const timer = setTimeout(() => cancel(new Error(describe())), timeoutMs);
      this.cancels.add(cancel);
    });
  }
}
