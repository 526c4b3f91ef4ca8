/**
 * A role that one instance holds at a time, by name: the alert watcher (only
 * one may move the high-water mark and fan out) and the Telegram poller (only
 * one may call getUpdates). `fenced` runs a write only while this instance
 * still holds the lease it had when the tick began.
 */
export interface Lease {
  /** Takes or renews the lease; false when another instance holds it. */
  acquire(): Promise<boolean>;
  /** Runs `write` only if the lease is still ours; throws LeaseLostError otherwise. */
  fenced<T>(write: () => Promise<T>): Promise<T>;
  release(): Promise<void>;
  /** For /readyz: 'leader', 'follower' or 'unknown'. */
  status(): 'leader' | 'follower' | 'unknown';
}

export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/** One process owns its embedded SQLite file: it is always the leader. */
export function localLease(): Lease {
  let held = false;
  return {
    async acquire() {
      held = true;
      return true;
    },
    async fenced(write) {
      if (!held) throw new LeaseLostError('lease not held');
      return write();
    },
    async release() {
      held = false;
    },
    status: () => (held ? 'leader' : 'unknown'),
  };
}

/** The few Redis commands a lease needs; the store's client provides them. */
export interface LeaseRedis {
  set(
    key: string,
    value: string,
    opts: { condition: 'NX'; expiration: { type: 'PX'; value: number } },
  ): Promise<string | null>;
  incr(key: string): Promise<number>;
  eval(script: string, opts: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
/**
 * Still ours (a renewal failed, the key did not expire): renew it and return the fence, so a
 * store that stalled for less than the TTL does not make the holder refuse its own lease.
 */
const ADOPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return redis.call('GET', KEYS[2]) else return false end`;
/** Still the holder, and no newer holder has written: the fence counter is ours. */
const CHECK = `if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('GET', KEYS[2]) == ARGV[2] then return 1 else return 0 end`;

/**
 * A lease on Redis: SET NX PX to take it, a compare-and-PEXPIRE to renew, a
 * compare-and-DEL to release. Each taking increments a fence counter; a write
 * under the lease first checks that the lease and the counter are still this
 * holder's. The check and the write are two commands, so a holder paused for
 * longer than the whole TTL between them could still write once: the TTL
 * (15 s by default) is kept far above a write's milliseconds.
 */
export function redisLease(
  redis: LeaseRedis,
  opts: { name?: string; ttlMs?: number | undefined; instanceId: string },
): Lease {
  const key = `kolradar:lease:${opts.name ?? 'watcher'}`;
  const fenceKey = `${key}:fence`;
  const ttl = opts.ttlMs ?? 15_000;
  let fence: number | undefined;
  let state: 'leader' | 'follower' | 'unknown' = 'unknown';
  let heartbeat: NodeJS.Timeout | undefined;
  // Renew between ticks too: a fan-out can outlast a tick interval, and the lease
  // must not lapse while this instance is still sending.
  const beat = () => {
    clearInterval(heartbeat);
    heartbeat = setInterval(
      () => {
        redis.eval(RENEW, { keys: [key], arguments: [opts.instanceId, String(ttl)] }).then(
          (r) => {
            if (Number(r) !== 1) lost();
          },
          () => lost(),
        );
      },
      Math.max(50, Math.floor(ttl / 3)),
    );
    heartbeat.unref();
  };
  const lost = () => {
    clearInterval(heartbeat);
    fence = undefined;
    state = 'follower';
  };
  async function take(): Promise<boolean> {
    try {
      if (
        fence !== undefined &&
        Number(await redis.eval(RENEW, { keys: [key], arguments: [opts.instanceId, String(ttl)] })) === 1
      ) {
        state = 'leader';
        return true;
      }
      const adopted = await redis.eval(ADOPT, { keys: [key, fenceKey], arguments: [opts.instanceId, String(ttl)] });
      if (typeof adopted === 'string' || typeof adopted === 'number') {
        fence = Number(adopted);
        state = 'leader';
        beat();
        return true;
      }
      fence = undefined;
      const ok = await redis.set(key, opts.instanceId, { condition: 'NX', expiration: { type: 'PX', value: ttl } });
      if (ok !== 'OK') {
        state = 'follower';
        return false;
      }
      fence = await redis.incr(fenceKey);
      state = 'leader';
      beat();
      return true;
    } catch (err) {
      lost();
      state = 'unknown';
      throw err;
    }
  }
  let acquiring: Promise<boolean> | undefined;
  return {
    acquire() {
      // One attempt at a time: two at once (start and a tick) would see each other's key and
      // the loser would call itself a follower of its own lease.
      acquiring ??= take().finally(() => (acquiring = undefined));
      return acquiring;
    },
    async fenced(write) {
      if (fence === undefined) throw new LeaseLostError('lease not held');
      const ok =
        Number(await redis.eval(CHECK, { keys: [key, fenceKey], arguments: [opts.instanceId, String(fence)] })) === 1;
      if (!ok) {
        fence = undefined;
        state = 'follower';
        throw new LeaseLostError('lease lost to another instance');
      }
      return write();
    },
    async release() {
      clearInterval(heartbeat);
      if (fence === undefined) return;
      fence = undefined;
      state = 'unknown';
      await redis.eval(RELEASE, { keys: [key], arguments: [opts.instanceId] }).catch(() => {});
    },
    status: () => state,
  };
}
