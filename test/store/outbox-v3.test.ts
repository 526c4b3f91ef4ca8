// Schema version 3 (an outbox entry may carry readAt): alerts a version-2 store held
// unsent open as they were, still pending, and go out; only the delay metric lacks them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion } from '../helpers/schema.ts';

test('version 2 -> 3: the unsent alerts a version-2 store held are pending, unchanged, after the upgrade', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v3-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 2))
    .filter((r) => r.key.startsWith('outbox::e:'))
    .map((r) => (r.value as { value: { id: string; state: string } }).value)
    .filter((e) => e.state === 'pending' || e.state === 'inflight');
  assert.ok(before.length >= 2, 'the version-2 snapshot holds unsent alerts');
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 2);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const pending = await store.outbox.pending();
  assert.deepEqual(
    pending.map((e) => e.id).sort(),
    before.map((e) => e.id).sort(),
    'every unsent alert is still to be sent',
  );
  for (const old of before) {
    const now = pending.find((e) => e.id === old.id)!;
    assert.deepEqual({ ...now }, old, `${old.id} unchanged`);
    assert.equal(now.readAt, undefined);
  }
});
