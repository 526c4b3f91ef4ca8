/**
 * Command registration: one bulk overwrite, so commands removed from the
 * registry disappear from Discord too. Global commands can take a while to
 * show in every client; a guild registration (DISCORD_GUILD_ID) is instant,
 * which is what a development server wants.
 */
import { REST, Routes } from 'discord.js';
import type { Registry } from '../../core/registry.ts';
import { toDiscordCommands, type DiscordCommand, type DiscordMessageCommand } from './commands.ts';

export interface DeployOptions {
  readonly token: string;
  readonly applicationId: string;
  /** Registers to this guild only (instant) instead of globally. */
  readonly guildId?: string;
  /** Discord API base without the version, e.g. a local fake's `http://127.0.0.1:PORT/api`. */
  readonly apiBase?: string;
  readonly registry: Registry;
}

export interface DeployResult {
  readonly scope: 'global' | 'guild';
  readonly commands: readonly (DiscordCommand | DiscordMessageCommand)[];
  /** Names Discord answered with, to confirm what was stored. */
  readonly registered: readonly string[];
}

export async function deployCommands(o: DeployOptions): Promise<DeployResult> {
  const rest = new REST(o.apiBase ? { api: o.apiBase } : {}).setToken(o.token);
  const commands = toDiscordCommands(o.registry);
  const route = o.guildId
    ? Routes.applicationGuildCommands(o.applicationId, o.guildId)
    : Routes.applicationCommands(o.applicationId);
  try {
    const answer = (await rest.put(route, { body: commands })) as { name: string }[];
    return { scope: o.guildId ? 'guild' : 'global', commands, registered: answer.map((c) => c.name) };
  } finally {
    // The REST client keeps sweeper timers; clear them so a one-shot script exits.
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}
