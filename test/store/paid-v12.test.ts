// Schema version 12 (paid-broadcast spending per UTC day in the watcher's space): every row a version-11
// store held opens unchanged, and the day's total is kept and added to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { paidLedger } from '../../src/store/paid.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';

test('version 11 -> 12: a version-11 store is unchanged after the upgrade; the day’s paid spending is kept', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v12-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 11)).filter((r) => !r.key.startsWith('meta::'));
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 11);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before) assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
  const ledger = paidLedger(store.watch);
  assert.equal(await ledger.add('2026-11-26', 0), 0, 'nothing spent yet');
  assert.equal(await ledger.add('2026-11-26', 30), 30);
  assert.equal(await ledger.add('2026-11-26', -1), 29, 'a reservation given back');
  assert.equal(await store.watch.get('paid:2026-11-26'), 29);
});
