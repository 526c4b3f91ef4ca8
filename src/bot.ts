/**
 * The bot's life: Discord and/or Telegram when their tokens are set, otherwise
 * the console adapter, and the embedded sandbox when no upstream is configured.
 * A signal stops taking commands, lets in-flight work and sends finish
 * (bounded), persists, and returns 0. Started by main.ts.
 */
import { mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp, type App } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger, scrub, type Logger } from './log.ts';
import { consoleButtons, consoleWords, languageLine, startConsole } from './adapters/console/index.ts';
import { consoleSender } from './adapters/console/sender.ts';
import type { ChatAdapter } from './adapters/types.ts';
import { startOpsServer } from './ops/http.ts';
import type { Metrics } from './ops/metrics.ts';
import { paidLedger, type PaidLedgerStore } from './store/paid.ts';
import { publishLedger } from './store/publishes.ts';
import type { T } from './i18n/index.ts';
import { describeStore } from './store/index.ts';
import { StartupError } from './startup.ts';
import { openDemo, serveWeb } from './app/web.ts';
import type { WebServer } from './web/server.ts';

/** Longest a shutdown may take before the process exits anyway. */
const SHUTDOWN_BOUND_MS = 20_000;
/** Longest one adapter may take to stop (in-flight commands finishing). */
const ADAPTER_STOP_BOUND_MS = 12_000;

async function chatAdapters(config: Config, app: App, log: Logger, signal: AbortSignal): Promise<ChatAdapter[]> {
  const adapters: ChatAdapter[] = [];
  if (config.discord) {
    const { createDiscordAdapter, shardLeases, SHARD_LEASE_TTL_MS } = await import('./adapters/discord/index.ts');
    adapters.push(
      createDiscordAdapter({
        token: config.discord.token,
        applicationId: config.discord.applicationId,
        ...(config.discord.apiBase ? { apiBase: config.discord.apiBase } : {}),
        dispatcher: app.dispatcher,
        api: app.api,
        log,
        subscriptions: app.store.subscriptions,
        publishes: publishLedger(app.store.watch),
        bans: app.store.owner,
        ...(config.discord.interactions
          ? {
              httpInteractions: {
                ...config.discord.interactions,
                onRefused: (reason) => app.metrics.httpRefused.inc({ server: 'discord', reason }),
              },
            }
          : {}),
        ...(config.discord.shards
          ? {
              shards: config.discord.shards,
              shardLeases: shardLeases({
                leaseOf: (id) => app.lease(`discord-shard:${config.discord!.applicationId}:${id}`, SHARD_LEASE_TTL_MS),
              }),
            }
          : {}),
        claim: (key, ttlMs) => app.store.claim(key, ttlMs),
        claims: app.store.claims(`discord:${config.discord.applicationId}`, app.instanceId),
        autoCards: app.autoCards,
        lookups: app.lookups,
        messageContent: config.discord.messageContent,
      }),
    );
  }
  if (config.telegram) {
    const { createTelegramAdapter } = await import('./adapters/telegram/index.ts');
    const paid = config.telegram.paidBroadcast
      ? await paidBroadcasts(config.telegram.paidBroadcast, app.metrics, log, paidLedger(app.store.watch))
      : undefined;
    adapters.push(
      createTelegramAdapter({
        token: config.telegram.token,
        ...(config.telegram.apiRoot ? { apiRoot: config.telegram.apiRoot } : {}),
        ...(config.telegram.webhook
          ? {
              webhook: {
                ...config.telegram.webhook,
                onRefused: (reason: string) => app.metrics.httpRefused.inc({ server: 'telegram', reason }),
              },
            }
          : { pollLease: app.lease(`telegram-poller:${config.telegram.token.split(':')[0]}`) }),
        dispatcher: app.dispatcher,
        store: app.store,
        autoCards: app.autoCards,
        lookups: app.lookups,
        api: app.api,
        instanceId: app.instanceId,
        startWait: { timeoutMs: config.platformConnectTimeoutMs, signal },
        ...(paid ? { pacing: { paid } } : {}),
        log,
      }),
    );
  }
  return adapters;
}

/** Every this many paid messages, the log says what the day has cost so far. */
const PAID_LOG_EVERY = 1000;

/** The paid-broadcast policy, counted in /metrics and the log. */
export async function paidBroadcasts(
  o: { maxStarsPerDay: number },
  metrics: Metrics,
  log: Logger,
  ledger?: PaidLedgerStore,
) {
  const { PaidBroadcasts } = await import('./adapters/telegram/paid.ts');
  log.info({ maxStarsPerDay: o.maxStarsPerDay }, 'telegram: paid broadcasts on for alerts above the free rate');
  const policy: InstanceType<typeof PaidBroadcasts> = new PaidBroadcasts({
    maxStarsPerDay: o.maxStarsPerDay,
    ...(ledger ? { ledger } : {}),
    events: {
      sent(stars) {
        metrics.paidMessages.inc();
        metrics.paidStars.inc({}, stars);
        if (policy.messages % PAID_LOG_EVERY === 0)
          log.info({ messages: policy.messages, starsToday: policy.spentToday }, 'telegram: paid broadcasts sent');
      },
      // Each refused send is counted; the pause they cause is logged once.
      refusal: () => metrics.paidRefusals.inc(),
      refused(reason, until) {
        log.warn(
          { reason, retryAt: new Date(until).toISOString() },
          'telegram: paid broadcast refused (Stars balance or eligibility); alerts go at the free rate meanwhile',
        );
      },
      capped(stars) {
        log.warn(
          { starsToday: stars, cap: o.maxStarsPerDay },
          'telegram: day’s paid-broadcast cap reached; free rate until 00:00 UTC',
        );
      },
    },
  });
  return policy;
}

/** Where the console's log lines go on a terminal unless LOG_FILE says. */
export const DEFAULT_CONSOLE_LOG = 'data/kolradar.log';

/**
 * The file log lines go to, or undefined for stderr. A person at the console's
 * terminal reads the banner and the answers, not JSON: there the lines go to a
 * file. Piped, stderr stays the log (scripts and supervisors read it there).
 */
export function logFileOf(
  config: Pick<Config, 'logFile'>,
  consoleMode: boolean,
  stderrIsTerminal: boolean,
): string | undefined {
  return config.logFile ?? (consoleMode && stderrIsTerminal ? DEFAULT_CONSOLE_LOG : undefined);
}

/** Appends each line at once (synchronously: a console session's logs are few, and none is lost at exit). */
function appendingFile(path: string): { write(line: string): void } {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  const fd = openSync(path, 'a');
  return { write: (line) => void writeSync(fd, line) };
}

/** The role gauge's view: one 0/1 series per role an instance can hold. */
function roleFlags(r: Record<string, unknown>): Record<string, number> {
  const flags: Record<string, number> = { watcher_leader: r['watcher'] === 'leader' ? 1 : 0 };
  const tg = r['telegram'] as { poller?: string } | undefined;
  if (tg?.poller) flags['telegram_poller'] = tg.poller === 'poller' ? 1 : 0;
  const dc = r['discord'] as { shards?: number[]; http?: boolean } | undefined;
  for (const id of dc?.shards ?? []) flags[`discord_shard_${id}`] = 1;
  if (dc?.http) flags['discord_http'] = 1;
  return flags;
}

export async function run(signal: Promise<string>): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
      return 2;
    }
    throw err;
  }
  const consoleMode = !config.discord && !config.telegram;
  const logFile = logFileOf(config, consoleMode, Boolean(process.stderr.isTTY));
  const log = createLogger({
    level: config.logLevel,
    secrets: config.secrets,
    ...(logFile ? { destination: appendingFile(logFile) } : {}),
  });
  // A last resort: whatever escapes every boundary is logged through the scrubbing logger
  // (never Node's default dump, which would print a library's token along with the error).
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled rejection'));
  const aborted = new AbortController();
  const early = signal.then((why) => {
    aborted.abort(new Error(why)); // a wait for the store ends at once
    // If start-up itself hangs (a platform unreachable), do not wait for it forever.
    setTimeout(() => process.exit(1), SHUTDOWN_BOUND_MS).unref();
    return why;
  });
  const started = performance.now();
  // Start-up problems are printed on the console's terminal in plain words too.
  const say = (line: string) => {
    if (consoleMode) process.stderr.write(`${scrub(line, config.secrets)}\n`);
  };
  let app: App | undefined;
  let adapters: ChatAdapter[] = [];
  let waiting: string | undefined = 'starting';
  let closeOps = async () => {};
  let web: WebServer | undefined;
  // Who holds what, for /readyz and the kolradar_role gauge.
  const roles = (): Record<string, unknown> =>
    app
      ? { watcher: app.leaseStatus(), ...Object.fromEntries(adapters.map((a) => [a.platform, a.roles?.() ?? {}])) }
      : {};
  const stops: (() => Promise<void>)[] = [];
  let done: Promise<void>;
  try {
    if (config.httpPort !== undefined) {
      // First, so that /healthz answers and /readyz says what start-up waits for.
      const ops = await startOpsServer({
        port: config.httpPort,
        host: config.httpHost,
        metrics: {
          render: () => app?.metrics.render() ?? '',
          health: (ready, store) => app?.metrics.health(ready, store),
        },
        checks: {
          store: async () => (app ? app.store.ping() : false),
          storeName: describeStore(config.storeUrl),
          waiting: () => waiting,
          platforms: () => Object.fromEntries(adapters.map((a) => [a.platform, a.isReady()])),
          lease: () => app?.leaseStatus() ?? 'not running',
          feed: () => app?.feedProblem(),
          roles,
        },
      });
      closeOps = () => ops.close(); // closed last: /healthz answers while the rest stops
      log.info({ host: config.httpHost, port: ops.port }, 'health and metrics listening');
    }
    app = await createApp(config, log, {
      start: { signal: aborted.signal, say, onWaiting: (why) => (waiting = why ?? 'starting') },
    });
    adapters = await chatAdapters(config, app, log, aborted.signal);
    if (config.web) web = await serveWeb(config.web, app, log);
  } catch (err) {
    await web?.close();
    await app?.close().catch(() => {});
    await closeOps();
    if (aborted.signal.aborted) {
      log.info({ why: (aborted.signal.reason as Error).message }, 'stopped while starting'); // nothing to persist yet
      return 0;
    }
    // One line a person can act on, in the log and (console) on the terminal; scrubbed, never a stack.
    const line = `kolradar could not start: ${(err as Error)?.message ?? String(err)}`;
    log.fatal({ error: (err as Error)?.name }, line);
    if (consoleMode || !log.isLevelEnabled('fatal')) process.stderr.write(`${scrub(line, config.secrets)}\n`);
    return 1;
  }

  if (web) stops.push(web.close);
  if (adapters.length === 0) {
    const where = { languages: app.store.languages, locale: config.consoleLocale, buttons: consoleButtons() };
    const language = await languageLine(where.languages, where.locale, config.consoleLocaleFrom);
    const demo = web && app.sandbox ? await openDemo(app, web) : undefined;
    if (app.sandbox) banner(app.sandbox, await consoleWords(where.languages, where.locale), language, demo);
    else process.stderr.write(`${language}\n`);
    const colour = Boolean(process.stdout.isTTY);
    const c = startConsole({
      dispatcher: app.dispatcher,
      input: process.stdin,
      output: process.stdout,
      colour,
      autoCards: app.autoCards,
      ...where,
    });
    stops.push(() => c.stop());
    app.startAlerts([consoleSender(process.stdout, colour, where)]);
    done = c.done;
  } else {
    for (const a of adapters) {
      stops.push(() => a.stop());
      try {
        await a.start();
      } catch (err) {
        // One platform failing to start must not leave the other running and the lease held.
        const stopped = aborted.signal.aborted;
        if (stopped) log.info({ platform: a.platform }, 'stopped while starting');
        else if (err instanceof StartupError)
          log.fatal({ platform: a.platform }, `kolradar could not start: ${err.message}`);
        else log.error({ platform: a.platform, err }, 'could not start');
        await Promise.all(stops.map((stop) => stop().catch(() => {})));
        await app.close();
        await closeOps();
        return stopped ? 0 : 1;
      }
    }
    app.startAlerts(adapters.map((a) => a.sender));
    done = new Promise(() => {}); // chat adapters run until a signal
  }
  app.metrics.setRoles(() => roleFlags(roles()));
  app.setRoles(roles);
  waiting = undefined;
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
      await app.stopAlerts().catch((err: unknown) => log.error({ err }, 'stopping alerts failed'));
      // Adapters stop side by side, each within a bound, so a slow one cannot eat the others' time
      // (or the store's: the lease must still be released).
      await Promise.all(
        stops.map((stop) =>
          Promise.race([
            stop(),
            sleep(ADAPTER_STOP_BOUND_MS, undefined, { ref: false }).then(() =>
              log.warn('an adapter did not stop in time'),
            ),
          ]).catch((err: unknown) => log.error({ err }, 'stop failed')),
        ),
      );
      await app.close();
      await closeOps();
    })());
  const why = await Promise.race([
    early,
    done.then(() => 'end of input'),
    app.outdated.then(() => 'outdated' as const),
    ...adapters.flatMap((a) =>
      a.lost
        ? [
            a.lost.then((line) => {
              log.fatal({ platform: a.platform }, line);
              return 'lost' as const;
            }),
          ]
        : [],
    ),
  ]);
  await shutdown(why);
  // Not 0: a supervisor that restarts on failure restarts it, and this release refuses the store with the same line.
  return why === 'outdated' ? 3 : why === 'lost' ? 1 : 0;

  function banner(sb: NonNullable<App['sandbox']>, t: T, language: string, demo: string | undefined) {
    // The most talked-about Solana token and the most followed KOL make lively first examples.
    const solana = sb.data.tokens.filter((t) => t.chain_id === 'solana' && t.marketcap > 0);
    const token = solana.sort((a, b) => b.mention - a.mention)[0] ?? sb.data.tokens[0]!;
    const kol = [...sb.data.kols].sort((a, b) => b.follower_count - a.follower_count)[0]!;
    process.stderr.write(
      [
        t('console.banner'),
        t('console.sandbox', { url: sb.url }),
        ...(demo ? [t('console.web', { url: demo })] : []),
        language,
        t('console.tryThese'),
        `  /token ${token.chain_id} ${token.address}`,
        `  /kol @${kol.username}`,
        '  /kols sort:winrate',
        '',
      ].join('\n'),
    );
  }
}
