/**
 * Automatic cards on Telegram: a message with a token address or link gets one
 * threaded reply (core/autocard.ts decides what, or silence). Registered before
 * the command handlers; commands pass through to them.
 *
 * With privacy mode on (the default), Telegram delivers only commands, replies
 * to the bot and mentions in groups, so pastes there arrive only when the bot
 * is an admin or privacy mode is off (`/autocard` says which to change).
 */
import type { Bot, Context } from 'grammy';
import type { Logger } from 'pino';
import type { AutoCards } from '../../core/autocard.ts';
import { toTelegramHtml } from '../../views/render/telegram.ts';
import { sendRendered } from './send.ts';
import { senderKey } from '../../core/budget.ts';
import { topicOf } from './transport.ts';
import type { MemberRef } from '../../store/calls.ts';

export function installAutoCards(bot: Bot, d: { autoCards: AutoCards; log: Logger }): void {
  bot.on(['message:text', 'message:caption'], async (ctx, next) => {
    if (isCommand(ctx) || !worthReading(ctx)) return next();
    const msg = ctx.message!;
    const threadId = topicOf(msg);
    // The chat's /language, else the language of whoever pasted (their app's).
    const view = await d.autoCards.forText(msg.text ?? msg.caption ?? '', {
      platform: 'telegram',
      chatId: String(msg.chat.id),
      ...(threadId ? { threadId } : {}),
      // Anonymous admins and posts as a channel share one account: each such chat pays for itself.
      sender: senderKey('telegram', String(msg.from?.id ?? msg.chat.id), msg.sender_chat && String(msg.sender_chat.id)),
      ...(msg.from?.language_code ? { locale: msg.from.language_code } : {}),
      messageId: String(msg.message_id),
      ...(memberOf(msg) ? { member: memberOf(msg)! } : {}),
    });
    if (!view) return;
    try {
      // allow_sending_without_reply: a paste deleted meanwhile still gets its card, unthreaded, not an error.
      await sendRendered(ctx.api, msg.chat.id, toTelegramHtml(view), d.log, { replyTo: msg.message_id, threadId });
    } catch (err) {
      // Nobody asked: a failed automatic card is logged, never followed by an error message.
      d.log.warn({ chat: msg.chat.id, err }, 'telegram: automatic card not sent');
    }
  });
}

/** The person a call is credited to: never a bot, an anonymous admin or a post as a channel. */
export function memberOf(m: {
  from?: { id: number; is_bot: boolean; username?: string; first_name: string; last_name?: string };
  sender_chat?: unknown;
}): MemberRef | undefined {
  const u = m.from;
  if (!u || u.is_bot || m.sender_chat !== undefined) return undefined;
  const full = [u.first_name, u.last_name].filter(Boolean).join(' ').trim();
  return {
    id: String(u.id),
    name: u.username ? `@${u.username}` : full || String(u.id),
    ...(u.username ? { handle: u.username.toLowerCase() } : {}),
  };
}

function isCommand(ctx: Context): boolean {
  const m = ctx.message!;
  const entities = m.entities ?? m.caption_entities ?? [];
  return entities.some((e) => e.type === 'bot_command' && e.offset === 0);
}

/**
 * People pasting, not bots. A message posted as a chat (`sender_chat`) comes
 * from an account Telegram marks as a bot (GroupAnonymousBot for the group's
 * anonymous admins, Channel_Bot for a member posting as their channel), yet a
 * person wrote it: official contract announcements are often posted that way.
 * Other bots, and our own inline results (sent "via" us), are ignored. Channel
 * posts are not read (only commands there), nor their automatic forwards.
 */
function worthReading(ctx: Context): boolean {
  const m = ctx.message!;
  // A channel's post forwarded into its discussion group: the channel said it, nobody pasted it here.
  if (m.via_bot || m.is_automatic_forward) return false;
  return m.sender_chat !== undefined || !m.from?.is_bot;
}
