/**
 * The Discord adapter's lifecycle: start (HTTP interactions, or the gateway with
 * its shard plan, the shards' leases and a fleet-wide IDENTIFY pace), a stop()
 * that lets in-flight interactions finish before it disconnects and gives the
 * leases back, and what readiness and roles report. Apart from the event wiring
 * (routing.ts) because this is the part that holds state across the run.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { Events, Status, type Client, type ClientOptions } from 'discord.js';
import type { Logger } from 'pino';
import type { Claims } from '../../store/claims.ts';
import { StartupError } from '../../startup.ts';
import {
  startHttpInteractions,
  type HttpInteractionsOptions,
  type HttpInteractionsServer,
} from './http-interactions.ts';
import type { Takeover } from './takeover.ts';
import { fleetIdentifyThrottler, planShards, type ShardConfig, type ShardPlan } from './shards.ts';
import type { ShardLeases } from './shard-leases.ts';

/** The adapter's options that shape how it connects and stops (DiscordAdapterOptions extends them). */
export interface ConnectionOptions {
  readonly token: string;
  readonly applicationId: string;
  /** How long stop() lets in-flight interactions finish before aborting them; default 10 s. */
  readonly stopGraceMs?: number;
  /** Extra discord.js client options (tests pass a gateway identify throttler). */
  readonly clientOptions?: Partial<ClientOptions>;
  /** Serve signed HTTP interactions on this port instead of connecting to the gateway. */
  readonly httpInteractions?: HttpInteractionsOptions;
  /** Run these gateway shards (of a fleet that splits them); one shard when omitted. */
  readonly shards?: ShardConfig;
  /** Each shard held under a lease in the store, so two instances never run one shard (see shard-leases.ts). */
  readonly shardLeases?: ShardLeases;
  /** The store's claim, to space IDENTIFY across the fleet (see shards.ts). */
  readonly claim?: (key: string, ttlMs: number) => Promise<boolean>;
  /** Leased claims on interactions (the store's): an interaction deferred here is finished by another instance if this one dies. */
  readonly claims?: Claims;
}

export interface LifecycleOptions extends ConnectionOptions {
  readonly log: Logger;
  readonly takeover: Takeover | undefined;
  /** Aborted when stop()'s grace runs out: late commands say they took too long. */
  readonly shutdown: AbortController;
}

export interface Lifecycle {
  start(): Promise<void>;
  stop(): Promise<void>;
  isReady(): boolean;
  roles(): Record<string, unknown>;
  httpAddress(): AddressInfo | undefined;
  /** Resolves with one line when a shard's lease is lost. */
  readonly lost: Promise<string>;
  stopping(): boolean;
  leaseLost(): boolean;
  /** Counts a handler as in flight, for stop() to wait on. */
  track(run: Promise<void>): void;
}

export function createLifecycle(client: Client, o: LifecycleOptions): Lifecycle {
  const { log, takeover } = o;
  const inflight = new Set<Promise<void>>();
  let stopping = false;
  let started = false;
  let http: HttpInteractionsServer | undefined;
  let plan: ShardPlan | undefined;
  let leaseLost = false;
  let resolveLost: (line: string) => void = () => {};
  const lost = new Promise<string>((resolve) => (resolveLost = resolve));

  const track = (run: Promise<void>) => {
    inflight.add(run);
    void run.finally(() => inflight.delete(run));
  };

  /** Which shards this instance runs, and at what IDENTIFY pace; throws when it may run none. */
  async function planGateway(shards: ShardConfig): Promise<void> {
    client.rest.setToken(o.token);
    try {
      plan = await planShards(client.rest, shards);
    } catch (err) {
      throw new Error(`Discord shards cannot start: ${(err as Error).message}`);
    }
    if (o.shardLeases) {
      const { held, refused } = await o.shardLeases.take(plan.ids);
      for (const id of refused)
        log.error(
          { shard: id },
          `discord shard ${id} is run by another instance: not starting it here (do two instances name it in DISCORD_SHARD_IDS?)`,
        );
      if (held.length === 0)
        throw new StartupError(
          `Discord shard ${refused.join(', ')} ${refused.length > 1 ? 'are' : 'is'} run by another instance: two instances name the same DISCORD_SHARD_IDS`,
        );
      plan = { ...plan, ids: held };
    }
    client.options.shards = plan.ids;
    client.options.shardCount = plan.count;
    if (o.claim && !o.clientOptions?.ws?.buildIdentifyThrottler) {
      const throttler = fleetIdentifyThrottler(o.claim, o.applicationId, plan.maxConcurrency);
      client.options.ws = { ...client.options.ws, buildIdentifyThrottler: () => throttler };
    }
    log.info({ shards: plan.ids, of: plan.count, maxConcurrency: plan.maxConcurrency }, 'discord: starting shards');
  }

  return {
    track,
    lost,
    stopping: () => stopping,
    leaseLost: () => leaseLost,
    httpAddress: () => http?.address,
    async start() {
      if (o.httpInteractions) {
        // No gateway: interactions come over HTTP, alerts and edits go through REST.
        client.rest.setToken(o.token);
        http = await startHttpInteractions(client, o.httpInteractions, log, {
          track: (p) => void track(p.then(() => {})),
          ...(o.claim
            ? { firstTime: (id: string) => o.claim!(`discord:${o.applicationId}:interaction:${id}`, 15 * 60_000) }
            : {}),
        });
        started = true;
        takeover?.start();
        log.info({ port: http.address.port }, 'discord ready: HTTP interactions on POST /interactions');
        return;
      }
      if (o.shards) await planGateway(o.shards);
      const ready = once(client, Events.ClientReady);
      try {
        await client.login(o.token);
      } catch (err) {
        ready.catch(() => {});
        throw new Error(`Discord login failed: ${(err as Error).message}`);
      }
      await ready;
      started = true;
      takeover?.start();
      o.shardLeases?.keep((shard, why) => {
        // Another instance may take the shard from here on: this one stops answering on it at once.
        leaseLost = true;
        // The gateway alone closes (REST stays up for the shutdown's last sends). discord.js marks
        // WebSocketManager#destroy private, and has no public call that closes only the gateway.
        void (client.ws as unknown as { destroy(): Promise<void> }).destroy().catch(() => {});
        resolveLost(`lost discord shard ${shard} (${why}): stopping so that one instance runs it`);
      });
      if (client.application?.id && client.application.id !== o.applicationId) {
        log.warn(
          { expected: o.applicationId, actual: client.application.id },
          'DISCORD_APPLICATION_ID does not match the bot token; commands may be registered elsewhere',
        );
      }
      log.info({ guilds: client.guilds.cache.size }, 'discord ready');
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      takeover?.stop();
      const settle = () => Promise.allSettled([...inflight]);
      const grace = o.stopGraceMs ?? 10_000;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), grace)));
      const outcome = await Promise.race([settle().then(() => 'done' as const), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        // Late commands get "took too long" instead of being cut off silently.
        o.shutdown.abort(new Error('shutting down'));
        await Promise.race([settle(), sleep(2000, undefined, { ref: false })]);
      }
      await http?.close();
      await client.destroy();
      await o.shardLeases?.release(); // after the gateway closed: the next holder's session never overlaps ours
      o.claims?.close(); // after the last handler: its claim was renewed until it finished
    },
    isReady() {
      if (http) return started && !stopping;
      return (
        started &&
        !stopping &&
        !leaseLost &&
        client.isReady() &&
        client.ws.shards.size > 0 &&
        client.ws.shards.every((s) => s.status === Status.Ready)
      );
    },
    roles() {
      if (http) return { http: true };
      const shards = [...client.ws.shards.values()].filter((s) => s.status === Status.Ready).map((s) => s.id);
      return { shards, shardCount: plan?.count ?? client.options.shardCount ?? 1 };
    },
  };
}
