/**
 * Updates -> dispatcher -> replies. Commands answer with a new message, in the
 * forum topic they were asked in; in groups it is a reply to the asker (in a
 * private chat only errors are). Buttons replace the message they sit on, and
 * every button press is answered, whatever happens.
 */
import { GrammyError, type Api, type Bot, type Context } from 'grammy';
import type { Chat, Message, User } from 'grammy/types';
import type { Logger } from 'pino';
import type { Caller } from '../../core/command.ts';
import { asks, isAction, opensNew } from '../../core/actions.ts';
import type { Dispatcher, RunOptions } from '../../core/dispatch.ts';
import type { Store } from '../../store/index.ts';
import type { View } from '../../domain/view.ts';
import { pickLocale, translator, type T } from '../../i18n/index.ts';
import { toTelegramHtml, type TelegramMessage } from '../../views/render/telegram.ts';
import { cut } from '../../views/text.ts';
import type { AdminCheck } from './admin.ts';
import { fallbackHelp, greet, parseCommand, type ParsedCommand } from './commands.ts';
import { migrateSubscription } from './migrate.ts';
import { answerPrompt, askByReply } from './prompt.ts';
import { editRendered, sendRendered } from './send.ts';
import { isChatGone, migrateToOf, topicOf, topicRefusal } from './transport.ts';
import { chatLocale } from '../../core/language.ts';
import { memberOf } from './autocard.ts';
import { installMembership } from './membership.ts';

export interface HandlerDeps {
  readonly dispatcher: Dispatcher;
  readonly store: Store;
  readonly log: Logger;
  readonly admins: AdminCheck;
  /** Refusals already answered in a group this minute (absent: every refusal is answered). */
  readonly refusals?: RepeatedRefusals;
}

/**
 * A group's refusals answered once a minute each: members repeating admin commands get one
 * "only admins" between them, not twenty messages of the group's twenty a minute.
 */
export class RepeatedRefusals {
  /** `chat\ntext` -> when it was answered; in answer order, so expired ones are at the front. */
  private readonly answered = new Map<string, number>();
  private readonly windowMs: number;
  private readonly now: () => number;
  constructor(windowMs: number, now: () => number = () => performance.now()) {
    this.windowMs = windowMs;
    this.now = now;
  }

  /** True when `text` was not refused in `chatId` within the window (and now is). */
  first(chatId: number, text: string): boolean {
    const t = this.now();
    for (const [k, at] of this.answered) {
      if (t - at < this.windowMs) break;
      this.answered.delete(k);
    }
    const key = `${chatId}\n${text}`;
    if (this.answered.has(key)) return false;
    this.answered.set(key, t);
    return true;
  }
}

const CALLBACK_TEXT_MAX = 200;
const RUN: RunOptions = { capabilities: { pictures: true, buttons: true } };

export function installHandlers(bot: Bot, d: HandlerDeps): void {
  bot.on('message', async (ctx, next) => {
    const m = ctx.message;
    if (m.migrate_to_chat_id !== undefined)
      await migrateSubscription(d.store.subscriptions, String(m.chat.id), String(m.migrate_to_chat_id), d.log);
    else if (m.migrate_from_chat_id !== undefined)
      await migrateSubscription(d.store.subscriptions, String(m.migrate_from_chat_id), String(m.chat.id), d.log);
    else await next();
  });
  bot.on('message:text', (ctx) => onCommand(ctx, ctx.message, d));
  // In a channel only its admins post: a command there is an admin's, answered there; nothing else is read.
  bot.on('channel_post:text', (ctx) => onCommand(ctx, ctx.channelPost, d));
  bot.on('callback_query', (ctx) => onButton(ctx, d));
  installMembership(bot, { subscriptions: d.store.subscriptions, log: d.log });
}

/**
 * Answers to our forced replies (prompt.ts), before automatic cards or commands
 * read the message: a value typed for the panel is neither a paste nor chat noise.
 */
export function installPromptAnswers(bot: Bot, d: HandlerDeps): void {
  bot.on('message:text', async (ctx, next) => {
    const caller = (m: Message, asGroup: boolean) =>
      callerOf(m.chat, m.from, d.admins, asGroup, m.sender_chat, topicOf(m));
    if (!(await answerPrompt(ctx, d, RUN, caller))) await next();
  });
}

/** Who is asking, for the dispatcher; admin status is looked up only when a command needs it. */
export function callerOf(
  chat: Chat,
  from: User | undefined,
  admins: AdminCheck,
  anonymousAdmin = false,
  senderChat?: Chat,
  threadId?: string,
): Caller {
  const isPrivate = chat.type === 'private';
  const isChannel = chat.type === 'channel';
  // Only a channel's admins post there: a post (no user) is an admin's. A button pressed under a
  // channel post is anyone's who reads the channel, and is checked like a group member's.
  const channelPost = isChannel && from === undefined;
  const userId = from?.id;
  return {
    platform: 'telegram',
    userId: String(userId ?? chat.id),
    chatId: String(chat.id),
    ...(threadId ? { threadId } : {}),
    chatType: isPrivate ? 'private' : isChannel ? 'channel' : 'group',
    // A Telegram group is its own server: the per-server quota and server bans count it.
    ...(isPrivate ? {} : { serverId: String(chat.id) }),
    ...('title' in chat && chat.title ? { chatName: chat.title } : {}),
    ...(from?.language_code ? { locale: from.language_code } : {}),
    ...(senderChat ? { senderChatId: String(senderChat.id) } : {}),
    ...(from && !senderChat && memberOf({ from }) ? { member: memberOf({ from })! } : {}),
    canManage: async () =>
      isPrivate || channelPost || anonymousAdmin || (userId !== undefined && (await admins.isAdmin(chat.id, userId))),
    // From a private chat an admin manages a group's settings (the panel's deep link): Telegram is asked each time.
    ...(isPrivate && userId !== undefined
      ? { canManageChat: async (id: string) => admins.isAdmin(Number(id), userId) }
      : {}),
  };
}

/** `/start set_<chat>[_<thread>]`, the settings panel's deep link, as the command it stands for. */
const SETTINGS_LINK = /^\s*set_(-?\d{1,20})(?:_(\d{1,12}))?\s*$/;

function fromDeepLink(cmd: ParsedCommand, chat: Chat): ParsedCommand {
  const m = cmd.name === 'start' && chat.type === 'private' ? SETTINGS_LINK.exec(cmd.args) : null;
  return m ? { ...cmd, name: 'settings', args: ` for:${m[1]}${m[2] ? ` thread:${m[2]}` : ''}` } : cmd;
}

async function onCommand(ctx: Context, msg: Message, d: HandlerDeps): Promise<void> {
  // A channel's post that Telegram forwards into its discussion group is the channel's, not a command here.
  if (msg.is_automatic_forward) return;
  const typed = parseCommand(msg.text ?? '', msg.entities, ctx.me.username);
  if (!typed) return; // chat noise: never answered
  const cmd = fromDeepLink(typed, msg.chat);
  const registry = d.dispatcher.commands;
  const ours = registry.has(cmd.name) || cmd.name === 'start' || cmd.name === 'help';
  // In a group an unknown bare /name is most likely another bot's command.
  if (!ours && msg.chat.type !== 'private' && !cmd.addressed) return;
  // Only admins can post as the group itself ("anonymous admin").
  const threadId = topicOf(msg);
  const who = callerOf(msg.chat, msg.from, d.admins, msg.sender_chat?.id === msg.chat.id, msg.sender_chat, threadId);
  // In a forum topic every message "replies" to the topic's creation: that is no message to read.
  const replied = msg.reply_to_message?.forum_topic_created ? undefined : msg.reply_to_message;
  const repliedTo = replied ? memberOf(replied) : undefined;
  const caller = repliedTo ? { ...who, repliedTo } : who;
  const quoted = replied ? (replied.text ?? replied.caption ?? '') : undefined;
  // Ordinary group messages reach the bot with privacy mode off (getMe) or as an admin of the group: /autocard's advice.
  const me = ctx.me;
  const readsAllMessages = async () =>
    me.can_read_all_group_messages || (msg.chat.type !== 'private' && (await d.admins.isAdmin(msg.chat.id, me.id)));
  const privateLink = (payload: string) => `https://t.me/${me.username}?start=${payload}`;
  const capabilities = { ...RUN.capabilities!, readsAllMessages, privateLink };
  const view = await answerFor(cmd, caller, d, {
    capabilities,
    requestId: `telegram:${me.id}:${ctx.update.update_id}`,
    ...(quoted === undefined ? {} : { quoted }),
  });
  if (!view) return;
  if (
    view.kind === 'error' &&
    view.denied &&
    msg.chat.type !== 'private' &&
    d.refusals?.first(msg.chat.id, view.message) === false
  ) {
    d.log.debug({ chat: msg.chat.id }, 'telegram: a refusal repeated within the minute, not answered again');
    return;
  }
  // In a group the answer replies to the asker (whose answer is whose, in a busy chat); a private chat has one asker.
  const asked = { messageId: msg.message_id, threadId, asReply: msg.chat.type !== 'private' };
  await reply(ctx.api, msg.chat.id, asked, view, d.log, await chatText(d, caller));
}

async function answerFor(
  cmd: ParsedCommand,
  caller: Caller,
  d: HandlerDeps,
  run: RunOptions = RUN,
): Promise<View | undefined> {
  const registry = d.dispatcher.commands;
  if (cmd.name === 'start' && !registry.has('start')) {
    // The dispatcher answers /help in the chat's language; these fallbacks use the caller's.
    const t = translator(pickLocale(caller.locale));
    return greet(
      registry.has('help')
        ? ((await d.dispatcher.text('/help', caller, RUN)) ?? fallbackHelp(registry, t))
        : fallbackHelp(registry, t),
      await chatText(d, caller),
    );
  }
  if (cmd.name === 'help' && !registry.has('help'))
    return fallbackHelp(registry, translator(pickLocale(caller.locale)));
  return d.dispatcher.text(`/${cmd.name}${cmd.args}`, caller, run);
}

/** The chat's /language, else the caller's app language: what the dispatcher answers in. */
async function chatText(d: HandlerDeps, caller: Caller): Promise<T> {
  return translator(await chatLocale(d.store.languages, caller));
}

function render(view: View, log: Logger, t: T = translator('en')): TelegramMessage {
  try {
    return toTelegramHtml(view);
  } catch (err) {
    log.error({ err }, 'telegram: view could not be rendered');
    return toTelegramHtml({ kind: 'error', message: t('errors.failed') });
  }
}

/** The message a command came in: the answer goes to its topic, as a reply when `asReply` (errors always are). */
interface Asked {
  readonly messageId: number;
  readonly threadId: string | undefined;
  readonly asReply: boolean;
}

async function reply(api: Api, chatId: number, asked: Asked, view: View, log: Logger, t: T = translator('en')) {
  const m = render(view, log, t);
  const to = { replyTo: asked.messageId, threadId: asked.threadId };
  try {
    await sendRendered(api, chatId, m, log, asked.asReply || view.kind === 'error' ? to : { threadId: asked.threadId });
  } catch (err) {
    // A message Telegram refused (not the chat, not its topic, not a flood wait) still deserves a word.
    if (
      err instanceof GrammyError &&
      err.error_code === 400 &&
      !isChatGone(err) &&
      migrateToOf(err) === undefined &&
      topicRefusal(err) === undefined
    ) {
      await sendRendered(
        api,
        chatId,
        toTelegramHtml({ kind: 'error', message: t('telegram.notShown') }),
        log,
        to,
      ).catch(() => {});
    }
    throw err;
  }
}

/** The callback data of the buttons the pressed message shows (none when Telegram withholds the message). */
function callbackDataOf(msg: NonNullable<NonNullable<Context['callbackQuery']>['message']>): string[] {
  const rows = 'reply_markup' in msg ? (msg.reply_markup?.inline_keyboard ?? []) : [];
  return rows.flat().flatMap((b) => ('callback_data' in b && b.callback_data ? [b.callback_data] : []));
}

async function onButton(ctx: Context, d: HandlerDeps): Promise<void> {
  const q = ctx.callbackQuery!;
  const t = translator(pickLocale(q.from.language_code));
  let answered = false;
  const answer = async (text?: string): Promise<void> => {
    if (answered) return;
    answered = true;
    await ctx
      .answerCallbackQuery(text ? { text: cut(text, CALLBACK_TEXT_MAX), show_alert: true } : undefined)
      .catch((err: unknown) => d.log.debug({ err }, 'telegram: callback answer failed'));
  };
  try {
    const msg = q.message;
    if (!q.data || !isAction(q.data) || !msg) return await answer(t('errors.oldButton'));
    // Telegram does not check callback data against the message: a modified client can send any.
    // The pressed message's topic: the button was bound to it, and a new answer goes there.
    const threadId = topicOf(msg);
    const caller = callerOf(msg.chat, q.from, d.admins, false, undefined, threadId);
    if (asks(q.data)) {
      // A value is asked for first; the press itself changes nothing yet.
      const prompt = await d.dispatcher.prompt(q.data, caller, { buttonsOnMessage: callbackDataOf(msg) });
      if ('view' in prompt) return await answer(prompt.view.kind === 'error' ? prompt.view.message : undefined);
      await answer();
      return await askByReply(ctx.api, d, msg, q.from, q.data, prompt.ask, await chatText(d, caller));
    }
    const view = await d.dispatcher.action(q.data, caller, { ...RUN, buttonsOnMessage: callbackDataOf(msg) });
    // A refusal or an expired button is a notice on the button; the message keeps what it showed.
    if (view.kind === 'error') return await answer(view.message);
    await answer();
    if (opensNew(q.data)) {
      // A button on an alert answers with a new message; the alert stays as it was for the group.
      await sendRendered(ctx.api, msg.chat.id, render(view, d.log), d.log, { replyTo: msg.message_id, threadId });
      return;
    }
    const wasPhoto = 'photo' in msg && Array.isArray(msg.photo) && msg.photo.length > 0;
    await editRendered(ctx.api, msg.chat.id, msg.message_id, wasPhoto, render(view, d.log), d.log, { threadId });
  } catch (err) {
    await answer(t('errors.failed'));
    throw err;
  } finally {
    await answer();
  }
}
