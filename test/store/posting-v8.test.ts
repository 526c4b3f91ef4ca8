// Schema version 8 (where alerts go on Discord): a version-7 store opens at version 8 as an expand step
// (version 7 code may still run), every subscription it held unchanged and posting a plain message;
// a role ping and publishing can then be set on one of them without touching the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.ts';
import type { Subscription } from '../../src/store/subscriptions.ts';
import type { OutboxEntry } from '../../src/store/outbox.ts';
import { postingOf } from '../../src/alerts/delivery/compose.ts';
import { subscribe } from '../../src/alerts/subscriptions.ts';
import { seedVersion } from '../helpers/schema.ts';

test('version 7 -> 8: subscriptions written before posting still deliver plain messages; a ping is set on one alone', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v8-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 7))
    .filter((r) => r.key.startsWith('sub::'))
    .map((r) => (r.value as { value: Subscription }).value)
    .filter((v) => v && typeof v === 'object' && 'filters' in v);
  assert.ok(before.length >= 2, 'the version-7 snapshot holds subscriptions');
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 7);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  // Through this step alone: a later contract step (14) shuts version 7 code out for its own reasons.
  assert.equal(MIGRATIONS[7]!.kind, 'expand', 'an expand step: version 7 code may still run');
  const alert = (sub: Subscription) =>
    ({
      id: 'e1',
      subId: sub.id,
      platform: sub.platform,
      chatId: sub.chatId,
      createdAt: 0,
      content: { kind: 'alert', token: { name: 'Dog', symbol: 'WIF' }, kols: [], reason: '', actions: [] },
    }) as unknown as OutboxEntry;
  for (const old of before) {
    const now = await store.subscriptions.get(old.id);
    assert.deepEqual(now, old, `${old.id} unchanged`);
    const how = postingOf(alert(old), now);
    assert.equal(how?.ping, undefined, 'no ping');
    assert.equal(how?.publish, undefined, 'not published');
    assert.equal(how?.forum, undefined, 'not a forum post');
  }
  const first = before[0]!;
  const { sub } = await subscribe(
    store.subscriptions,
    { platform: first.platform, chatId: first.chatId, isGroup: true },
    'admin',
    (f) => f,
    async () => null,
    1,
    () => ({ pingRole: '123456789012345678', publish: true }),
  );
  assert.deepEqual(sub.posting, { pingRole: '123456789012345678', publish: true });
  assert.deepEqual(sub.filters, first.filters, 'the filters stay');
  assert.equal(postingOf(alert(sub), sub)?.ping, '123456789012345678');
  for (const other of before.slice(1)) assert.deepEqual(await store.subscriptions.get(other.id), other);
});
