/**
 * The bot's life: Discord and/or Telegram when their tokens are set, otherwise
 * the console adapter, and the embedded sandbox when no upstream is configured.
 * A signal stops taking commands, lets in-flight work and sends finish
 * (bounded), persists, and returns 0. Started by main.ts.
 */
import { createApp, type App } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger, type Logger } from './log.ts';
import { startConsole } from './adapters/console/index.ts';
import { consoleSender } from './adapters/console/sender.ts';
import type { ChatAdapter } from './adapters/types.ts';
import { startOpsServer } from './ops/http.ts';

/** Longest a shutdown may take before the process exits anyway. */
const SHUTDOWN_BOUND_MS = 20_000;
/** Longest one adapter may take to stop (in-flight commands finishing). */
const ADAPTER_STOP_BOUND_MS = 12_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

async function chatAdapters(config: Config, app: App, log: Logger): Promise<ChatAdapter[]> {
  const adapters: ChatAdapter[] = [];
  if (config.discord) {
    const { createDiscordAdapter } = await import('./adapters/discord/index.ts');
    adapters.push(
      createDiscordAdapter({
        token: config.discord.token,
        applicationId: config.discord.applicationId,
        ...(config.discord.apiBase ? { apiBase: config.discord.apiBase } : {}),
        dispatcher: app.dispatcher,
        api: app.api,
        log,
        subscriptions: app.store.subscriptions,
      }),
    );
  }
  if (config.telegram) {
    const { createTelegramAdapter } = await import('./adapters/telegram/index.ts');
    adapters.push(
      createTelegramAdapter({
        token: config.telegram.token,
        ...(config.telegram.apiRoot ? { apiRoot: config.telegram.apiRoot } : {}),
        ...(config.telegram.webhook ? { webhook: config.telegram.webhook } : {}),
        dispatcher: app.dispatcher,
        store: app.store,
        log,
      }),
    );
  }
  return adapters;
}

export async function run(signal: Promise<string>): Promise<number> {
  let config: Config;
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
  // A last resort: whatever escapes every boundary is logged through the scrubbing logger
  // (never Node's default dump, which would print a library's token along with the error).
  process.on('unhandledRejection', (err) => log.error({ err: { name: (err as Error)?.name, message: (err as Error)?.message } }, 'unhandled rejection'));
  const early = signal.then((why) => {
    // If start-up itself hangs (a platform unreachable), do not wait for it forever.
    setTimeout(() => process.exit(1), SHUTDOWN_BOUND_MS).unref();
    return why;
  });
  const started = performance.now();
  const app = await createApp(config, log);
  const stops: (() => Promise<void>)[] = [];
  let closeOps = async () => {};
  const adapters = await chatAdapters(config, app, log);

  let done: Promise<void>;
  if (adapters.length === 0) {
    if (app.sandbox) banner(app.sandbox);
    const colour = Boolean(process.stdout.isTTY);
    const c = startConsole({ dispatcher: app.dispatcher, input: process.stdin, output: process.stdout, colour });
    stops.push(() => c.stop());
    app.startAlerts([consoleSender(process.stdout, colour)]);
    done = c.done;
  } else {
    for (const a of adapters) {
      stops.push(() => a.stop());
      try {
        await a.start();
      } catch (err) {
        // One platform failing to start must not leave the other running and the lease held.
        log.error({ platform: a.platform, err: (err as Error).message }, 'could not start');
        await Promise.all(stops.map((stop) => stop().catch(() => {})));
        await app.close();
        return 1;
      }
    }
    app.startAlerts(adapters.map((a) => a.sender));
    done = new Promise(() => {}); // chat adapters run until a signal
  }
  if (config.httpPort !== undefined) {
    const ops = await startOpsServer({
      port: config.httpPort,
      host: config.httpHost,
      metrics: app.metrics,
      checks: {
        store: () => app.store.ping(),
        platforms: () => Object.fromEntries(adapters.map((a) => [a.platform, a.isReady()])),
        lease: () => app.leaseStatus(),
      },
    });
    closeOps = () => ops.close(); // closed last: /healthz answers while the rest stops
    log.info({ host: config.httpHost, port: ops.port }, 'health and metrics listening');
  }
  log.info({ ms: Math.round(performance.now() - started), platforms: adapters.map((a) => a.platform) }, 'ready');

  let stopping: Promise<void> | undefined;
  const shutdown = (why: string) =>
    (stopping ??= (async () => {
      log.info({ why }, 'shutting down');
      const bound = setTimeout(() => {
        log.error('shutdown took too long; exiting');
        process.exit(1);
      }, SHUTDOWN_BOUND_MS);
      bound.unref();
      // The watcher and its sends first (they post through the adapters), then the adapters
      // (no new commands; in-flight ones finish), then the client, the store and the sandbox.
      await app.stopAlerts().catch((err: unknown) => log.error({ err: (err as Error).message }, 'stopping alerts failed'));
      // Adapters stop side by side, each within a bound, so a slow one cannot eat the others' time
      // (or the store's: the lease must still be released).
      await Promise.all(
        stops.map((stop) =>
          Promise.race([stop(), sleep(ADAPTER_STOP_BOUND_MS).then(() => log.warn('an adapter did not stop in time'))]).catch((err: unknown) =>
            log.error({ err: (err as Error).message }, 'stop failed'),
          ),
        ),
      );
      await app.close();
      await closeOps();
    })());
  const why = await Promise.race([early, done.then(() => 'end of input')]);
  await shutdown(why);
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
