import { randomBytes } from 'node:crypto';

const DISCORD_EPOCH = 1420070400000n;
let lastMs = 0n;
let increment = 0n;

/**
 * Real-looking snowflakes (18-19 digits today) so discord.js's route bucketing, which
 * only recognises 17-19 digit ids as major parameters, treats them as Discord would.
 * Strictly increasing within the process so ids also sort by creation.
 */
export function snowflake(at: number = Date.now()): string {
  let ms = BigInt(at) - DISCORD_EPOCH;
  if (ms <= lastMs) {
    ms = lastMs;
    increment += 1n;
    if (increment > 4095n) {
      ms += 1n;
      increment = 0n;
    }
  } else {
    increment = 0n;
  }
  lastMs = ms;
  return ((ms << 22n) | (1n << 17n) | (1n << 12n) | increment).toString();
}

/** Interaction tokens are opaque url-safe strings; they sit in URL paths, so no slashes. */
export function interactionToken(): string {
  return `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`;
}

/** Bot tokens look like Discord's three dot-separated parts, which discord.js censors in debug output. */
export function botToken(botUserId: string): string {
  const first = Buffer.from(botUserId).toString('base64url');
  return `${first}.${randomBytes(4).toString('base64url')}.${randomBytes(27).toString('base64url')}`;
}

/** A snowflake whose shard among `count` is `shard` (its bits above 22 pick the shard). */
export function guildOnShard(shard: number, count: number, nth = 0): string {
  let high = 1n << 40n;
  while (Number(high % BigInt(count)) !== shard) high++;
  return (((high + BigInt(nth * count)) << 22n) | 1n).toString();
}
