// Schema version 9 (a button page may carry a call's id, the "Call card" button): every row a
// version-8 store held opens unchanged, its buttons' pages included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';

test('version 8 -> 9: the pages, calls and boards a version-8 store held are unchanged after the upgrade', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v9-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 8)).filter((r) => !r.key.startsWith('meta::'));
  assert.ok(before.some((r) => r.key.startsWith('page::')) && before.some((r) => r.key.startsWith('calls::b:')));
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 8);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  // The stored values, without keyv's expiry (re-based when the rows were seeded).
  const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before) assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
});
