/**
 * Gateway sharding across instances. Discord sends a guild's events (its
 * interactions included) to every session identified with that guild's shard,
 * `(guild_id >> 22) % shard_count`, so instances that split the shards between
 * them each see their own guilds' interactions and nobody else's. Two
 * instances on the same shard would both see, and race to answer, each one.
 *
 * The plan comes from DISCORD_SHARD_COUNT (a number, or `auto` for the count
 * Discord recommends in GET /gateway/bot) and DISCORD_SHARD_IDS (this
 * instance's shards). The session start limit is checked up front so a shard
 * that cannot start says why, and IDENTIFY is spaced across the whole fleet:
 * one per `shard_id % max_concurrency` bucket per 5 s, through the store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Routes, type Client } from 'discord.js';

/** GET /gateway/bot, as far as a plan needs it. */
interface GatewayBot {
  shards: number;
  session_start_limit: { total: number; remaining: number; reset_after: number; max_concurrency: number };
}

export interface ShardConfig {
  readonly count: number | 'auto';
  /** This instance's shards; all of them when omitted. */
  readonly ids?: readonly number[];
}

export interface ShardPlan {
  readonly ids: number[];
  readonly count: number;
  readonly maxConcurrency: number;
}

/** Discord's window per identify bucket. */
export const IDENTIFY_WINDOW_MS = 5000;
/** Slack for the time between claiming a window and the IDENTIFY actually leaving. */
const IDENTIFY_MARGIN_MS = 750;

export class ShardPlanError extends Error {
  override name = 'ShardPlanError';
}

export async function planShards(rest: Client['rest'], config: ShardConfig): Promise<ShardPlan> {
  const info = (await rest.get(Routes.gatewayBot())) as GatewayBot;
  const count = config.count === 'auto' ? info.shards : config.count;
  const ids = config.ids ? [...config.ids] : Array.from({ length: count }, (_, i) => i);
  const outside = ids.filter((id) => id >= count);
  if (outside.length) {
    throw new ShardPlanError(
      `DISCORD_SHARD_IDS names shard ${outside.join(', ')}, but there are ${count} shards (0-${count - 1})`,
    );
  }
  const limit = info.session_start_limit;
  if (limit.remaining < ids.length) {
    const hours = (limit.reset_after / 3_600_000).toFixed(1);
    throw new ShardPlanError(
      `Discord allows ${limit.remaining} more gateway sessions today (of ${limit.total}; resets in ${hours} h) and shards ${ids.join(',')} need ${ids.length}: not starting them`,
    );
  }
  return { ids, count, maxConcurrency: Math.max(1, limit.max_concurrency) };
}

/**
 * discord.js's identify throttler, shared by every instance through the store:
 * a shard identifies once it claims its bucket's 5 s window. One process's
 * own throttler cannot see the other instances' identifies.
 */
export function fleetIdentifyThrottler(
  claim: (key: string, ttlMs: number) => Promise<boolean>,
  appId: string,
  maxConcurrency: number,
) {
  return {
    async waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> {
      const key = `discord:${appId}:identify:${shardId % maxConcurrency}`;
      // The window is claimed before IDENTIFY leaves, and the next holder's IDENTIFY may leave sooner
      // after its claim than ours did: hold it a little longer than Discord's 5 s so the gap stays 5 s.
      while (!(await claim(key, IDENTIFY_WINDOW_MS + IDENTIFY_MARGIN_MS))) {
        signal.throwIfAborted();
        await sleep(250, undefined, { signal });
      }
    },
  };
}
