/**
 * The one place that reads the environment. `loadConfig` parses it once with zod
 * and everything else receives the result, so a typo in a variable fails at start
 * with a message naming every bad variable, never later in the middle of a tick.
 * The larger areas keep their variables beside this file (config/platforms.ts,
 * config/alerts.ts, with the shared value shapes in config/fields.ts); the rest
 * (upstream, store, operator) are few enough to stay here.
 */
import { z } from 'zod';
import { DEFAULT_MAX_BODY_BYTES } from './api/http.ts';
import { linksFromEnv, type LinkSet } from './domain/links.ts';
import { DEFAULT_HOST, host, optionalString, optionalUrl, port, quota, startWait } from './config/fields.ts';
import {
  discordConfig,
  DiscordEnv,
  telegramConfig,
  TelegramEnv,
  type DiscordConfig,
  type TelegramConfig,
} from './config/platforms.ts';
import { AlertsEnv, alertsConfig, type AlertsConfig } from './config/alerts.ts';
import { WebEnv, webConfig, webProblems, type WebConfig } from './config/web.ts';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Names whose values must never be echoed back, in errors or logs. */
const SECRET_VARS = ['KOL_API_KEY', 'DISCORD_TOKEN', 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET'] as const;

/** Redis's built-in user name: not a credential, and scrubbing the word would mangle ordinary log text. */
const redisDefaultUser = 'default';

/**
 * The user and password inside a redis:// or rediss:// STORE_URL, in every form a
 * log or error could carry them (as written, percent-encoded, and decoded).
 */
export function storeUrlSecrets(url: string): string[] {
  if (!/^rediss?:\/\//.test(url) || !URL.canParse(url)) return [];
  const u = new URL(url);
  const out: string[] = [];
  for (const raw of [u.username, u.password]) {
    if (!raw) continue;
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // a stray % in the URL: the raw form is what the client sends
    }
    if (decoded === redisDefaultUser) continue;
    out.push(raw, decoded);
  }
  return [...new Set(out)];
}

/**
 * OWNER_IDS: the owners, each as platform:id (telegram:123456789, discord:80351110224678912),
 * comma or space separated. A bare id would be ambiguous between the platforms: refused.
 */
const ownerIds = optionalString.pipe(
  z
    .string()
    .transform((s, ctx) => {
      const ids = s.split(/[\s,]+/).filter(Boolean);
      const bad = ids.filter((id) => !/^(telegram:\d{1,20}|discord:\d{17,20})$/.test(id));
      if (bad.length)
        ctx.addIssue({
          code: 'custom',
          message: 'must be ids prefixed by their platform, such as telegram:123456789,discord:80351110224678912',
        });
      return ids;
    })
    .optional(),
);

const EnvSchema = z.object({
  OWNER_IDS: ownerIds,
  OWNER_MAX_SUBSCRIPTIONS_PER_SERVER: quota,
  OWNER_MAX_SUBSCRIPTIONS_PER_PERSON: quota,
  KOL_API_BASE_URL: optionalUrl,
  KOL_API_KEY: optionalString,
  ...DiscordEnv.shape,
  ...TelegramEnv.shape,
  STORE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^(sqlite:.+|redis(s)?:\/\/.+|memory:)$/, 'must be sqlite:<path>, redis://host:port or memory:')
      .optional(),
  ),
  STORE_CONNECT_TIMEOUT: startWait,
  PLATFORM_CONNECT_TIMEOUT: startWait,
  ...AlertsEnv.shape,
  LOG_LEVEL: optionalString.pipe(z.enum(LEVELS, { error: `must be one of ${LEVELS.join(', ')}` }).optional()),
  LOG_FILE: optionalString,
  HTTP_PORT: port(0),
  KOL_API_MAX_BODY_BYTES: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a number of bytes')
      .transform(Number)
      .pipe(z.number().int().min(65_536, 'must be at least 65536').max(1_073_741_824, 'must be at most 1073741824'))
      .optional(),
  ),
  // The terminal's language, POSIX order: LC_ALL, then LC_MESSAGES, then LANG. Any value is
  // accepted: one we do not speak (C, POSIX, de_DE) means English.
  LC_ALL: optionalString,
  LC_MESSAGES: optionalString,
  LANG: optionalString,
  HTTP_HOST: host,
  ...WebEnv.shape,
});

/** Variables that only make sense together; checked on the raw values so every problem is listed at once. */
const REQUIRES: readonly (readonly [when: string, needs: string])[] = [
  ['KOL_API_BASE_URL', 'KOL_API_KEY'],
  ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID'],
  ['TELEGRAM_WEBHOOK_URL', 'TELEGRAM_WEBHOOK_SECRET'],
  ['DISCORD_INTERACTIONS_PORT', 'DISCORD_PUBLIC_KEY'],
  ['DISCORD_PUBLIC_KEY', 'DISCORD_INTERACTIONS_PORT'],
  ['DISCORD_SHARD_IDS', 'DISCORD_SHARD_COUNT'],
];

export interface Config extends AlertsConfig {
  /** Upstream base URL; undefined means: start the embedded sandbox. */
  readonly apiBaseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly discord: DiscordConfig | undefined;
  readonly telegram: TelegramConfig | undefined;
  readonly storeUrl: string;
  /** How long start-up waits for the store before it exits non-zero. */
  readonly storeConnectTimeoutMs: number;
  /** How long start-up waits for a chat platform (Telegram's API) before exiting with status 1. */
  readonly platformConnectTimeoutMs: number;
  readonly logLevel: (typeof LEVELS)[number];
  readonly httpPort: number | undefined;
  /** Largest upstream response body read, in bytes; a bigger one is answered as unavailable. */
  readonly apiMaxBodyBytes: number;
  /** The console's language tag: `--lang`, else LC_ALL / LC_MESSAGES / LANG (e.g. ru_RU.UTF-8). */
  readonly consoleLocale: string | undefined;
  /** Where `consoleLocale` came from, for the banner: `--lang` or the variable's name. */
  readonly consoleLocaleFrom: '--lang' | 'LC_ALL' | 'LC_MESSAGES' | 'LANG' | undefined;
  /**
   * Where the JSON log lines go in console mode (the terminal shows what a person
   * reads); on the chat platforms they go to stderr unless this is set.
   */
  readonly logFile: string | undefined;
  /** Interface of the health and metrics server. */
  readonly httpHost: string;
  /** Chart, trading and safety links on alerts and token cards (domain/links.ts; `LINKS_<NAME>[_<CHAIN>]`). */
  readonly links: LinkSet;
  /** The bot's owners (OWNER_IDS), as platform:userId: only they reach /owner, in a private chat. */
  readonly owners: ReadonlySet<string>;
  /** Subscriptions one server (a Discord server, a Telegram group) and one person may hold; absent: no limit. */
  readonly quotas: { readonly perServer?: number; readonly perPerson?: number };
  /** The public community pages (config/web.ts); undefined: off. */
  readonly web: WebConfig | undefined;
  /** Every secret value present, for log redaction and leak tests. */
  readonly secrets: readonly string[];
}

export const DEFAULT_STORE_URL = 'sqlite:./data/kolradar.sqlite';
export const DEFAULT_STORE_WAIT_MS = 30_000;

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/**
 * Parses the environment. Throws a `ConfigError` listing every problem; the
 * messages name variables and rules, never values, so a mistyped token is not
 * printed to a shared log.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, argv: readonly string[] = []): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'environment')} ${issue.message}`);
  const present = (k: string) => (env[k] ?? '').trim() !== '';
  for (const [when, needs] of REQUIRES)
    if (present(when) && !present(needs)) problems.push(`${needs} is required when ${when} is set`);
  const links = linksFromEnv(env);
  problems.push(...links.problems);
  const onPlatform = present('DISCORD_TOKEN') || present('TELEGRAM_BOT_TOKEN');
  problems.push(...webProblems(env, onPlatform));
  if (!parsed.success || problems.length) throw new ConfigError([...new Set(problems)]);
  const e = parsed.data;
  const secrets = [
    ...SECRET_VARS.map((k) => e[k]).filter((v): v is string => typeof v === 'string' && v.length > 0),
    ...storeUrlSecrets(e.STORE_URL ?? ''),
  ];
  return {
    apiBaseUrl: e.KOL_API_BASE_URL,
    apiKey: e.KOL_API_KEY,
    discord: discordConfig(e),
    telegram: telegramConfig(e),
    storeUrl: e.STORE_URL ?? DEFAULT_STORE_URL,
    storeConnectTimeoutMs: e.STORE_CONNECT_TIMEOUT ?? DEFAULT_STORE_WAIT_MS,
    platformConnectTimeoutMs: e.PLATFORM_CONNECT_TIMEOUT ?? DEFAULT_STORE_WAIT_MS,
    ...alertsConfig(e),
    logLevel: e.LOG_LEVEL ?? 'info',
    httpPort: e.HTTP_PORT,
    apiMaxBodyBytes: e.KOL_API_MAX_BODY_BYTES ?? DEFAULT_MAX_BODY_BYTES,
    consoleLocale: langFlag(argv) ?? e.LC_ALL ?? e.LC_MESSAGES ?? e.LANG,
    consoleLocaleFrom:
      langFlag(argv) !== undefined
        ? '--lang'
        : e.LC_ALL !== undefined
          ? 'LC_ALL'
          : e.LC_MESSAGES !== undefined
            ? 'LC_MESSAGES'
            : e.LANG !== undefined
              ? 'LANG'
              : undefined,
    logFile: e.LOG_FILE,
    httpHost: e.HTTP_HOST ?? DEFAULT_HOST,
    links: links.links,
    owners: new Set(e.OWNER_IDS ?? []),
    quotas: {
      ...(e.OWNER_MAX_SUBSCRIPTIONS_PER_SERVER ? { perServer: e.OWNER_MAX_SUBSCRIPTIONS_PER_SERVER } : {}),
      ...(e.OWNER_MAX_SUBSCRIPTIONS_PER_PERSON ? { perPerson: e.OWNER_MAX_SUBSCRIPTIONS_PER_PERSON } : {}),
    },
    web: webConfig(e, onPlatform),
    secrets,
  };
}

/** `--lang ru` or `--lang=ru` on the command line. */
function langFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--lang=')) return a.slice('--lang='.length) || undefined;
    if (a === '--lang') return argv[i + 1];
  }
  return undefined;
}
