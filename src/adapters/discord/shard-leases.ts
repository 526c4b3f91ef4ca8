/**
 * Each gateway shard this instance runs is held under a lease in the store.
 * Discord sends a guild's interactions to every session on its shard, so two
 * instances started with the same DISCORD_SHARD_IDS would both acknowledge
 * every interaction there: the second one refuses the shard instead.
 *
 * A holder renews every third of the TTL. A renewal the store refuses
 * (another instance holds the lease now) loses the shard at once; a store
 * that does not answer loses it only when the last renewal is about to run
 * out (one renewal interval before the TTL, so the shard is closed before
 * anyone else can take it): a store stall shorter than that changes nothing.
 */
import type { Lease } from '../../store/lease.ts';

/** Long enough to ride out a Redis failover or a stall; a dead holder's shard is free again after it. */
export const SHARD_LEASE_TTL_MS = 30_000;

export interface ShardLeaseOptions {
  /** The lease on one shard (the store's, named by application and shard). */
  readonly leaseOf: (shardId: number) => Lease;
  readonly ttlMs?: number;
  /** The clock renewals are measured on; tests move it. */
  readonly now?: () => number;
}

export interface ShardLeases {
  /** Takes each shard's lease: `refused` are those another instance holds. A store error throws. */
  take(ids: readonly number[]): Promise<{ held: number[]; refused: number[] }>;
  /** Renews the held leases until one is lost; `onLost` is called once, with the shard and why. */
  keep(onLost: (shardId: number, why: string) => void): void;
  /** Stops renewing and frees the leases (a clean stop: the next instance need not wait out the TTL). */
  release(): Promise<void>;
}

export function shardLeases(o: ShardLeaseOptions): ShardLeases {
  const ttl = o.ttlMs ?? SHARD_LEASE_TTL_MS;
  const every = Math.max(50, Math.floor(ttl / 3));
  const now = o.now ?? Date.now;
  const held = new Map<number, { lease: Lease; renewedAt: number; renewing: boolean }>();
  let timer: NodeJS.Timeout | undefined;
  let lost = false;

  return {
    async take(ids) {
      const refused: number[] = [];
      for (const id of ids) {
        const lease = o.leaseOf(id);
        if (await lease.acquire()) held.set(id, { lease, renewedAt: now(), renewing: false });
        else refused.push(id);
      }
      return { held: [...held.keys()], refused };
    },
    keep(onLost) {
      const lose = (id: number, why: string) => {
        if (lost) return;
        lost = true;
        clearInterval(timer);
        onLost(id, why);
      };
      timer = setInterval(() => {
        for (const [id, h] of held) {
          const stale = () => now() - h.renewedAt >= ttl - every;
          const why = () => `the store did not confirm the lease for ${Math.round((now() - h.renewedAt) / 1000)} s`;
          // A store that hangs must not hold the shard past its lease: the unanswered renewal counts as failed.
          if (h.renewing) {
            if (stale()) return lose(id, why());
            continue;
          }
          h.renewing = true;
          h.lease.acquire().then(
            (ok) => {
              h.renewing = false;
              if (ok) h.renewedAt = now();
              else lose(id, 'another instance holds its lease now');
            },
            () => {
              h.renewing = false;
              // The store did not answer: the next beat tries again, unless the lease is about to run out.
              if (stale()) lose(id, why());
            },
          );
        }
      }, every);
      timer.unref();
    },
    async release() {
      clearInterval(timer);
      await Promise.all([...held.values()].map((h) => h.lease.release().catch(() => {})));
      held.clear();
    },
  };
}
