/**
 * A keyv store on Redis, for several instances sharing state. Written on
 * @redis/client directly rather than @keyv/redis (whose keyv 6 release is still
 * a release candidate), and because the watcher lease needs the same client for
 * atomic commands that keyv does not offer.
 */
import { createClient } from '@redis/client';
import type { Logger } from 'pino';
import { explainConnectError, waitFor, type WaitOptions } from '../startup.ts';
import { DEFAULT_STORE_WAIT_MS } from '../config.ts';
import { silentLogger } from '../log.ts';

// biome-ignore lint/complexity/noBannedTypes: `{}` is node-redis's own spelling of "no modules, functions, scripts or type mapping".
export type RedisClient = ReturnType<typeof createClient<{}, {}, {}, 3, {}>>;

const PREFIX = 'kolradar:';
/** ARGV: the number of items to add, those items, then the items to remove. Same result as raw.ts editList. */
const LIST_EDIT = `
local v = redis.call('GET', KEYS[1])
local list = {}
if v then
  local ok, d = pcall(cjson.decode, v)
  if ok and type(d) == 'table' and type(d.value) == 'table' then list = d.value end
end
local n = tonumber(ARGV[1])
local gone, seen, out = {}, {}, {}
for i = n + 2, #ARGV do gone[ARGV[i]] = true end
for _, x in ipairs(list) do if not gone[x] then table.insert(out, x); seen[x] = true end end
for i = 2, n + 1 do
  local x = ARGV[i]
  if not seen[x] and not gone[x] then table.insert(out, x); seen[x] = true end
end
if #out == 0 then redis.call('DEL', KEYS[1]) return 0 end
redis.call('SET', KEYS[1], cjson.encode({ value = out }))
return #out
`;

/**
 * Compare-and-set of a record's version (store/subscriptions.ts Swap): ARGV the version
 * expected (a missing key, or a record without one, is 0) and keyv's serialised new value.
 */
const SWAP = `
local v = redis.call('GET', KEYS[1])
local rev = 0
if v then
  local ok, d = pcall(cjson.decode, v)
  if ok and type(d) == 'table' and type(d.value) == 'table' and type(d.value.rev) == 'number' then rev = d.value.rev end
end
if rev ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/** While running, a lost connection is retried for as long as it takes (recovery when Redis returns), every 2 s at most. */
const RECONNECT_MAX_MS = 2_000;
/**
 * Longest one store call may take. A Redis that accepts connections but stops
 * answering (a stall, a full swap, a paused process) would otherwise hold every
 * command without limit; past this the call fails like an outage, the user is
 * told to try again and the log says which call. Well above a healthy Redis's
 * milliseconds, well below a command's 8 s budget.
 */
export const STORE_CALL_DEADLINE_MS = 2_000;

/** `work`, or a rejection once `ms` passed without an answer (the command itself may still finish later). */
export function withDeadline<T>(work: Promise<T>, what: string, ms = STORE_CALL_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the store did not answer ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** While Redis stays down, a reminder at most this often (the first loss and the recovery are always logged). */
const OUTAGE_LOG_EVERY_MS = 60_000;

/** Where a redis:// URL points, for logs and /readyz: host and port, never the user or password. */
export function describeRedis(url: string): string {
  if (!URL.canParse(url)) return 'redis (unparsable STORE_URL)';
  const u = new URL(url);
  const db = u.pathname.replace(/^\//, '');
  return `redis${u.protocol === 'rediss:' ? ' (TLS)' : ''} at ${u.hostname || '127.0.0.1'}:${u.port || 6379}${db ? `, database ${db}` : ''}`;
}

/** A client error in a few words a person can act on, with its code; Redis's replies never echo a password. */
export function explainRedisError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const network = explainConnectError(err);
  if (network) return network;
  if (e?.name === 'ConnectionTimeoutError') return 'no answer (ETIMEDOUT)';
  if (message.startsWith('WRONGPASS')) return 'authentication failed: wrong user or password in STORE_URL (WRONGPASS)';
  if (message.startsWith('NOAUTH')) return 'the server requires a password: put it in STORE_URL (NOAUTH)';
  if (code && /^(ERR_SSL|ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code))
    return `TLS handshake failed (${code})`;
  if (e?.name === 'SocketClosedUnexpectedlyError') return 'connection closed by the server (is that a Redis server?)';
  return code ? `${message} (${code})` : message;
}

export interface RedisConnectOptions extends Partial<Omit<WaitOptions, 'log'>> {
  readonly log?: Logger | undefined;
}

/**
 * One start-up attempt on a fresh client, bounded by `signal`. The client's own
 * retry loop is off until it has connected once: left on, `connect()` would
 * retry forever without a word (node-redis's default), and an attempt that
 * hangs (a port that accepts and never answers) could not be cut short.
 */
export async function connectAttempt(url: string, signal: AbortSignal, boundMs: number): Promise<RedisClient> {
  let started = false;
  let socketOpen = false;
  const client = createClient({
    url,
    // Fail fast instead of queueing commands forever against a dead server.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: boundMs + 1_000, // the attempt's own bound comes first, with a better reason
      reconnectStrategy: (retries) => (started ? Math.min(100 * 2 ** retries, RECONNECT_MAX_MS) : false),
    },
  });
  client.on('error', () => {}); // reported by the caller; without a listener the client would crash the process
  client.on('connect', () => (socketOpen = true));
  const abort = () => client.destroy();
  signal.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    // node-redis resolves connect() even when destroy() (the abort above) came while the socket
    // was still opening: the client is closed and every call would fail "The client is closed".
    // On a loaded machine the first attempt's bound can pass just then: that attempt failed.
    if (signal.aborted || !client.isOpen) throw new Error('closed while connecting');
    started = true;
    return client;
  } catch (err) {
    client.destroy();
    if (!signal.aborted) throw new Error(explainRedisError(err));
    throw new Error(
      socketOpen
        ? `the port accepts connections but no Redis answered within ${Math.round(boundMs / 100) / 10} s (is that a Redis server?)`
        : `no answer within ${Math.round(boundMs / 100) / 10} s (ETIMEDOUT)`,
    );
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

/** While running: the first loss and the recovery are logged, and a reminder now and then, never a line per retry. */
function logOutages(client: RedisClient, where: string, log: Logger): void {
  let downSince: number | undefined;
  let lastLogged = 0;
  client.on('error', (err: unknown) => {
    const now = Date.now();
    if (downSince === undefined) {
      downSince = lastLogged = now;
      log.warn(
        { store: where, reason: explainRedisError(err) },
        `lost the store (${where}): ${explainRedisError(err)}; reconnecting`,
      );
    } else if (now - lastLogged >= OUTAGE_LOG_EVERY_MS) {
      lastLogged = now;
      log.warn(
        { store: where, reason: explainRedisError(err), downS: Math.round((now - downSince) / 1000) },
        `the store (${where}) is still unreachable`,
      );
    }
  });
  client.on('ready', () => {
    if (downSince === undefined) return;
    log.info(
      { store: where, downS: Math.round((Date.now() - downSince) / 1000) },
      `the store (${where}) is reachable again`,
    );
    downSince = undefined;
  });
}

export class RedisKvStore {
  readonly opts: { dialect: 'redis' };
  readonly client: RedisClient;
  /** Test hook: makes every call fail, to prove a store outage loses nothing. */
  failing = false;

  private constructor(client: RedisClient) {
    this.client = client;
    this.opts = { dialect: 'redis' };
  }

  /** Connects within `timeoutMs` (see startup.ts), or rejects with a StartupError naming host, port and reason. */
  static async connect(url: string, o: RedisConnectOptions = {}): Promise<RedisKvStore> {
    const where = describeRedis(url);
    const log = o.log ?? silentLogger();
    const client = await waitFor(
      {
        name: `the store (${where})`,
        hint: 'Check STORE_URL and that Redis is running there',
        attempt: (signal, boundMs) => connectAttempt(url, signal, boundMs),
      },
      { ...o, log, timeoutMs: o.timeoutMs ?? DEFAULT_STORE_WAIT_MS },
    );
    logOutages(client, where, log);
    return new RedisKvStore(client);
  }

  #check(): void {
    if (this.failing) throw new Error('redis store unavailable (simulated)');
  }

  /** Every call through here: the simulated outage, then the deadline. */
  #call<T>(what: string, work: () => Promise<T>): Promise<T> {
    this.#check();
    return withDeadline(work(), what);
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#call('a read', () => this.client.get(PREFIX + key))) ?? undefined;
  }

  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    const v = typeof value === 'string' ? value : JSON.stringify(value);
    await this.#call('a write', () =>
      ttl && ttl > 0
        ? this.client.set(PREFIX + key, v, { expiration: { type: 'PX', value: Math.ceil(ttl) } })
        : this.client.set(PREFIX + key, v),
    );
    return true;
  }

  /** SET NX PX: true only for the first caller across every client of this server. */
  async claim(key: string, ttlMs: number): Promise<boolean> {
    return (
      (await this.#call('a claim', () =>
        this.client.set(PREFIX + key, '1', { condition: 'NX', expiration: { type: 'PX', value: Math.ceil(ttlMs) } }),
      )) === 'OK'
    );
  }

  async delete(key: string): Promise<boolean> {
    return (await this.#call('a delete', () => this.client.del(PREFIX + key))) > 0;
  }

  /** SET NX PX with a value: true when `key` was absent (or expired) and is now `value`. */
  async take(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.#check();
    const r = await this.client.set(PREFIX + key, value, {
      condition: 'NX',
      expiration: { type: 'PX', value: Math.ceil(ttlMs) },
    });
    return r === 'OK';
  }

  /** Writes `value` at `key` while the stored record's version is `expected` (SWAP: one script, atomic on the server). */
  async swap(key: string, expected: number, value: string): Promise<boolean> {
    const r = await this.#call('a versioned write', () =>
      this.client.eval(SWAP, { keys: [PREFIX + key], arguments: [String(expected), value] }),
    );
    return r === 1;
  }

  /** See RawStore.listEdit: one script, so atomic on the server. */
  async listEdit(key: string, add: readonly string[], drop: readonly string[] = []): Promise<void> {
    await this.#call('a list write', () =>
      this.client.eval(LIST_EDIT, { keys: [PREFIX + key], arguments: [String(add.length), ...add, ...drop] }),
    );
  }

  /** Raw rows (keyv's serialised values) with their expiry, for backup, restore and migrate-store. */
  async *rows(prefix = ''): AsyncGenerator<{ key: string; value: string; expiresAt: number | null }> {
    this.#check();
    for await (const batch of this.client.scanIterator({ MATCH: `${PREFIX}${prefix}*`, COUNT: 1000 })) {
      const keys = batch;
      if (!keys.length) continue;
      const multi = this.client.multi();
      for (const k of keys) multi.get(k).pTTL(k);
      const replies = (await multi.exec()) as unknown[];
      const now = Date.now();
      for (let i = 0; i < keys.length; i++) {
        const value = replies[2 * i];
        const pttl = Number(replies[2 * i + 1]);
        if (typeof value !== 'string' || pttl === -2) continue; // gone meanwhile, or not a string key
        yield { key: keys[i]!.slice(PREFIX.length), value, expiresAt: pttl >= 0 ? now + pttl : null };
      }
    }
  }

  /**
   * Writes raw rows, a MULTI/EXEC per thousand (restore and migrate-store read them back to verify);
   * `replace` first deletes every key of the store but the leases (whoever holds a role keeps it).
   */
  async putRows(
    rows: readonly { key: string; value: string; expiresAt: number | null }[],
    replace = false,
  ): Promise<void> {
    this.#check();
    if (replace)
      for await (const batch of this.client.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) {
        const keys = batch.filter((k) => !k.startsWith(`${PREFIX}lease:`));
        if (keys.length) await this.client.del(keys);
      }
    for (let i = 0; i < rows.length; i += 1000) {
      const multi = this.client.multi();
      for (const r of rows.slice(i, i + 1000))
        if (r.expiresAt === null) multi.set(PREFIX + r.key, r.value);
        else multi.set(PREFIX + r.key, r.value, { expiration: { type: 'PXAT', value: Math.ceil(r.expiresAt) } });
      await multi.exec();
    }
  }

  async has(key: string): Promise<boolean> {
    return (await this.#call('a read', () => this.client.exists(PREFIX + key))) > 0;
  }

  async getMany(keys: string[]): Promise<(string | undefined)[]> {
    this.#check();
    if (!keys.length) return [];
    const values = await this.#call('a read', () => this.client.mGet(keys.map((k) => PREFIX + k)));
    return values.map((v) => v ?? undefined);
  }

  async *iterator(namespace?: string): AsyncGenerator<[string, string]> {
    this.#check();
    const match = `${PREFIX}${namespace ? `${namespace}::` : ''}*`;
    for await (const batch of this.client.scanIterator({ MATCH: match, COUNT: 1000 })) {
      const keys = batch;
      if (!keys.length) continue;
      const values = await withDeadline(this.client.mGet(keys), 'a scan');
      for (let i = 0; i < keys.length; i++) {
        const v = values[i];
        if (v !== null && v !== undefined) yield [keys[i]!.slice(PREFIX.length), v];
      }
    }
  }

  async clear(): Promise<void> {
    for await (const batch of this.client.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) {
      const keys = batch;
      if (keys.length) await this.client.del(keys);
    }
  }

  async disconnect(): Promise<void> {
    if (this.client.isOpen) await this.client.close();
  }
}
