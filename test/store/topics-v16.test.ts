// Schema version 16 (the topic space: forum topics the bot knows each chat has; a settings link naming another
// is refused): a version-15 store opens with every row as it was, and each topic with a subscription is known,
// so the settings link of a topic subscribed before the upgrade still opens its panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion, snapshotOf } from '../helpers/schema.ts';
import { TOPIC } from '../helpers/populated.ts';

const inner = (v: unknown) => (v as { value?: unknown }).value;

test('version 15 -> 16: every row kept; the topics with a subscription are known topics, no other', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v16-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = await seedVersion(url, 15);
  assert.ok(
    before.some((r) => r.key === `sub::console:${TOPIC.chatId}:${TOPIC.threadId}`),
    'the version-15 snapshot has a topic subscription',
  );
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 15);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  assert.equal(MIGRATIONS[15]!.kind, 'expand', 'version 15 code never reads the topic space');
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of before.filter((r) => !r.key.startsWith('meta::')))
    assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);
  assert.equal(await store.topics.has('console', TOPIC.chatId, TOPIC.threadId), true);
  assert.equal(await store.topics.has('console', TOPIC.chatId, '8'), false);
  assert.deepEqual(
    [...after.keys()].filter((k) => k.startsWith('topic::')),
    [`topic::console:${TOPIC.chatId}:${TOPIC.threadId}`],
  );
});
