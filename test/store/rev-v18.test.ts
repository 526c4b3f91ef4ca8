// Schema version 18 (a subscription carries rev, its version; a change made from a read is a compare-and-set on it):
// a version-17 store opens with every row as it was (no rev: version 0), and a change read from such a row is
// written once: a second change read before it is refused, read again and kept too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.ts';
import { type Subscription, WriteConflict } from '../../src/store/subscriptions.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';

const inner = (v: unknown) => (v as { value?: unknown }).value;

test('version 17 -> 18: every row kept; a subscription written by version 17 is version 0, and two changes read from it keep both', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v18-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = await seedVersion(url, 17);
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 17);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  assert.equal(MIGRATIONS[17]!.kind, 'expand', 'version 17 code ignores rev');
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before.filter((r) => !r.key.startsWith('meta::')))
    assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);

  const id = 'console:open';
  const old = (await store.subscriptions.get(id))!;
  assert.equal(old.rev, undefined, 'written by version 17: no version');
  const first: Subscription = { ...old, filters: { ...old.filters, chains: ['solana'] } };
  const second: Subscription = { ...old, filters: { ...old.filters, minTokenScore: 90 } };
  await store.subscriptions.replace(first);
  await assert.rejects(store.subscriptions.replace(second), WriteConflict, 'read before the first change');
  const now = (await store.subscriptions.get(id))!;
  assert.equal(now.rev, 1);
  await store.subscriptions.replace({ ...now, filters: { ...now.filters, minTokenScore: 90 } });
  const both = (await store.subscriptions.get(id))!;
  assert.deepEqual([both.filters.chains, both.filters.minTokenScore, both.rev], [['solana'], 90, 2]);
});
