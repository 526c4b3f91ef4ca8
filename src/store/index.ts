/**
 * State behind small domain interfaces, on keyv. `STORE_URL` picks the backend:
 * `sqlite:<path>` (default, embedded), `memory:` (tests, throwaway runs) or
 * `redis://` (several instances; see the alerts issue).
 */
import Keyv from 'keyv';
import { SqliteKvStore } from './sqlite.ts';
import { RedisKvStore, type RedisClient } from './redis.ts';
import { createPageStore, type PageStore } from './pages.ts';
import { createOutbox, type Outbox } from '../alerts/outbox.ts';
import { strictKv, type Kv } from './strict.ts';
import { createSubscriptionStore, type SubscriptionStore } from './subscriptions.ts';

export type { PageStore } from './pages.ts';
export type { Kv } from './strict.ts';

export interface Store {
  readonly kind: 'sqlite' | 'memory' | 'redis';
  /** The raw keyv, namespaced per domain by the interfaces below. */
  readonly kv: (namespace: string) => Keyv;
  readonly pages: PageStore;
  readonly subscriptions: SubscriptionStore;
  readonly outbox: Outbox;
  /** Watcher state and cooldowns. */
  readonly watch: Kv;
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

export async function openStore(url: string): Promise<Store> {
  const kind = url.startsWith('redis://') || url.startsWith('rediss://') ? 'redis' : url === 'memory:' ? 'memory' : 'sqlite';
  const backend =
    kind === 'redis'
      ? await RedisKvStore.connect(url)
      : kind === 'sqlite'
        ? new SqliteKvStore(url.slice('sqlite:'.length))
        : new Map<string, unknown>();
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
    kv,
    pages: createPageStore(strictKv(kv('page'))),
    subscriptions: createSubscriptionStore(strictKv(kv('sub'))),
    outbox: createOutbox(strictKv(kv('outbox'))),
    watch: strictKv(kv('watch')),
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
