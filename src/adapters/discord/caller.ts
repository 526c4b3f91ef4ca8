/**
 * Who is asking, in the core's neutral terms. Discord already sent the member's
 * permissions in this channel with the interaction, so `canManage` costs no
 * request. It is checked here as well as through the command's
 * default_member_permissions, because a server admin can loosen those per
 * role or channel, and a stale registration could lack them.
 */
import { ChannelFlags, ChannelType, DiscordAPIError, PermissionFlagsBits, Routes, type Interaction } from 'discord.js';
import type { Caller } from '../../core/command.ts';

export function canManageNow(interaction: Interaction): boolean {
  // A DM is the user's own conversation with the bot.
  if (!interaction.inGuild()) return true;
  const perms = interaction.memberPermissions;
  return (
    perms !== null && (perms.has(PermissionFlagsBits.ManageChannels) || perms.has(PermissionFlagsBits.Administrator))
  );
}

/** Thread channel types: announcement thread, public thread, private thread. */
const THREAD_TYPES = new Set([10, 11, 12]);
const RECALLED_MAX = 1000;
/**
 * Each recent interaction's raw `channel` (type and parent), for a channel discord.js has not
 * cached (an archived thread, or any channel under HTTP interactions, where nothing is cached):
 * a thread must be the same destination (channel, thread) whether or not it was cached.
 */
const recalled = new Map<string, { type: number; parentId?: string }>();

/** Keeps an interaction's raw channel (from the gateway's INTERACTION_CREATE or an HTTP POST). */
export function rememberChannel(raw: unknown): void {
  if (!raw || typeof raw !== 'object') return;
  const { id, channel } = raw as { id?: unknown; channel?: { type?: unknown; parent_id?: unknown } };
  if (typeof id !== 'string' || !channel || typeof channel.type !== 'number') return;
  if (recalled.size >= RECALLED_MAX) recalled.delete(recalled.keys().next().value!);
  recalled.set(id, {
    type: channel.type,
    ...(typeof channel.parent_id === 'string' ? { parentId: channel.parent_id } : {}),
  });
}

/**
 * Where the interaction was made: a thread is a channel of its own on Discord, but as a
 * destination it is (parent channel, thread), as a Telegram topic is (chat, topic).
 */
function placeOf(interaction: Interaction): Pick<Caller, 'chatId' | 'threadId' | 'channelKind' | 'forum'> {
  const channel = interaction.channel;
  const id = interaction.channelId ?? interaction.user.id;
  if (channel?.isThread() && channel.parentId) {
    const parent = channel.parent;
    // A forum's post: /subscribe forum:true there makes the forum itself the destination.
    const forum =
      parent?.type === ChannelType.GuildForum
        ? {
            tags: parent.availableTags.map((t) => ({ id: t.id, name: t.name })),
            requiresTag: parent.flags.has(ChannelFlags.RequireTag),
          }
        : undefined;
    return { chatId: channel.parentId, threadId: id, channelKind: 'thread', ...(forum ? { forum } : {}) };
  }
  const raw = channel ? undefined : recalled.get(interaction.id);
  if (raw?.parentId && THREAD_TYPES.has(raw.type)) return { chatId: raw.parentId, threadId: id, channelKind: 'thread' };
  if ((channel?.type ?? raw?.type) === ChannelType.GuildAnnouncement)
    return { chatId: id, channelKind: 'announcement' };
  return { chatId: id, ...(interaction.inGuild() ? { channelKind: 'text' as const } : {}) };
}

/** The roles picked in this command's options, as the bot may mention them. */
function rolesOf(interaction: Interaction): Caller['roles'] {
  if (!interaction.inGuild()) return undefined;
  const picked = interaction.isChatInputCommand() ? interaction.options.resolved?.roles : undefined;
  return {
    role: (id) => {
      const r = picked?.get(id);
      return r ? { name: r.name, mentionable: r.mentionable } : undefined;
    },
    botMentionsEveryone: interaction.appPermissions?.has(PermissionFlagsBits.MentionEveryone) ?? false,
  };
}

/** Cannot send messages to this user: their DMs are closed to the bot. */
const DMS_CLOSED = 50007;

/** A real DM to the user (an interaction's reply is not one): false when Discord says they take none from the bot. */
function confirmPrivately(interaction: Interaction): (text: string) => Promise<boolean> {
  return async (text) => {
    const rest = interaction.client.rest;
    try {
      const dm = (await rest.post(Routes.userChannels(), { body: { recipient_id: interaction.user.id } })) as {
        id: string;
      };
      // The interaction's id as an enforced nonce: discord.js resends after a lost answer, and the DM is one.
      const once = { nonce: interaction.id, enforce_nonce: true };
      await rest.post(Routes.channelMessages(dm.id), {
        body: { content: text, allowed_mentions: { parse: [] }, ...once },
      });
      return true;
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === DMS_CLOSED) return false;
      throw err;
    }
  };
}

export function callerFor(interaction: Interaction): Caller {
  const manage = canManageNow(interaction);
  const roles = rolesOf(interaction);
  return {
    platform: 'discord',
    userId: interaction.user.id,
    ...placeOf(interaction),
    ...(roles ? { roles } : { confirmPrivately: confirmPrivately(interaction) }),
    // Only the user installed the app here: the bot is not in this server.
    ...(interaction.inGuild() && !interaction.authorizingIntegrationOwners.guildId ? { botAbsent: true as const } : {}),
    chatType: interaction.inGuild() ? 'group' : 'private',
    ...(interaction.guildId ? { serverId: interaction.guildId } : {}),
    ...(interaction.channel && 'name' in interaction.channel && interaction.channel.name
      ? { chatName: interaction.channel.name }
      : {}),
    locale: interaction.locale,
    ...(interaction.guildLocale ? { guildLocale: interaction.guildLocale } : {}),
    // Bots cannot run slash commands: whoever asks is a person a call may credit.
    member: {
      id: interaction.user.id,
      name:
        (interaction.member && 'displayName' in interaction.member ? interaction.member.displayName : undefined) ??
        interaction.user.globalName ??
        interaction.user.username,
      handle: interaction.user.username.toLowerCase(),
    },
    canManage: async () => manage,
  };
}
