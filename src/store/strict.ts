/**
 * Keyv reports a backend failure by emitting 'error' and, when something
 * listens, answering as if the key were missing. For alerts that is dangerous:
 * a failed read of the high-water mark would look like a first start and skip
 * tweets, a failed outbox write would look like success.
 *
 * So nothing listens. With no 'error' listener keyv 6 throws the failure out of
 * the very call that met it (its event emitter is built with
 * throwOnEmptyListeners), and this wrapper turns that into a StoreError for
 * that call alone. A shared listener cannot do this: it sees every call's
 * errors, so one failed call would fail another that ran at the same moment.
 * Never attach an 'error' listener to these keyv instances.
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

const failed = (what: string, err: unknown) =>
  new StoreError(`store ${what} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });

export function strictKv(keyv: Keyv): Kv {
  const guard = async <R>(what: string, fn: () => Promise<R>): Promise<R> => {
    try {
      return await fn();
    } catch (err) {
      throw failed(what, err);
    }
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
      try {
        for await (const [key, value] of keyv.iterator()) yield [key as string, value as T];
      } catch (err) {
        throw failed('scan', err);
      }
    },
  };
}
