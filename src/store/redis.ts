/**
 * A keyv store on Redis, for several instances sharing state. Written on
 * @redis/client directly rather than @keyv/redis (whose keyv 6 release is still
 * a release candidate), and because the watcher lease needs the same client for
 * atomic commands that keyv does not offer.
 */
import { createClient } from '@redis/client';

export type RedisClient = ReturnType<typeof createClient<{}, {}, {}, 3, {}>>;

const PREFIX = 'kolradar:';

export class RedisKvStore {
  readonly opts: { dialect: 'redis' };
  readonly client: RedisClient;
  /** Test hook: makes every call fail, to prove a store outage loses nothing. */
  failing = false;

  private constructor(client: RedisClient) {
    this.client = client;
    this.opts = { dialect: 'redis' };
  }

  static async connect(url: string): Promise<RedisKvStore> {
    // Fail fast at start instead of queueing commands forever against a dead server.
    const client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 3000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
    });
    client.on('error', () => {}); // surfaced per command; without a listener the client would crash the process
    await client.connect();
    return new RedisKvStore(client);
  }

  #check(): void {
    if (this.failing) throw new Error('redis store unavailable (simulated)');
  }

  async get(key: string): Promise<string | undefined> {
    this.#check();
    return (await this.client.get(PREFIX + key)) ?? undefined;
  }

  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    this.#check();
    const v = typeof value === 'string' ? value : JSON.stringify(value);
    await (ttl && ttl > 0 ? this.client.set(PREFIX + key, v, { expiration: { type: 'PX', value: Math.ceil(ttl) } }) : this.client.set(PREFIX + key, v));
    return true;
  }

  /** SET NX PX: true only for the first caller across every client of this server. */
  async claim(key: string, ttlMs: number): Promise<boolean> {
    this.#check();
    return (await this.client.set(PREFIX + key, '1', { condition: 'NX', expiration: { type: 'PX', value: Math.ceil(ttlMs) } })) === 'OK';
  }

  async delete(key: string): Promise<boolean> {
    this.#check();
    return (await this.client.del(PREFIX + key)) > 0;
  }

  async has(key: string): Promise<boolean> {
    return (await this.client.exists(PREFIX + key)) > 0;
  }

  async getMany(keys: string[]): Promise<(string | undefined)[]> {
    this.#check();
    if (!keys.length) return [];
    const values = await this.client.mGet(keys.map((k) => PREFIX + k));
    return values.map((v) => v ?? undefined);
  }

  async *iterator(namespace?: string): AsyncGenerator<[string, string]> {
    this.#check();
    const match = `${PREFIX}${namespace ? `${namespace}::` : ''}*`;
    for await (const batch of this.client.scanIterator({ MATCH: match, COUNT: 1000 })) {
      const keys = batch as unknown as string[];
      if (!keys.length) continue;
      const values = await this.client.mGet(keys);
      for (let i = 0; i < keys.length; i++) {
        const v = values[i];
        if (v !== null && v !== undefined) yield [keys[i]!.slice(PREFIX.length), v];
      }
    }
  }

  async clear(): Promise<void> {
    for await (const batch of this.client.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) {
      const keys = batch as unknown as string[];
      if (keys.length) await this.client.del(keys);
    }
  }

  async disconnect(): Promise<void> {
    if (this.client.isOpen) await this.client.close();
  }
}
