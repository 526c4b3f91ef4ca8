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
import { createChatLanguages, type ChatLanguages } from './languages.ts';

export type { PageStore } from './pages.ts';
export type { Kv } from './strict.ts';

export interface Store {
  readonly kind: 'sqlite' | 'memory' | 'redis';
  /** The raw keyv, namespaced per domain by the interfaces below. */
  readonly kv: (namespace: string) => Keyv;
  readonly pages: PageStore;
  readonly subscriptions: SubscriptionStore;
  readonly outbox: Outbox;
  /** Per-chat language chosen with /language. */
  readonly languages: ChatLanguages;
  /** Watcher state and cooldowns. */
  readonly watch: Kv;
  /** The Redis client behind a redis:// store, for the watcher lease. */
  readonly redis: RedisClient | undefined;
  /** Test hook: simulate a backend outage (sqlite only). */
  setFailing(failing: boolean): void;
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
  return {
    kind,
    kv,
    pages: createPageStore(strictKv(kv('page'))),
    subscriptions: createSubscriptionStore(strictKv(kv('sub'))),
    outbox: createOutbox(strictKv(kv('outbox'))),
    languages: createChatLanguages(strictKv(kv('lang'))),
    watch: strictKv(kv('watch')),
    setFailing(failing) {
      if (backend instanceof SqliteKvStore || backend instanceof RedisKvStore) backend.failing = failing;
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
