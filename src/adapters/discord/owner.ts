/**
 * The owner's console on Discord: typed in the bot's DM as a plain message
 * (`/owner stats`), never registered as a slash command, so nobody else sees
 * it in Discord's picker. Only the owners' DM messages reach the dispatcher
 * here; anyone else's `/owner` is treated like any other text (no answer).
 */
import { Events, type Client, type Message } from 'discord.js';
import type { Logger } from 'pino';
import type { Dispatcher } from '../../core/dispatch.ts';
import { idOf } from '../../core/owner.ts';
import { toDiscordPayload } from '../../views/render/discord.ts';
import { NO_MENTIONS, replyOptions } from './payload.ts';

const OWNER_LINE = /^\/owner(?:\s|$)/i;

export function installOwnerMessages(client: Client, d: { dispatcher: Dispatcher; log: Logger }): void {
  client.on(Events.MessageCreate, (m) => {
    if (m.author.bot || m.inGuild() || !OWNER_LINE.test(m.content)) return;
    if (!d.dispatcher.owners.has(idOf('discord', m.author.id))) return;
    void answer(m, d).catch((err: unknown) => d.log.warn({ err }, 'owner console answer failed'));
  });
}

async function answer(m: Message, d: { dispatcher: Dispatcher }): Promise<void> {
  const view = await d.dispatcher.text(m.content, {
    platform: 'discord',
    userId: m.author.id,
    chatId: m.channelId,
    chatType: 'private',
    canManage: async () => true,
  });
  if (!view) return;
  const { flags: _flags, ...payload } = replyOptions(toDiscordPayload(view));
  await m.reply({ ...payload, allowedMentions: { ...NO_MENTIONS, repliedUser: false }, failIfNotExists: false });
}
