/**
 * The one place that reads the environment. `loadConfig` parses it once with zod
 * and everything else receives the result, so a typo in a variable fails at start
 * with a message naming every bad variable, never later in the middle of a tick.
 */
import { validate as validateCron } from 'node-cron';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_MAX_BODY_BYTES } from './api/http.ts';
import { linksFromEnv, type LinkSet } from './domain/links.ts';

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

/** "0-3", "0,2,5" or "0-1,4" to a sorted list of shard ids; undefined when malformed. */
export function parseShardIds(text: string): number[] | undefined {
  const ids = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const m = /^(\d{1,4})(?:-(\d{1,4}))?$/.exec(part);
    if (!m) return undefined;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) return undefined;
    for (let i = from; i <= to; i++) ids.add(i);
  }
  return [...ids].sort((a, b) => a - b);
}

/** DISCORD_SHARD_IDS: the shards this instance runs. */
/** How long start-up waits for something it cannot run without: 30s, 30 (seconds) or 1500ms. */
const startWait = optionalString.pipe(
  z
    .string()
    .regex(/^\d+(\.\d+)?(ms|s)?$/, 'must be a duration such as 30s, 30 (seconds) or 1500ms')
    .transform((s) => (s.endsWith('ms') ? Number(s.slice(0, -2)) : Number(s.replace(/s$/, '')) * 1000))
    .pipe(z.number().min(1000, 'must be at least 1s').max(3_600_000, 'must be at most 3600s'))
    .optional(),
);

const shardIds = optionalString.pipe(
  z
    .string()
    .transform((s, ctx) => {
      const ids = parseShardIds(s);
      if (!ids) ctx.addIssue({ code: 'custom', message: 'must be shard ids such as 0-3 or 0,2,5' });
      return ids ?? [];
    })
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

const snowflake = optionalString.pipe(
  z
    .string()
    .regex(/^\d{17,20}$/, 'must be a Discord id (17-20 digits)')
    .optional(),
);

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

const quota = optionalString.pipe(
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'))
    .optional(),
);

const EnvSchema = z.object({
  OWNER_IDS: ownerIds,
  OWNER_MAX_SUBSCRIPTIONS_PER_SERVER: quota,
  OWNER_MAX_SUBSCRIPTIONS_PER_PERSON: quota,
  KOL_API_BASE_URL: optionalUrl,
  KOL_API_KEY: optionalString,
  DISCORD_TOKEN: optionalString,
  DISCORD_APPLICATION_ID: snowflake,
  DISCORD_GUILD_ID: snowflake,
  DISCORD_API_BASE: optionalUrl,
  DISCORD_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be the 64 hex characters of the application public key')
      .optional(),
  ),
  DISCORD_INTERACTIONS_PORT: port(1),
  DISCORD_INTERACTIONS_HOST: host,
  DISCORD_SHARD_COUNT: optionalString.pipe(
    z
      .union(
        [
          z.literal('auto'),
          z
            .string()
            .regex(/^\d{1,5}$/)
            .transform(Number)
            .pipe(z.number().int().min(1)),
        ],
        { error: 'must be auto or a number of shards (1 or more)' },
      )
      .optional(),
  ),
  DISCORD_SHARD_IDS: shardIds,
  DISCORD_MESSAGE_CONTENT: optionalString.pipe(
    z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  ),
  TELEGRAM_BOT_TOKEN: optionalString.pipe(
    z
      .string()
      .regex(/^\d+:[\w-]{10,}$/, 'must look like 123456:ABC-DEF... (from BotFather)')
      .optional(),
  ),
  TELEGRAM_API_ROOT: optionalUrl,
  TELEGRAM_WEBHOOK_URL: optionalUrl,
  TELEGRAM_WEBHOOK_SECRET: optionalString.pipe(
    // At least 16: guessing is out of reach, and the log scrubber (which skips values under 6) always meets it.
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,256}$/, 'must be 16-256 characters of A-Z a-z 0-9 _ -')
      .optional(),
  ),
  TELEGRAM_WEBHOOK_PORT: port(1),
  TELEGRAM_WEBHOOK_HOST: host,
  TELEGRAM_PAID_BROADCAST: optionalString.pipe(
    z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  ),
  TELEGRAM_PAID_BROADCAST_STARS_PER_DAY: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number of Stars')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'))
      .optional(),
  ),
  STORE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^(sqlite:.+|redis(s)?:\/\/.+|memory:)$/, 'must be sqlite:<path>, redis://host:port or memory:')
      .optional(),
  ),
  STORE_CONNECT_TIMEOUT: startWait,
  PLATFORM_CONNECT_TIMEOUT: startWait,
  WATCH_CRON: optionalString.pipe(
    z
      .string()
      .refine((s) => validateCron(s), 'must be a cron expression such as */30 * * * * *')
      .optional(),
  ),
  FEED_REQUESTS_PER_MINUTE: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(600, 'must be at most 600'))
      .optional(),
  ),
  CALLS_RETENTION_DAYS: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number of days')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(3650, 'must be at most 3650'))
      .optional(),
  ),
  CALL_WINDOW_HOURS: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number of hours')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(720, 'must be at most 720'))
      .optional(),
  ),
  MEMBER_CALLS_PER_DAY: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(1000, 'must be at most 1000'))
      .optional(),
  ),
  MEMBER_CALL_FOLLOWUPS: optionalString.pipe(
    z
      .string()
      .regex(/^\s*\d+[mhd](\s*,\s*\d+[mhd])*\s*$/, 'must be a list like 5m,15m,1h,4h,24h')
      .transform(minutesOf)
      .pipe(
        z
          .array(
            z.number().int().min(1, 'each point must be at least 1m').max(43_200, 'each point must be at most 30d'),
          )
          .max(10, 'must have at most 10 points'),
      )
      .optional(),
  ),
  FOLLOWUP_REQUESTS_PER_MINUTE: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(6000, 'must be at most 6000'))
      .optional(),
  ),
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

export interface Config {
  /** Upstream base URL; undefined means: start the embedded sandbox. */
  readonly apiBaseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly discord:
    | {
        readonly token: string;
        readonly applicationId: string;
        readonly guildId?: string;
        readonly apiBase?: string;
        /** Signed HTTP interactions instead of the gateway. */
        readonly interactions?: { readonly publicKey: string; readonly port: number; readonly host: string };
        readonly shards?: { readonly count: number | 'auto'; readonly ids?: readonly number[] };
        /** Ask for the privileged Message Content intent: automatic cards for pastes in servers. */
        readonly messageContent: boolean;
      }
    | undefined;
  readonly telegram:
    | {
        readonly token: string;
        readonly apiRoot?: string;
        readonly webhook?: {
          readonly url: string;
          readonly secret: string;
          readonly port: number;
          readonly host: string;
        };
        /** Paid broadcasts (TELEGRAM_PAID_BROADCAST=true): alerts above the free rate go paid, up to this many Stars a UTC day. */
        readonly paidBroadcast?: { readonly maxStarsPerDay: number };
      }
    | undefined;
  readonly storeUrl: string;
  /** How long start-up waits for the store before it exits non-zero. */
  readonly storeConnectTimeoutMs: number;
  /** How long start-up waits for a chat platform (Telegram's API) before exiting with status 1. */
  readonly platformConnectTimeoutMs: number;
  /** Set: the watcher ticks on this schedule (the old way) instead of the feed budget's pace. */
  readonly watchCron: string | undefined;
  /**
   * Feed requests the watcher may make in any minute, spent evenly (default 20: a
   * read about every 3 s); with WATCH_CRON, only when set explicitly.
   */
  readonly feedRequestsPerMinute: number | undefined;
  readonly callsRetentionDays: number;
  readonly followupRequestsPerMinute: number;
  /** Members' calls: a later post of a token called within this is not a new call. */
  readonly callWindowHours: number;
  readonly memberCallsPerDay: number;
  /** Follow-up points of members' calls, in minutes after the call, ascending. */
  readonly memberCallFollowups: readonly number[];
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
  /** Every secret value present, for log redaction and leak tests. */
  readonly secrets: readonly string[];
}

/** Stars paid broadcasts may spend a UTC day unless TELEGRAM_PAID_BROADCAST_STARS_PER_DAY says: 1,000 paid messages at 0.1 Stars. */
export const DEFAULT_PAID_BROADCAST_STARS_PER_DAY = 100;
export const DEFAULT_STORE_URL = 'sqlite:./data/kolradar.sqlite';
export const DEFAULT_STORE_WAIT_MS = 30_000;
/**
 * Feed requests per minute: a read about every 3 s, 28,800 feed requests a day,
 * so a new tweet waits 1.5 s on average for its first read.
 */
export const DEFAULT_FEED_REQUESTS_PER_MINUTE = 20;
/** Call history kept (days). */
export const DEFAULT_CALLS_RETENTION_DAYS = 30;
/**
 * Follow-up requests (operation 2) per minute: a small share of the upstream next to
 * the watcher's feed reads, so a large round is spread over minutes, not a burst.
 */
export const DEFAULT_FOLLOWUP_REQUESTS_PER_MINUTE = 20;
/** Members' calls: the first caller keeps the credit this long; calls a member may make a day; sampling points. */
export const DEFAULT_CALL_WINDOW_HOURS = 24;
export const DEFAULT_MEMBER_CALLS_PER_DAY = 10;
export const DEFAULT_MEMBER_CALL_FOLLOWUPS: readonly number[] = Object.freeze([5, 15, 60, 240, 1440]);

/** "5m,1h,1d" -> [5, 60, 1440], sorted, once each. */
function minutesOf(text: string): number[] {
  const unit = { m: 1, h: 60, d: 1440 } as const;
  const out = text.split(',').map((p) => {
    const m = /^(\d+)([mhd])$/.exec(p.trim())!;
    return Number(m[1]) * unit[m[2] as keyof typeof unit];
  });
  return [...new Set(out)].sort((a, b) => a - b);
}

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
  if (!parsed.success || problems.length) throw new ConfigError([...new Set(problems)]);
  const e = parsed.data;
  const secrets = [
    ...SECRET_VARS.map((k) => e[k]).filter((v): v is string => typeof v === 'string' && v.length > 0),
    ...storeUrlSecrets(e.STORE_URL ?? ''),
  ];
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
            ...(e.DISCORD_PUBLIC_KEY && e.DISCORD_INTERACTIONS_PORT
              ? {
                  interactions: {
                    publicKey: e.DISCORD_PUBLIC_KEY,
                    port: e.DISCORD_INTERACTIONS_PORT,
                    host: e.DISCORD_INTERACTIONS_HOST ?? DEFAULT_HOST,
                  },
                }
              : {}),
            ...(e.DISCORD_SHARD_COUNT !== undefined
              ? {
                  shards: {
                    count: e.DISCORD_SHARD_COUNT,
                    ...(e.DISCORD_SHARD_IDS ? { ids: e.DISCORD_SHARD_IDS } : {}),
                  },
                }
              : {}),
            messageContent: e.DISCORD_MESSAGE_CONTENT === 'true',
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
          ...(e.TELEGRAM_PAID_BROADCAST === 'true'
            ? {
                paidBroadcast: {
                  maxStarsPerDay: e.TELEGRAM_PAID_BROADCAST_STARS_PER_DAY ?? DEFAULT_PAID_BROADCAST_STARS_PER_DAY,
                },
              }
            : {}),
        }
      : undefined,
    storeUrl: e.STORE_URL ?? DEFAULT_STORE_URL,
    storeConnectTimeoutMs: e.STORE_CONNECT_TIMEOUT ?? DEFAULT_STORE_WAIT_MS,
    platformConnectTimeoutMs: e.PLATFORM_CONNECT_TIMEOUT ?? DEFAULT_STORE_WAIT_MS,
    watchCron: e.WATCH_CRON,
    feedRequestsPerMinute: e.FEED_REQUESTS_PER_MINUTE ?? (e.WATCH_CRON ? undefined : DEFAULT_FEED_REQUESTS_PER_MINUTE),
    callsRetentionDays: e.CALLS_RETENTION_DAYS ?? DEFAULT_CALLS_RETENTION_DAYS,
    followupRequestsPerMinute: e.FOLLOWUP_REQUESTS_PER_MINUTE ?? DEFAULT_FOLLOWUP_REQUESTS_PER_MINUTE,
    callWindowHours: e.CALL_WINDOW_HOURS ?? DEFAULT_CALL_WINDOW_HOURS,
    memberCallsPerDay: e.MEMBER_CALLS_PER_DAY ?? DEFAULT_MEMBER_CALLS_PER_DAY,
    memberCallFollowups: e.MEMBER_CALL_FOLLOWUPS ?? DEFAULT_MEMBER_CALL_FOLLOWUPS,
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
