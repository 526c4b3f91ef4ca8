/**
 * Values a button asks for, on Telegram: a forced reply, selective to the admin
 * who pressed (named by a mention link, so only their app opens the reply
 * field), remembered in the page store under the question's message. A reply to
 * it from that admin, or from the group itself (an anonymous admin), is the
 * value; anyone else's reply is left alone. A refused value is said in reply and
 * the question stays open; a taken one edits the panel and removes the question.
 */
import type { Api, Context } from 'grammy';
import type { Message, User } from 'grammy/types';
import type { Logger } from 'pino';
import type { Dispatcher, RunOptions } from '../../core/dispatch.ts';
import type { Ask } from '../../domain/view.ts';
import type { T } from '../../i18n/index.ts';
import type { Store } from '../../store/index.ts';
import { escapeHtml, toTelegramHtml } from '../../views/render/telegram.ts';
import { cut } from '../../views/text.ts';
import type { AdminCheck } from './admin.ts';
import { editRendered, sendRendered } from './send.ts';
import { topicOf } from './transport.ts';

/** Telegram's limit for the hint in the reply field. */
export const PLACEHOLDER_MAX = 64;
/** As long as the panel's buttons live (the dispatcher's default). */
const PROMPT_TTL_MS = 30 * 60_000;
const NAME_MAX = 64;

const where = (chatId: number, messageId: number) => `telegram:${chatId}:${messageId}`;

export interface PromptDeps {
  readonly dispatcher: Dispatcher;
  readonly store: Store;
  readonly log: Logger;
  readonly admins: AdminCheck;
}

/** Asks `from` for the value behind `action`, pressed on the panel `panel`. */
export async function askByReply(
  api: Api,
  d: PromptDeps,
  panel: Pick<Message, 'chat' | 'message_id' | 'is_topic_message' | 'message_thread_id'>,
  from: User,
  action: string,
  ask: Ask,
  t: T,
): Promise<void> {
  const threadId = topicOf(panel);
  const who = `<a href="tg://user?id=${from.id}">${escapeHtml(cut(from.first_name, NAME_MAX))}</a>`;
  const question = t('settings.askReply', { title: ask.title, value: ask.value || '—', example: ask.example });
  const sent = await api.sendMessage(panel.chat.id, `${who}, ${escapeHtml(question)}\n<i>${escapeHtml(ask.hint)}</i>`, {
    parse_mode: 'HTML',
    reply_markup: {
      force_reply: true,
      selective: true,
      input_field_placeholder: cut(ask.example, PLACEHOLDER_MAX),
    },
    ...(threadId ? { message_thread_id: Number(threadId) } : {}),
  });
  await d.store.pages.putPrompt(
    where(panel.chat.id, sent.message_id),
    { action, userId: String(from.id), panel: panel.message_id },
    PROMPT_TTL_MS,
  );
}

/**
 * A message that may answer one of our questions. True when it did (and was
 * dealt with); false for anything else, which then goes on as an ordinary message.
 */
export async function answerPrompt(
  ctx: Context,
  d: PromptDeps,
  run: RunOptions,
  callerOf: (m: Message, asGroup: boolean) => Parameters<Dispatcher['action']>[1],
): Promise<boolean> {
  const m = ctx.message;
  const asked = m?.reply_to_message;
  if (!m || m.text === undefined || !asked || asked.from?.id !== ctx.me.id) return false;
  const key = where(m.chat.id, asked.message_id);
  const p = await d.store.pages.getPrompt(key);
  if (!p) return false;
  // Only admins can post as the group itself.
  const asGroup = m.sender_chat?.id === m.chat.id;
  if (!asGroup && String(m.from?.id) !== p.userId) return false;
  const threadId = topicOf(m);
  const view = await d.dispatcher.action(p.action, callerOf(m, asGroup), { ...run, answer: m.text });
  if (view.kind === 'error') {
    // The admin asked: the refusal answers them, and the question stays open for another try.
    await sendRendered(ctx.api, m.chat.id, toTelegramHtml(view), d.log, { replyTo: m.message_id, threadId });
    return true;
  }
  await d.store.pages.dropPrompt(key);
  await editRendered(ctx.api, m.chat.id, p.panel, false, toTelegramHtml(view), d.log, { threadId });
  await ctx.api.deleteMessage(m.chat.id, asked.message_id).catch((err: unknown) => {
    d.log.debug({ err }, 'telegram: answered question not deleted');
  });
  return true;
}
