/**
 * Registers the bot's slash commands and its message command with Discord (`npm run deploy-commands`).
 * Globally by default; to DISCORD_GUILD_ID only when set (instant, for a test
 * server). Run it after adding, removing or changing a command or its options.
 */
import { deployCommands } from '../src/adapters/discord/deploy.ts';
import { type Config, ConfigError, loadConfig } from '../src/config.ts';
import { loadCommands } from '../src/core/registry.ts';

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (!config.discord) {
    process.stderr.write('DISCORD_TOKEN and DISCORD_APPLICATION_ID must be set to register commands.\n');
    return 2;
  }
  const { token, applicationId, guildId, apiBase } = config.discord;
  const registry = await loadCommands();
  const r = await deployCommands({
    token,
    applicationId,
    registry,
    ...(guildId ? { guildId } : {}),
    ...(apiBase ? { apiBase } : {}),
  });
  const where = r.scope === 'guild' ? `guild ${guildId}` : 'globally (may take up to an hour to show everywhere)';
  const slash = r.commands.filter((c) => c.type === 1).map((c) => `/${c.name}`);
  const menus = r.commands.filter((c) => c.type === 3).map((c) => `"${c.name}"`);
  process.stdout.write(
    `Registered ${r.registered.length} commands ${where}: ${slash.join(' ')}${menus.length ? ` and the message command${menus.length > 1 ? 's' : ''} ${menus.join(', ')}` : ''}\n`,
  );
  // Lookups are offered to servers and to users who install the app themselves (user install):
  // enable "User Install" under Installation in the developer portal for the second.
  process.stdout.write(
    'Lookups work in servers, DMs and (with User Install enabled in the developer portal) anywhere the user is.\n',
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // The message of a Discord error names the route and code, never the token.
    const e = err as { message?: string; code?: unknown; status?: unknown };
    process.stderr.write(
      `Registering commands failed: ${e.message ?? String(err)}${e.status ? ` (HTTP ${String(e.status)})` : ''}\n`,
    );
    process.exit(1);
  },
);
