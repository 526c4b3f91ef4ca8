/**
 * Claims on incoming work (a Telegram update, a Discord interaction) shared by
 * every instance on the store, so that each is handled at least once across a
 * crash and, while every instance lives, once.
 *
 * A claim is "being handled" under a short lease that this process renews for
 * all it holds in one heartbeat, and "done" when its handler ends. A claim
 * whose holder stopped renewing (it died) can be taken over: by a later
 * delivery of the same work (a webhook retry) or, with the payload stored at
 * the first claim, by `orphans()`, which any instance calls now and then. A
 * done claim is kept for a while, so a repeated delivery is recognised.
 *
 * A duplicate happens only when a holder died after its answer left and
 * before it marked the claim done: the new holder handles it again.
 */
import { withDeadline, type RedisClient } from './redis.ts';
import type { Kv } from './strict.ts';

export type ClaimResult = 'mine' | 'busy' | 'done';

export interface ClaimOptions {
  /** How long a claim stays "being handled" without a renewal; default 10 s. */
  readonly leaseMs?: number;
  /** How long a done claim is remembered; default 1 h (a retry comes within minutes). */
  readonly doneMs?: number;
  /** The clock leases are measured on; tests move it. */
  readonly now?: () => number;
}

export interface Claims {
  /**
   * Claims each key: 'mine' when it was free, its holder's lease ran out, or it
   * is already this process's; 'busy' when a live holder has it; 'done' when
   * it was handled. `payload` is kept with a new claim for a takeover.
   */
  take(items: readonly { key: string; payload?: unknown }[]): Promise<ClaimResult[]>;
  /** The handler ended (answered or failed for good): done, remembered for `doneMs`. */
  finish(key: string): Promise<void>;
  /** Takes over up to `limit` claims whose holder stopped renewing; their payloads, to handle again. */
  orphans(limit: number): Promise<{ key: string; payload: unknown }[]>;
  /** Renews every claim this process holds (the heartbeat's step, every third of the lease). */
  renew(): Promise<void>;
  /** Claims this process holds now. */
  held(): number;
  /** Stops renewing (the process is going away; what it still holds lapses and is taken over). */
  close(): void;
}

interface Backend {
  take(holder: string, now: number, until: number, items: { key: string; payload: string }[]): Promise<ClaimResult[]>;
  /** Returns the keys among `keys` this holder no longer holds. */
  renew(holder: string, until: number, keys: string[]): Promise<string[]>;
  finish(key: string, doneMs: number): Promise<void>;
  orphans(holder: string, now: number, until: number, limit: number): Promise<{ key: string; payload: string }[]>;
}

export function createClaims(backend: Backend, holder: string, o: ClaimOptions = {}): Claims {
  const leaseMs = o.leaseMs ?? 10_000;
  const doneMs = o.doneMs ?? 60 * 60_000;
  const now = o.now ?? Date.now;
  const mine = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let renewing = false;
  const heartbeat = () => {
    if (timer || mine.size === 0) return;
    timer = setInterval(() => void renew(), Math.max(50, Math.floor(leaseMs / 3)));
    timer.unref();
  };
  async function renew(): Promise<void> {
    if (renewing) return;
    if (mine.size === 0) {
      clearInterval(timer);
      timer = undefined;
      return;
    }
    renewing = true;
    try {
      for (const key of await backend.renew(holder, now() + leaseMs, [...mine])) mine.delete(key);
    } catch {
      // The store did not answer: the next beat tries again; a lease longer than a few beats rides it out.
    } finally {
      renewing = false;
    }
  }
  return {
    async take(items) {
      const ask = items.filter((i) => !mine.has(i.key));
      const got = ask.length
        ? await backend.take(
            holder,
            now(),
            now() + leaseMs,
            ask.map((i) => ({ key: i.key, payload: i.payload === undefined ? '' : JSON.stringify(i.payload) })),
          )
        : [];
      const byKey = new Map(ask.map((i, n) => [i.key, got[n]!]));
      const out = items.map((i) => (mine.has(i.key) ? 'mine' : byKey.get(i.key)!));
      for (const [key, r] of byKey) if (r === 'mine') mine.add(key);
      heartbeat();
      return out;
    },
    async finish(key) {
      mine.delete(key);
      await backend.finish(key, doneMs);
    },
    async orphans(limit) {
      const found = await backend.orphans(holder, now(), now() + leaseMs, limit);
      for (const f of found) mine.add(f.key);
      heartbeat();
      return found.map((f) => ({ key: f.key, payload: JSON.parse(f.payload) as unknown }));
    },
    renew,
    held: () => mine.size,
    close() {
      clearInterval(timer);
      timer = undefined;
      mine.clear();
    },
  };
}

// One Redis hash per claim: s (run | done), h (holder), p (payload, while running).
// A sorted set per scope holds the running claims by lease end, for orphans().
const TAKE = `
local out = {}
for i = 1, #KEYS - 1 do
  local k = KEYS[i + 1]
  local s = redis.call('HGET', k, 's')
  local r = 'mine'
  if s == 'done' then r = 'done'
  elseif s == 'run' and redis.call('HGET', k, 'h') ~= ARGV[1] and tonumber(redis.call('ZSCORE', KEYS[1], k) or '0') > tonumber(ARGV[2]) then r = 'busy'
  end
  if r == 'mine' then
    redis.call('HSET', k, 's', 'run', 'h', ARGV[1])
    local p = ARGV[4 + i]
    if p ~= '' then redis.call('HSET', k, 'p', p) end
    redis.call('PEXPIRE', k, ARGV[4])
    redis.call('ZADD', KEYS[1], ARGV[3], k)
  end
  out[i] = r
end
return out`;
const RENEW = `
local lost = {}
for i = 2, #KEYS do
  local k = KEYS[i]
  if redis.call('HGET', k, 's') == 'run' and redis.call('HGET', k, 'h') == ARGV[1] then
    redis.call('ZADD', KEYS[1], ARGV[2], k)
  else table.insert(lost, k) end
end
return lost`;
const FINISH = `
redis.call('HSET', KEYS[2], 's', 'done')
redis.call('HDEL', KEYS[2], 'p', 'h')
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], KEYS[2])
return 1`;
const ORPHANS = `
local out = {}
local ks = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[4]))
for _, k in ipairs(ks) do
  local p = redis.call('HGET', k, 'p')
  if redis.call('HGET', k, 's') == 'run' and p then
    redis.call('HSET', k, 'h', ARGV[1])
    redis.call('ZADD', KEYS[1], ARGV[3], k)
    table.insert(out, k)
    table.insert(out, p)
  else redis.call('ZREM', KEYS[1], k) end
end
return out`;

/**
 * Claims on Redis, each step one script (atomic across every instance). A
 * running claim lives at most `recordMs` even if nobody finishes it.
 */
export function redisClaimBackend(redis: RedisClient, scope: string, recordMs = 24 * 60 * 60_000): Backend {
  // Outside the `kolradar:` key spaces (spaces.ts): runtime state, never copied by a store move.
  const base = `kolradar-work:${scope}:`;
  const index = `kolradar-work-index:${scope}`;
  const full = (key: string) => base + key;
  const short = (k: string) => k.slice(base.length);
  const run = (script: string, keys: string[], args: string[]) =>
    withDeadline(redis.eval(script, { keys, arguments: args }), 'a claim');
  return {
    async take(holder, now, until, items) {
      return (await run(
        TAKE,
        [index, ...items.map((i) => full(i.key))],
        [holder, String(now), String(until), String(recordMs), ...items.map((i) => i.payload)],
      )) as ClaimResult[];
    },
    async renew(holder, until, keys) {
      const lost = (await run(RENEW, [index, ...keys.map(full)], [holder, String(until)])) as string[];
      return lost.map(short);
    },
    async finish(key, doneMs) {
      await run(FINISH, [index, full(key)], [String(Math.ceil(doneMs))]);
    },
    async orphans(holder, now, until, limit) {
      const flat = (await run(ORPHANS, [index], [holder, String(now), String(until), String(limit)])) as string[];
      const out: { key: string; payload: string }[] = [];
      for (let i = 0; i < flat.length; i += 2) out.push({ key: short(flat[i]!), payload: flat[i + 1]! });
      return out;
    },
  };
}

interface Record {
  s: 'run' | 'done';
  h?: string;
  u?: number;
  p?: string;
}

/**
 * Claims in an embedded store: one process owns the file, so steps only need
 * to be serialised here; they survive a restart of that process, whose claims
 * left running are taken over by the next one.
 */
export function kvClaimBackend(kv: Kv, scope: string, recordMs = 24 * 60 * 60_000): Backend {
  const full = (key: string) => `${scope}:${key}`;
  const mineOnly = `${scope}:`;
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => {});
    return next;
  };
  return {
    take: (holder, now, until, items) =>
      serial(async () => {
        const recs = await kv.getMany<Record>(items.map((i) => full(i.key)));
        const out: ClaimResult[] = [];
        for (const [n, item] of items.entries()) {
          const r = recs[n];
          const res: ClaimResult =
            r?.s === 'done' ? 'done' : r?.s === 'run' && r.h !== holder && (r.u ?? 0) > now ? 'busy' : 'mine';
          if (res === 'mine') {
            const p = item.payload || r?.p;
            const rec = { s: 'run', h: holder, u: until, ...(p ? { p } : {}) } satisfies Record;
            await kv.set(full(item.key), rec, recordMs);
          }
          out.push(res);
        }
        return out;
      }),
    renew: (holder, until, keys) =>
      serial(async () => {
        const recs = await kv.getMany<Record>(keys.map(full));
        const lost: string[] = [];
        for (const [n, key] of keys.entries()) {
          const r = recs[n];
          if (r?.s === 'run' && r.h === holder) await kv.set(full(key), { ...r, u: until }, recordMs);
          else lost.push(key);
        }
        return lost;
      }),
    finish: (key, doneMs) => serial(() => kv.set(full(key), { s: 'done' } satisfies Record, doneMs)),
    orphans: (holder, now, until, limit) =>
      serial(async () => {
        const out: { key: string; payload: string }[] = [];
        for await (const [key, r] of kv.entries<Record>()) {
          if (out.length >= limit) break;
          if (!key.startsWith(mineOnly) || r.s !== 'run' || !r.p || (r.u ?? 0) > now) continue;
          await kv.set(key, { ...r, h: holder, u: until }, recordMs);
          out.push({ key: key.slice(mineOnly.length), payload: r.p });
        }
        return out;
      }),
  };
}
