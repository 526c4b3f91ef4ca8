// Schema version 19 (Discord announcement channels' publishing hours in the watcher's space): every row a
// version-18 store held opens unchanged, and a channel's hour is kept and listed while it holds alerts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { publishLedger } from '../../src/store/publishes.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';

test('version 17 -> 18: a version-18 store is unchanged after the upgrade; a channel’s publishing hour is kept', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v19-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 18)).filter((r) => !r.key.startsWith('meta::'));
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 18);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before) assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
  const ledger = publishLedger(store.watch);
  assert.deepEqual(await ledger.held(), [], 'no summary to come yet');
  const hour = { times: [1, 2, 3], held: [{ messageId: '1300000000000000011', title: '$AAA Alpha' }], locale: 'de' };
  await ledger.put('1300000000000000001', hour);
  assert.deepEqual(await ledger.get('1300000000000000001'), hour);
  assert.deepEqual(await ledger.held(), ['1300000000000000001']);
  await ledger.put('1300000000000000001', { ...hour, held: [] });
  assert.deepEqual(await ledger.held(), [], 'the summary posted: nothing to come');
});
