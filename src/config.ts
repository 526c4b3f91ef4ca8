/**
 * The one place that reads the environment. `loadConfig` parses it once with zod
 * and everything else receives the result, so a typo in a variable fails at start
 * with a message naming every bad variable, never later in the middle of a tick.
 */
import { validate as validateCron } from 'node-cron';
import { isIP } from 'node:net';
import { z } from 'zod';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Names whose values must never be echoed back, in errors or logs. */
export const SECRET_VARS = ['KOL_API_KEY', 'DISCORD_TOKEN', 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET'] as const;

const optionalString = z
  .string()
  .transform((s) => s.trim())
  .optional()
  .transform((s) => (s === undefined || s === '' ? undefined : s));

const optionalUrl = optionalString.pipe(
  z
    .string()
    .refine((s) => URL.canParse(s), 'must be an absolute URL such as https://example.com')
    .transform((s) => s.replace(/\/+$/, ''))
    .optional(),
);

/** A TCP port; 0 asks the OS for a free one where `min` allows it. */
const port = (min: number) =>
  optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a port number')
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(65535, 'must be at most 65535'))
      .optional(),
  );

/** An interface address to listen on; the default 127.0.0.1 keeps a server off the network until asked. */
const host = optionalString.pipe(
  z
    .string()
    .refine((s) => isIP(s) !== 0 || s === 'localhost', 'must be an IP address such as 127.0.0.1, ::1 or 0.0.0.0')
    .optional(),
);

/** Where a server listens unless told otherwise: this machine only. */
export const DEFAULT_HOST = '127.0.0.1';

const snowflake = optionalString.pipe(z.string().regex(/^\d{17,20}$/, 'must be a Discord id (17-20 digits)').optional());

const EnvSchema = z
  .object({
    KOL_API_BASE_URL: optionalUrl,
    KOL_API_KEY: optionalString,
    DISCORD_TOKEN: optionalString,
    DISCORD_APPLICATION_ID: snowflake,
    DISCORD_GUILD_ID: snowflake,
    DISCORD_API_BASE: optionalUrl,
    TELEGRAM_BOT_TOKEN: optionalString.pipe(
      z.string().regex(/^\d+:[\w-]{10,}$/, 'must look like 123456:ABC-DEF... (from BotFather)').optional(),
    ),
    TELEGRAM_API_ROOT: optionalUrl,
    TELEGRAM_WEBHOOK_URL: optionalUrl,
    TELEGRAM_WEBHOOK_SECRET: optionalString.pipe(
      // At least 16: guessing is out of reach, and the log scrubber (which skips values under 6) always meets it.
      z.string().regex(/^[A-Za-z0-9_-]{16,256}$/, 'must be 16-256 characters of A-Z a-z 0-9 _ -').optional(),
    ),
    TELEGRAM_WEBHOOK_PORT: port(1),
    TELEGRAM_WEBHOOK_HOST: host,
    STORE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^(sqlite:.+|redis(s)?:\/\/.+|memory:)$/, 'must be sqlite:<path>, redis://host:port or memory:')
        .optional(),
    ),
    WATCH_CRON: optionalString.pipe(
      z.string().refine((s) => validateCron(s), 'must be a cron expression such as */30 * * * * *').optional(),
    ),
    LOG_LEVEL: optionalString.pipe(z.enum(LEVELS, { error: `must be one of ${LEVELS.join(', ')}` }).optional()),
    HTTP_PORT: port(0),
    HTTP_HOST: host,
  });

/** Variables that only make sense together; checked on the raw values so every problem is listed at once. */
const REQUIRES: readonly (readonly [when: string, needs: string])[] = [
  ['KOL_API_BASE_URL', 'KOL_API_KEY'],
  ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID'],
  ['TELEGRAM_WEBHOOK_URL', 'TELEGRAM_WEBHOOK_SECRET'],
];

export interface Config {
  /** Upstream base URL; undefined means: start the embedded sandbox. */
  readonly apiBaseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly discord:
    | { readonly token: string; readonly applicationId: string; readonly guildId?: string; readonly apiBase?: string }
    | undefined;
  readonly telegram:
    | {
        readonly token: string;
        readonly apiRoot?: string;
        readonly webhook?: { readonly url: string; readonly secret: string; readonly port: number; readonly host: string };
      }
    | undefined;
  readonly storeUrl: string;
  readonly watchCron: string;
  readonly logLevel: (typeof LEVELS)[number];
  readonly httpPort: number | undefined;
  /** Interface of the health and metrics server. */
  readonly httpHost: string;
  /** Every secret value present, for log redaction and leak tests. */
  readonly secrets: readonly string[];
}

export const DEFAULT_STORE_URL = 'sqlite:./data/kolradar.sqlite';
/** Every 30 seconds (node-cron accepts a seconds field). */
export const DEFAULT_WATCH_CRON = '*/30 * * * * *';

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
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'environment')} ${issue.message}`);
  const present = (k: string) => (env[k] ?? '').trim() !== '';
  for (const [when, needs] of REQUIRES) if (present(when) && !present(needs)) problems.push(`${needs} is required when ${when} is set`);
  if (!parsed.success || problems.length) throw new ConfigError([...new Set(problems)]);
  const e = parsed.data;
  const secrets = SECRET_VARS.map((k) => e[k]).filter((v): v is string => typeof v === 'string' && v.length > 0);
  return {
    apiBaseUrl: e.KOL_API_BASE_URL,
    apiKey: e.KOL_API_KEY,
    discord:
      e.DISCORD_TOKEN && e.DISCORD_APPLICATION_ID
        ? {
            token: e.DISCORD_TOKEN,
            applicationId: e.DISCORD_APPLICATION_ID,
            ...(e.DISCORD_GUILD_ID ? { guildId: e.DISCORD_GUILD_ID } : {}),
            ...(e.DISCORD_API_BASE ? { apiBase: e.DISCORD_API_BASE } : {}),
          }
        : undefined,
    telegram: e.TELEGRAM_BOT_TOKEN
      ? {
          token: e.TELEGRAM_BOT_TOKEN,
          ...(e.TELEGRAM_API_ROOT ? { apiRoot: e.TELEGRAM_API_ROOT } : {}),
          ...(e.TELEGRAM_WEBHOOK_URL && e.TELEGRAM_WEBHOOK_SECRET
            ? {
                webhook: {
                  url: e.TELEGRAM_WEBHOOK_URL,
                  secret: e.TELEGRAM_WEBHOOK_SECRET,
                  port: e.TELEGRAM_WEBHOOK_PORT ?? 8443,
                  host: e.TELEGRAM_WEBHOOK_HOST ?? DEFAULT_HOST,
                },
              }
            : {}),
        }
      : undefined,
    storeUrl: e.STORE_URL ?? DEFAULT_STORE_URL,
    watchCron: e.WATCH_CRON ?? DEFAULT_WATCH_CRON,
    logLevel: e.LOG_LEVEL ?? 'info',
    httpPort: e.HTTP_PORT,
    httpHost: e.HTTP_HOST ?? DEFAULT_HOST,
    secrets,
  };
}
