// Schema version 5 (the owner space: bans and notices; subscriptions may carry serverId): a
// version-4 store opens with every subscription as it was, no ban, and a version-4 subscription
// counts for its own chat in the per-server quota.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { overQuota } from '../../src/alerts/subscriptions.ts';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import type { Subscription } from '../../src/store/subscriptions.ts';
import { seedVersion } from '../helpers/schema.ts';

test('version 4 -> 5: subscriptions unchanged, no bans, quotas count older subscriptions by their chat; bans then persist', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v5-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 4))
    .filter((r) => r.key.startsWith('sub::') && !r.key.endsWith('_version'))
    .map((r) => (r.value as { value: Subscription }).value);
  assert.ok(before.length >= 2, 'the version-4 snapshot holds subscriptions');
  let store = await openStore(url);
  assert.equal(store.schema.found, 4);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const after = await store.subscriptions.all();
  for (const old of before)
    assert.deepEqual(
      after.find((s) => s.id === old.id),
      old,
      `${old.id} unchanged`,
    );
  assert.deepEqual(await store.owner.bans(), []);
  assert.equal(await store.owner.banned(before.map((s) => s.id)), undefined);
  const one = before[0]!;
  // The chat of an older subscription is its own server: a quota of 1 is full there, and not elsewhere.
  const live = before.filter((s) => !s.disabled && s.platform === one.platform && s.chatId === one.chatId);
  assert.ok(live.length >= 1, 'the first subscription is live');
  assert.deepEqual(
    await overQuota(
      store.subscriptions,
      { platform: one.platform, chatId: one.chatId, threadId: 'new', isGroup: true },
      'x',
      { perServer: live.length },
    ),
    { which: 'server', limit: live.length },
  );
  assert.equal(
    await overQuota(store.subscriptions, { platform: one.platform, chatId: 'elsewhere', isGroup: true }, 'x', {
      perServer: 1,
    }),
    undefined,
  );
  await store.owner.ban({ target: 'telegram:-42', reason: 'spam', at: 1, by: 'telegram:1' });
  await store.close();
  store = await openStore(url);
  t.after(() => store.close());
  assert.equal((await store.owner.banned(['telegram:7', 'telegram:-42']))?.reason, 'spam', 'a ban survives a restart');
});
