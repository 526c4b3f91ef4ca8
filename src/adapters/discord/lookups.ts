/**
 * Cards without a slash command on Discord:
 * - the "Token card" message command (right-click a message → Apps): Discord
 *   sends the message with the interaction, so it works without the Message
 *   Content intent, in servers, DMs and (user install) anywhere;
 * - automatic cards for pastes: in DMs and in messages that mention the bot
 *   always, in the rest of a server only with the privileged Message Content
 *   intent (DISCORD_MESSAGE_CONTENT=true), because without it Discord sends
 *   guild messages with empty content.
 */
import { Events, type Client, type Message, type MessageContextMenuCommandInteraction } from 'discord.js';
import type { Logger } from 'pino';
import type { AutoCards } from '../../core/autocard.ts';
import { findTokenRefs } from '../../core/detect.ts';
import { pickLocale, translator } from '../../i18n/index.ts';
import { toDiscordPayload } from '../../views/render/discord.ts';
import { answerDeferred } from './interactions.ts';
import { callerFor } from './caller.ts';
import { senderKey } from '../../core/budget.ts';
import type { MemberRef } from '../../store/calls.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import { ignored } from '../../core/owner.ts';
import type { OwnerStore } from '../../store/owner.ts';
import type { View } from '../../domain/view.ts';
import { NO_MENTIONS, replyOptions } from './payload.ts';

/** The text a message offers: its content and what its embeds say (links unfurled by Discord, other bots' cards). */
function textOf(m: Message): string {
  const parts = [m.content];
  for (const e of m.embeds)
    parts.push(e.url ?? '', e.title ?? '', e.description ?? '', ...e.fields.map((f) => f.value));
  return parts.filter(Boolean).join('\n');
}

/**
 * "Token card": counted as a command (the per-user limit), then the channel's
 * card cap and the asker's lookup budget; a refusal is private and immediate,
 * and only a lookup that passed them all is deferred and may answer publicly.
 */
export async function handleTokenCard(
  i: MessageContextMenuCommandInteraction,
  d: { autoCards: AutoCards; dispatcher: Dispatcher; log: Logger; signal: AbortSignal },
): Promise<void> {
  const text = textOf(i.targetMessage);
  const refuse = (view: View) => i.reply(replyOptions(toDiscordPayload(view)));
  // Nothing to look up: a private hint at once, without counting or an upstream call.
  if (!findTokenRefs(text, 1).length)
    return void (await refuse({
      kind: 'error',
      message: translator(pickLocale(i.locale))('lookup.messageCommandNothing'),
    }));
  const limited = await d.dispatcher.admit(callerFor(i));
  if (limited) return void (await refuse(limited));
  const plan = await d.autoCards.explicit(text, {
    platform: 'discord',
    chatId: i.channelId,
    locale: i.locale,
    sender: senderKey('discord', i.user.id),
  });
  if ('refused' in plan) return void (await refuse(plan.refused));
  const deferred = i.deferReply();
  const view = await plan.run(d.signal);
  await deferred;
  await answerDeferred(i, view, d.log);
}

/**
 * "Record call": the message's first token as its author's call, through /mycall (the board, the
 * cap, the credit). Works without the Message Content intent: the message comes with the
 * interaction. The author records their own; crediting someone else's message takes an admin.
 */
export async function handleRecordCall(
  i: MessageContextMenuCommandInteraction,
  d: { dispatcher: Dispatcher; log: Logger },
): Promise<void> {
  const m = i.targetMessage;
  const t = translator(pickLocale(i.locale));
  const refuse = (message: string) => i.reply(replyOptions(toDiscordPayload({ kind: 'error', message })));
  const [ref] = findTokenRefs(textOf(m), 1);
  if (!ref) return void (await refuse(t('lookup.messageCommandNothing')));
  if (m.author.bot || m.webhookId || m.system) return void (await refuse(t('board.notMember')));
  const caller = callerFor(i);
  if (m.author.id !== i.user.id && !(await caller.canManage())) return void (await refuse(t('board.recordOthers')));
  const limited = await d.dispatcher.admit(caller);
  if (limited) return void (await i.reply(replyOptions(toDiscordPayload(limited))));
  const deferred = i.deferReply();
  const view = await d.dispatcher.run('mycall', { token: ref.address }, { ...caller, member: memberOf(m) });
  await deferred;
  await answerDeferred(i, view, d.log);
}

/** The author a call is credited to (bots, webhooks and system messages never reach here). */
export function memberOf(m: Pick<Message, 'author' | 'member'>): MemberRef {
  return {
    id: m.author.id,
    name: m.member?.displayName ?? m.author.globalName ?? m.author.username,
    handle: m.author.username.toLowerCase(),
  };
}

export function installMessageCards(
  client: Client,
  d: { autoCards: AutoCards; log: Logger; contentIntent: boolean; bans?: Pick<OwnerStore, 'banned'> },
): void {
  client.on(Events.MessageCreate, (m) => {
    void onMessage(client, m, d).catch((err: unknown) => d.log.warn({ err }, 'automatic card failed'));
  });
}

async function onMessage(
  client: Client,
  m: Message,
  d: { autoCards: AutoCards; log: Logger; contentIntent: boolean; bans?: Pick<OwnerStore, 'banned'> },
): Promise<void> {
  if (m.author.bot || m.webhookId || m.system) return;
  const origin = {
    platform: 'discord' as const,
    userId: m.author.id,
    chatId: m.channelId,
    serverId: m.guildId ?? undefined,
  };
  if (await ignored(d.bans, origin, 'paste', d.log)) return;
  const me = client.user?.id;
  // Without the intent a guild message's content is empty unless it mentions the bot: nothing to read.
  if (m.inGuild() && !d.contentIntent && !(me && m.mentions.users.has(me))) return;
  const text = textOf(m);
  if (!text) return;
  // A message carries no author locale: the channel's /language, else the server's primary language.
  const view = await d.autoCards.forText(text, {
    platform: 'discord',
    chatId: m.channelId,
    sender: senderKey('discord', m.author.id),
    ...(m.guild?.preferredLocale ? { locale: m.guild.preferredLocale } : {}),
    messageId: m.id,
    member: memberOf(m),
  });
  if (!view) return;
  const { flags: _flags, ...payload } = replyOptions(toDiscordPayload(view));
  try {
    // Threaded under the paste; a paste deleted meanwhile gets the card unthreaded, not an error.
    await m.reply({ ...payload, allowedMentions: { ...NO_MENTIONS, repliedUser: false }, failIfNotExists: false });
  } catch (err) {
    // Nobody asked: a failed automatic card is logged, never followed by an error message.
    d.log.warn({ err, channel: m.channelId }, 'automatic card not sent');
  }
}
