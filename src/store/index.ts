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
import { createOwnerStore, type OwnerStore } from './owner.ts';
import { createMemberCalls, type MemberCallStore } from './membercalls.ts';
import { createWebPages, type WebPages } from './web.ts';
import { createInstanceBeats, type InstanceBeats } from './instances.ts';
import { createKnownTopics, type KnownTopics } from './topics.ts';
import { KEY_SPACES, type KeySpace } from './spaces.ts';
import { rawStore, type RawStore } from './raw.ts';
import { localJournal, redisJournal } from './journal.ts';
import { ensureSchema, type Migration, type SchemaMark } from './schema.ts';
import { silentLogger } from '../log.ts';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { createClaims, kvClaimBackend, redisClaimBackend, type ClaimOptions, type Claims } from './claims.ts';

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
  /** Members' own calls (/callboard): first-caller credit and the boards. */
  readonly members: MemberCallStore;
  /** Forum topics the bot knows each chat has. */
  readonly topics: KnownTopics;
  /** Watcher state and cooldowns. */
  readonly watch: Kv;
  /** Automatic-card settings per chat and their per-token cooldowns. */
  readonly autocard: Kv;
  /** The owners' bans and notices. */
  readonly owner: OwnerStore;
  /** Community pages turned on with /web: slug -> chat. */
  readonly web: WebPages;
  /** The instances running on this store, and their roles. */
  readonly instances: InstanceBeats;
  /** Answers of settings commands by request id, so a request replayed after a takeover acts once. */
  readonly replays: Kv;
  /** The Redis client behind a redis:// store, for the watcher lease. */
  readonly redis: RedisClient | undefined;
  /** Test hook: simulate a backend outage (sqlite only). */
  setFailing(failing: boolean): void;
  /**
   * True the first time `key` is claimed within `ttlMs`, false for every later
   * claim, across every instance sharing the store: a one-shot mark (an
   * IDENTIFY window, a Discord interaction id). Work that must survive its
   * handler's crash uses `claims` instead.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** The schema version found at open (0: none recorded) and the mark now stored (see schema.ts). */
  readonly schema: { readonly found: number; readonly mark: SchemaMark };
  /** Rows as stored, for backup, restore and migrate-store (see raw.ts). */
  readonly raw: RawStore;
  /** A key space's entries as values (migrations, tools). */
  space(name: KeySpace): Kv;
  /**
   * Leased claims on incoming work in `scope` (see claims.ts), held by `holder`
   * (this instance's id): how an update or interaction survives its handler's crash.
   */
  claims(scope: string, holder: string, o?: ClaimOptions): Claims;
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
  o: RedisConnectOptions & {
    callsRetentionDays?: number;
    /** Members' calls: the first-caller window and the calls a member may make a day. */
    memberCalls?: { windowMs?: number; perDay?: number; points?: readonly number[] };
    /** Names this process in the migration lock and mark. */
    instance?: string;
    /** Tests: another migration list, a shorter wait for another instance's migration. */
    schema?: { migrations?: readonly Migration[]; waitMs?: number; pollMs?: number };
  } = {},
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
  const kv = (namespace: KeySpace): Keyv => {
    // A space outside the list would be skipped by backup and migrate-store: refused here, loudly.
    if (!Object.hasOwn(KEY_SPACES, namespace)) throw new Error(`key space ${namespace} is not in store/spaces.ts`);
    let k = namespaces.get(namespace);
    if (!k) {
      k = new Keyv({ store: backend, namespace });
      namespaces.set(namespace, k);
    }
    return k;
  };
  const spaces = new Map<KeySpace, Kv>();
  const space = (name: KeySpace): Kv => {
    const s = spaces.get(name) ?? strictKv(kv(name));
    spaces.set(name, s);
    return s;
  };
  const raw = rawStore(backend);
  let schema: Store['schema'];
  try {
    schema = await ensureSchema({
      space,
      raw,
      where: describeStore(url),
      log: o.log ?? silentLogger(),
      instance: o.instance ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      ...o.schema,
    });
  } catch (err) {
    if (backend instanceof SqliteKvStore || backend instanceof RedisKvStore) await backend.disconnect();
    throw err;
  }
  const probe = kv('health');
  const claims = kv('claim');
  // One process owns an SQLite file or a memory store: claims in flight here are the only race.
  const claiming = new Set<string>();
  return {
    kind,
    pages: createPageStore(space('page')),
    subscriptions: createSubscriptionStore(
      space('sub'),
      async function* (prefix) {
        for await (const r of raw.rows(`sub::${prefix}`)) yield (JSON.parse(r.value) as { value?: unknown }).value;
      },
      backend instanceof RedisKvStore ? redisJournal(backend.client) : localJournal(),
      backend instanceof RedisKvStore
        ? (key, expected, value) => backend.swap(`sub::${key}`, expected, value)
        : undefined,
    ),
    outbox: createOutbox(space('outbox')),
    languages: createChatLanguages(space('lang')),
    calls: createCallStore(space('calls'), { retentionMs: (o.callsRetentionDays ?? 30) * 86_400_000 }),
    members: createMemberCalls(space('calls'), raw, {
      windowMs: o.memberCalls?.windowMs ?? 86_400_000,
      perDay: o.memberCalls?.perDay ?? 10,
      points: o.memberCalls?.points ?? [5, 15, 60, 240, 1440],
      retentionMs: (o.callsRetentionDays ?? 30) * 86_400_000,
    }),
    topics: createKnownTopics(space('topic')),
    watch: space('watch'),
    autocard: space('autocard'),
    owner: createOwnerStore(space('owner')),
    web: createWebPages(space('web')),
    instances: createInstanceBeats(space('health')),
    schema,
    raw,
    space,
    replays: space('replay'),
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
    claims: (scope, holder, co) =>
      createClaims(
        backend instanceof RedisKvStore
          ? redisClaimBackend(backend.client, scope)
          : kvClaimBackend(space('work'), scope),
        holder,
        co,
      ),
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
