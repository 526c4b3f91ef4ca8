// Schema version 10 (button pages may ask for a value; forced-reply questions in the page space): every row
// a version-9 store held opens unchanged, its pages still press, and the new kinds of rows read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { readSnapshot, seedVersion, snapshotOf } from '../helpers/schema.ts';

test('version 9 -> 10: a version-9 store is unchanged after the upgrade and its pages still read', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v10-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 9)).filter((r) => !r.key.startsWith('meta::'));
  const pages = before.filter((r) => r.key.startsWith('page::'));
  assert.ok(pages.length > 0);
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 9);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before) assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
  for (const r of pages) {
    const stored = await store.pages.get(r.key.slice('page::'.length));
    assert.ok(stored, `${r.key} still presses`);
    assert.equal(stored.ask, undefined, 'an old page asks nothing');
  }
});

test('version 10 writes pages that ask and a question awaiting its reply, and reads them back', async (t) => {
  const rows = await readSnapshot(10);
  const asking = rows.filter((r) => r.key.startsWith('page::') && JSON.stringify(r.value).includes('"ask"'));
  assert.ok(asking.length > 0, 'the settings panel stored buttons that ask');
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v10b-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  await seedVersion(url, 10);
  const store = await openStore(url);
  t.after(() => store.close());
  const page = await store.pages.get(asking[0]!.key.slice('page::'.length));
  assert.equal(typeof page?.ask?.title, 'string');
  assert.deepEqual(await store.pages.getPrompt('telegram:-100777:42'), {
    action: 'a:?settings:AAAAAAAAAAAA',
    userId: '1',
    panel: 41,
  });
});
