/**
 * The chat platforms' part of the configuration: the DISCORD_* and TELEGRAM_*
 * variables, and how they become the `discord` and `telegram` slices of Config.
 * Apart from config.ts because the platforms are the largest area and the one
 * that grows with each new way of connecting (shards, webhooks, paid broadcasts).
 */
import { z } from 'zod';
import { DEFAULT_HOST, flag, host, optionalString, optionalUrl, port, wholeNumber } from './fields.ts';

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

const snowflake = optionalString.pipe(
  z
    .string()
    .regex(/^\d{17,20}$/, 'must be a Discord id (17-20 digits)')
    .optional(),
);

export const DiscordEnv = z.object({
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
  DISCORD_MESSAGE_CONTENT: flag,
});

export const TelegramEnv = z.object({
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
  TELEGRAM_PAID_BROADCAST: flag,
  TELEGRAM_PAID_BROADCAST_STARS_PER_DAY: wholeNumber(1_000_000, 'a whole number of Stars'),
});

export interface DiscordConfig {
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

export interface TelegramConfig {
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

/** Stars paid broadcasts may spend a UTC day unless TELEGRAM_PAID_BROADCAST_STARS_PER_DAY says: 1,000 paid messages at 0.1 Stars. */
export const DEFAULT_PAID_BROADCAST_STARS_PER_DAY = 100;

/** Discord's slice: present when a token and an application id are. */
export function discordConfig(e: z.infer<typeof DiscordEnv>): DiscordConfig | undefined {
  if (!e.DISCORD_TOKEN || !e.DISCORD_APPLICATION_ID) return undefined;
  return {
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
  };
}

/** Telegram's slice: present when a bot token is. */
export function telegramConfig(e: z.infer<typeof TelegramEnv>): TelegramConfig | undefined {
  if (!e.TELEGRAM_BOT_TOKEN) return undefined;
  return {
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
  };
}
