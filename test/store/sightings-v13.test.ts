// Schema version 13 (the calls space keeps each token's call ids, k:<token>, so later sightings raise the
// peak of finished calls too): a version-12 store opens unchanged; its calls have no entry (they keep the
// peak their follow-ups saw), and a call recorded after the upgrade is found by its token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import type { Call } from '../../src/store/calls.ts';
import { tokenKeyOf } from '../../src/domain/chains.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';

test('version 12 -> 13: a version-12 store is unchanged; calls recorded since are found by their token', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v13-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 12)).filter((r) => !r.key.startsWith('meta::'));
  const calls = before.filter((r) => /^calls::c:/.test(r.key));
  assert.ok(calls.length > 0, 'the version-12 store holds calls');
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 12);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before) assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
  const old = inner(calls[0]!.value) as Call;
  const key = tokenKeyOf(old.token.chain, old.token.address);
  assert.deepEqual(await store.calls.tokenCalls(key), [], 'an older call has no entry: nothing is rewritten');
  // A call of the same token recorded now is found by it, and the older one keeps its own peak.
  await store.calls.record({ ...old, id: 'v13-call', points: [], next: 0, samples: [], at: Date.now() });
  assert.deepEqual(
    (await store.calls.tokenCalls(key)).map((c) => c.id),
    ['v13-call'],
  );
  assert.equal((await store.calls.get(old.id))?.peak, old.peak);
});
