/**
 * Who is asking, in the core's neutral terms. Discord already sent the member's
 * permissions in this channel with the interaction, so `canManage` costs no
 * request. It is checked here as well as through the command's
 * default_member_permissions, because a server admin can loosen those per
 * role or channel, and a stale registration could lack them.
 */
import { PermissionFlagsBits, type Interaction } from 'discord.js';
import type { Caller } from '../../core/command.ts';

export function canManageNow(interaction: Interaction): boolean {
  // A DM is the user's own conversation with the bot.
  if (!interaction.inGuild()) return true;
  const perms = interaction.memberPermissions;
  return (
    perms !== null && (perms.has(PermissionFlagsBits.ManageChannels) || perms.has(PermissionFlagsBits.Administrator))
  );
}

export function callerFor(interaction: Interaction): Caller {
  const manage = canManageNow(interaction);
  return {
    platform: 'discord',
    userId: interaction.user.id,
    chatId: interaction.channelId ?? interaction.user.id,
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
