import { test } from 'node:test';
import assert from 'node:assert/strict';
import Keyv from 'keyv';
import { StoreError, strictKv } from '../../src/store/strict.ts';

/** A keyv backend on a Map whose reads of `bad` fail, and whose reads of `slow` wait for `release`. */
function backend() {
  const data = new Map<string, string>();
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let reads = 0;
  const store = {
    opts: { dialect: 'test' },
    async get(key: string) {
      reads++;
      if (key.endsWith('bad')) throw new Error('disk on fire');
      if (key.endsWith('slow')) await released;
      return data.get(key);
    },
    async set(key: string, value: string) {
      data.set(key, value);
      return true;
    },
    async delete(key: string) {
      return data.delete(key);
    },
    async clear() {
      data.clear();
    },
    async *iterator() {
      yield* data.entries();
      throw new Error('scan broke');
    },
  };
  return { store, release, reads: () => reads };
}

test('a failed store call fails alone: a concurrent call that succeeded keeps its answer', async () => {
  const b = backend();
  const kv = strictKv(new Keyv({ store: b.store, namespace: 'n' }));
  await kv.set('slow', { mark: 42 });
  // The good read is under way when the bad one fails; it finishes afterwards.
  const good = kv.get<{ mark: number }>('slow');
  const bad = kv.get('bad');
  await assert.rejects(bad, (err: unknown) => err instanceof StoreError && /disk on fire/.test(err.message));
  b.release();
  assert.deepEqual(await good, { mark: 42 });
  assert.equal(b.reads(), 2);
  // And the next call is not tainted by the earlier failure either.
  assert.deepEqual(await kv.get('slow'), { mark: 42 });
});

test('a failed read is an error, never a missing key', async () => {
  const kv = strictKv(new Keyv({ store: backend().store, namespace: 'n' }));
  await assert.rejects(kv.get('bad'), StoreError);
  await assert.rejects(kv.getMany(['x', 'bad']), StoreError);
});

test('a scan that breaks part-way throws instead of looking complete', async () => {
  const kv = strictKv(new Keyv({ store: backend().store, namespace: 'n' }));
  await kv.set('a', 1);
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const [key] of kv.entries()) seen.push(key);
    })(),
    (err: unknown) => err instanceof StoreError && /scan broke/.test(err.message),
  );
  assert.deepEqual(seen, ['a']);
});
