/**
 * Keyv reports a backend failure by emitting 'error' and answering as if the key
 * were missing. For alerts that is dangerous: a failed read of the high-water
 * mark would look like a first start and skip tweets, a failed outbox write
 * would look like success. This wrapper turns any error seen during a call into
 * a thrown StoreError. Concurrent calls may see each other's errors: that fails
 * safe (a retry), never silently.
 */
import type Keyv from 'keyv';

export class StoreError extends Error {
  override name = 'StoreError';
}

export interface Kv {
  get<T>(key: string): Promise<T | undefined>;
  getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]>;
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every live entry of the namespace, in no particular order. */
  entries<T>(): AsyncIterable<[string, T]>;
}

export function strictKv(keyv: Keyv): Kv {
  let errors = 0;
  let last: unknown;
  keyv.on('error', (err: unknown) => {
    errors++;
    last = err;
  });
  const guard = async <R>(what: string, fn: () => Promise<R>): Promise<R> => {
    const before = errors;
    let result: R;
    try {
      result = await fn();
    } catch (err) {
      throw new StoreError(`store ${what} failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
    }
    if (errors !== before) throw new StoreError(`store ${what} failed: ${(last as Error)?.message ?? String(last)}`, { cause: last });
    return result;
  };
  return {
    get: <T>(key: string) => guard('read', async () => (await keyv.get(key)) as T | undefined),
    getMany: <T>(keys: readonly string[]) =>
      guard('read', async () => (keys.length ? ((await keyv.getMany([...keys])) as (T | undefined)[]) : [])),
    set: (key, value, ttlMs) =>
      guard('write', async () => {
        if (!(await keyv.set(key, value, ttlMs))) throw new Error('write refused');
      }),
    delete: (key) => guard('delete', async () => void (await keyv.delete(key))),
    async *entries<T>() {
      const before = errors;
      for await (const [key, value] of keyv.iterator()) yield [key as string, value as T];
      if (errors !== before) throw new StoreError(`store scan failed: ${(last as Error)?.message ?? String(last)}`);
    },
  };
}
