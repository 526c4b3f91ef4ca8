/**
 * When the bot is removed from a server, its channels will answer 403 from
 * then on. Disabling their subscriptions at once avoids a failed send per
 * channel, and those failures count toward Discord's invalid-request ban.
 */
import { Events, type Client, type Guild } from 'discord.js';
import { disable } from '../../alerts/subscriptions.ts';
import { subscriptionId, type SubscriptionStore } from '../../store/subscriptions.ts';

export const REMOVED_REASON = 'the bot was removed from this server';

/** Disables the subscriptions of these channels; returns how many were on. */
export async function disableChannels(
  subscriptions: SubscriptionStore,
  channelIds: readonly string[],
  reason: string,
  now: number = Date.now(),
): Promise<number> {
  let disabled = 0;
  for (const channelId of channelIds)
    if (await disable(subscriptions, subscriptionId('discord', channelId), reason, now)) disabled++;
  return disabled;
}

/**
 * Channel ids per guild, kept from the gateway's events. discord.js empties a
 * guild's channel cache before it emits guildDelete, so the ids must be known
 * beforehand to find the subscriptions to disable.
 */
export function trackGuildChannels(client: Client): (guildId: string) => string[] {
  const byGuild = new Map<string, Set<string>>();
  const add = (guild: Guild) => {
    const ids = byGuild.get(guild.id) ?? new Set<string>();
    for (const id of guild.channels.cache.keys()) ids.add(id);
    byGuild.set(guild.id, ids);
  };
  client.on(Events.ClientReady, (c) => c.guilds.cache.forEach(add));
  client.on(Events.GuildCreate, add);
  client.on(Events.GuildAvailable, add);
  client.on(Events.ChannelCreate, (ch) => {
    const ids = byGuild.get(ch.guildId) ?? new Set<string>();
    byGuild.set(ch.guildId, ids.add(ch.id));
  });
  client.on(Events.ChannelDelete, (ch) => {
    if ('guildId' in ch && ch.guildId) byGuild.get(ch.guildId)?.delete(ch.id);
  });
  return (guildId) => {
    const ids = [...(byGuild.get(guildId) ?? [])];
    byGuild.delete(guildId);
    return ids;
  };
}
