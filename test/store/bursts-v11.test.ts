// Schema version 11 (calls of a burst message carry the message's calls and follow-up points): every row a
// version-10 store held opens unchanged, its calls keep their points and due times, and a burst call reads back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { nextDue, type Call } from '../../src/store/calls.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';

test('version 10 -> 11: a version-10 store is unchanged after the upgrade; its calls are due as before', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v11-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 10)).filter((r) => !r.key.startsWith('meta::'));
  const calls = before.filter((r) => /^calls::c:/.test(r.key));
  assert.ok(calls.length > 0, 'the version-10 store holds calls');
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 10);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before) assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
  for (const r of calls) {
    const old = inner(r.value) as Call;
    const call = await store.calls.get(r.key.slice('calls::c:'.length));
    assert.equal(call?.burst, undefined);
    assert.equal(nextDue(call!), nextDue(old));
  }
  // A call of a burst message, as version 11 records it, reads back with its points kept apart.
  const burst: Call = {
    ...(await store.calls.get(calls[0]!.key.slice('calls::c:'.length)))!,
    id: 'burst-member',
    points: [],
    next: 0,
    burst: { calls: ['burst-member', 'other'], points: [60, 360] },
  };
  await store.calls.record(burst);
  const back = await store.calls.get('burst-member');
  assert.deepEqual(back?.burst, { calls: ['burst-member', 'other'], points: [60, 360] });
  assert.equal(nextDue(back!), burst.at + 60 * 60_000);
});
