/**
 * The bot's own membership (my_chat_member): removed from a chat, blocked in a
 * private one, demoted in a channel or left without the right to post, it
 * stops that chat's alerts, every forum topic's included, at once rather than
 * after a failed send (every refused request counts against the bot). Getting
 * the right back changes nothing stored: an admin subscribes again.
 */
import type { Bot } from 'grammy';
import type { ChatMemberUpdated } from 'grammy/types';
import type { Logger } from 'pino';
import { disableChat } from '../../alerts/subscriptions.ts';
import type { SubscriptionStore } from '../../store/subscriptions.ts';

/** Why the bot can no longer post in the chat after this change; undefined while it can. */
export function cannotPost(u: ChatMemberUpdated): string | undefined {
  const m = u.new_chat_member;
  if (m.status === 'kicked') return 'the bot was removed or blocked';
  if (m.status === 'left') return 'the bot left the chat';
  if (u.chat.type === 'channel') {
    // Only a channel's admins post there, and only with that right.
    if (m.status !== 'administrator' && m.status !== 'creator') return 'the bot is no longer an admin of the channel';
    if (m.status === 'administrator' && m.can_post_messages === false) return 'the bot may not post in the channel';
  }
  if (m.status === 'restricted' && !m.can_send_messages) return 'the bot may not send messages in the chat';
  return undefined;
}

export function installMembership(bot: Bot, d: { readonly subscriptions: SubscriptionStore; readonly log: Logger }) {
  bot.on('my_chat_member', async (ctx) => {
    const u = ctx.myChatMember;
    const reason = cannotPost(u);
    if (!reason) return;
    const stopped = await disableChat(d.subscriptions, 'telegram', String(u.chat.id), reason, Date.now());
    if (stopped.length)
      d.log.info(
        { chat: u.chat.id, subs: stopped, status: u.new_chat_member.status, reason },
        'telegram: alerts stopped',
      );
  });
}
