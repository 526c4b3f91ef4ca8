/**
 * Starts the bot: Discord and/or Telegram when their tokens are set, otherwise
 * the console adapter, and the embedded sandbox when no upstream is configured.
 */
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { startConsole } from './adapters/console/index.ts';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
      return 2;
    }
    throw err;
  }
  const log = createLogger({ level: config.logLevel, secrets: config.secrets });
  const app = await createApp(config, log);
  const stops: (() => Promise<void>)[] = [];

  let done: Promise<void>;
  if (!config.discord && !config.telegram) {
    if (app.sandbox) banner(app.sandbox);
    const c = startConsole({ dispatcher: app.dispatcher, input: process.stdin, output: process.stdout, colour: Boolean(process.stdout.isTTY) });
    stops.push(() => c.stop());
    done = c.done;
  } else {
    done = new Promise(() => {}); // chat adapters run until a signal
  }

  let stopping: Promise<void> | undefined;
  const shutdown = (why: string) =>
    (stopping ??= (async () => {
      log.info({ why }, 'shutting down');
      for (const stop of stops.reverse()) await stop().catch((err: unknown) => log.error({ err }, 'stop failed'));
      await app.close();
    })());
  process.once('SIGINT', () => void shutdown('SIGINT').then(() => process.exit(0)));
  process.once('SIGTERM', () => void shutdown('SIGTERM').then(() => process.exit(0)));

  await done;
  await shutdown('end of input');
  return 0;

  function banner(sb: NonNullable<typeof app.sandbox>) {
    // The most talked-about Solana token and the most followed KOL make lively first examples.
    const solana = sb.data.tokens.filter((t) => t.chain_id === 'solana' && t.marketcap > 0);
    const token = solana.sort((a, b) => b.mention - a.mention)[0] ?? sb.data.tokens[0]!;
    const kol = [...sb.data.kols].sort((a, b) => b.follower_count - a.follower_count)[0]!;
    process.stderr.write(
      [
        'kolradar console: type a command, or a button number. Ctrl-D quits.',
        `Using the embedded sandbox at ${sb.url} (demo data; set KOL_API_BASE_URL for the real service).`,
        'Try:',
        `  /token ${token.chain_id} ${token.address}`,
        `  /kol @${kol.username}`,
        '  /kols sort:winrate',
        '',
      ].join('\n'),
    );
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`kolradar failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
