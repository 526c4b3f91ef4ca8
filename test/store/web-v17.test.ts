// Schema version 17 (the web space: community pages by slug): every row a version-16 store held opens
// unchanged, and a community page turned on after the upgrade is found by its slug and by its chat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';

test('version 16 -> 17: a version-16 store is unchanged after the upgrade; a page turned on is found both ways', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v17-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 16)).filter((r) => !r.key.startsWith('meta::'));
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 16);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before) assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
  assert.equal(await store.web.ofChat('telegram', '-1001'), undefined, 'no page until an admin turns one on');
  const opened = await store.web.open('telegram', '-1001', 'alpha', 1_000, 'Alpha');
  assert.deepEqual(opened, {
    page: { slug: 'alpha', platform: 'telegram', chatId: '-1001', since: 1_000, name: 'Alpha' },
  });
  assert.equal((await store.web.bySlug('alpha'))?.chatId, '-1001');
  assert.equal(await store.web.close('telegram', '-1001'), 'alpha');
  assert.equal(await store.web.bySlug('alpha'), undefined, 'off: the slug names nothing');
});
