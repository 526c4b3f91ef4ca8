/**
 * State behind small domain interfaces, on keyv. `STORE_URL` picks the backend:
 * `sqlite:<path>` (default, embedded), `memory:` (tests, throwaway runs) or
 * `redis://` (several instances; see the alerts issue).
 */
import Keyv from 'keyv';
import { SqliteKvStore } from './sqlite.ts';
import { RedisKvStore, describeRedis, type RedisClient, type RedisConnectOptions } from './redis.ts';
import { StartupError } from '../startup.ts';
import { createPageStore, type PageStore } from './pages.ts';
import { createOutbox, type Outbox } from './outbox.ts';
import { strictKv, type Kv } from './strict.ts';
import { createSubscriptionStore, type SubscriptionStore } from './subscriptions.ts';
import { createChatLanguages, type ChatLanguages } from './languages.ts';
import { createCallStore, type CallStore } from './calls.ts';

export type { PageStore } from './pages.ts';
export type { Kv } from './strict.ts';

export interface Store {
  readonly kind: 'sqlite' | 'memory' | 'redis';
  readonly pages: PageStore;
  readonly subscriptions: SubscriptionStore;
  readonly outbox: Outbox;
  /** Per-chat language chosen with /language. */
  readonly languages: ChatLanguages;
  /** Alerts as tracked calls, and their due follow-ups. */
  readonly calls: CallStore;
  /** Watcher state and cooldowns. */
  readonly watch: Kv;
  /** Automatic-card settings per chat and their per-token cooldowns. */
  readonly autocard: Kv;
  /** The Redis client behind a redis:// store, for the watcher lease. */
  readonly redis: RedisClient | undefined;
  /** Test hook: simulate a backend outage (sqlite only). */
  setFailing(failing: boolean): void;
  /**
   * True the first time `key` is claimed within `ttlMs`, false for every later
   * claim, across every instance sharing the store: a repeated delivery (a
   * Telegram webhook retry, an update a former poller handled but did not
   * confirm) is recognised and handled once.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** True when the backend answers; used by readiness checks. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const kindOf = (url: string): Store['kind'] =>
  url.startsWith('redis://') || url.startsWith('rediss://') ? 'redis' : url === 'memory:' ? 'memory' : 'sqlite';

/** Which store a STORE_URL names, for logs and /readyz: never its user or password. */
export function describeStore(url: string): string {
  const kind = kindOf(url);
  return kind === 'redis'
    ? describeRedis(url)
    : kind === 'sqlite'
      ? `sqlite at ${url.slice('sqlite:'.length)}`
      : 'memory';
}

/**
 * Opens the store. Redis is waited for within `o.timeoutMs` (see startup.ts);
 * SQLite opens or fails at once. Either failure is a StartupError worded the same way.
 */
export async function openStore(
  url: string,
  o: RedisConnectOptions & { callsRetentionDays?: number } = {},
): Promise<Store> {
  const kind = kindOf(url);
  const backend =
    kind === 'redis'
      ? await RedisKvStore.connect(url, o)
      : kind === 'sqlite'
        ? openSqlite(url)
        : new Map<string, unknown>();
  // No 'error' listener on these: see strict.ts for why each call must throw its own failure.
  const namespaces = new Map<string, Keyv>();
  const kv = (namespace: string): Keyv => {
    let k = namespaces.get(namespace);
    if (!k) {
      k = new Keyv({ store: backend, namespace });
      namespaces.set(namespace, k);
    }
    return k;
  };
  const probe = kv('health');
  const claims = kv('claim');
  // One process owns an SQLite file or a memory store: claims in flight here are the only race.
  const claiming = new Set<string>();
  return {
    kind,
    pages: createPageStore(strictKv(kv('page'))),
    subscriptions: createSubscriptionStore(strictKv(kv('sub'))),
    outbox: createOutbox(strictKv(kv('outbox'))),
    languages: createChatLanguages(strictKv(kv('lang'))),
    calls: createCallStore(strictKv(kv('calls')), { retentionMs: (o.callsRetentionDays ?? 30) * 86_400_000 }),
    watch: strictKv(kv('watch')),
    autocard: strictKv(kv('autocard')),
    setFailing(failing) {
      if (backend instanceof SqliteKvStore || backend instanceof RedisKvStore) backend.failing = failing;
    },
    async claim(key, ttlMs) {
      if (backend instanceof RedisKvStore) return backend.claim(`claim::${key}`, ttlMs);
      if (claiming.has(key)) return false;
      claiming.add(key);
      try {
        if ((await claims.get(key)) !== undefined) return false;
        await claims.set(key, 1, ttlMs);
        return true;
      } finally {
        claiming.delete(key);
      }
    },
    async ping() {
      try {
        await probe.set('ping', Date.now(), 10_000);
        return true;
      } catch {
        return false;
      }
    },
    redis: backend instanceof RedisKvStore ? backend.client : undefined,
    async close() {
      if (backend instanceof SqliteKvStore || backend instanceof RedisKvStore) await backend.disconnect();
    },
  };
}

function openSqlite(url: string): SqliteKvStore {
  try {
    return new SqliteKvStore(url.slice('sqlite:'.length));
  } catch (err) {
    const e = err as { message?: string; code?: string };
    const why = e.code && !e.code.startsWith('ERR_SQLITE') ? `${e.message} (${e.code})` : (e.message ?? String(err));
    throw new StartupError(
      `cannot open the store (${describeStore(url)}): ${why}. Check STORE_URL and that the directory is writable.`,
      { cause: err },
    );
  }
}
