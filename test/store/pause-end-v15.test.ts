// Schema version 15 (the notice that a timed pause ran out is stored as what happened, said when sent): such a
// notice that version 14 queued as English text and had not sent yet is sent once after the upgrade, as it was
// written, though the chat chose Russian since; nothing of the version-14 store is rewritten.
//
// versions/v14-pause-end.json is that notice's outbox rows as version 14's announcePauseEnds wrote them (commit
// 17724e7, for the populated store's "open" chat, English).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nonceFor } from '../../src/alerts/delivery.ts';
import { translator } from '../../src/i18n/index.ts';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.ts';
import { deliverAll, inner, seedQueued } from '../helpers/queued.ts';
import { snapshotOf } from '../helpers/schema.ts';

test('version 14 -> 15: a pause-ended notice queued as text by version 14 is sent once, as it was written', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v15-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const {
    before,
    queued,
    entry: old,
  } = await seedQueued<{ id: string; content: { kind: 'notice'; text: string } }>(url, 14, 'pause-end');

  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 14);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  assert.equal(MIGRATIONS[14]!.kind, 'contract', 'version 14 code would send a notice stored as an event empty');
  assert.ok(store.schema.mark.oldestCode >= 15, 'version 14 code may not run on it any more');
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of [...before, ...queued].filter((r) => !/^meta::|^outbox::pending$/.test(r.key)))
    assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);

  // The chat chose Russian since: the notice was written in English and is sent as it was.
  await store.languages.set('console', 'open', 'ru');
  const sent = await deliverAll(t, store);
  // The version-14 store's own unsent alerts go out too; the notice is told by its nonce.
  const notices = sent.filter((s) => s.nonce === nonceFor(old.id));
  assert.equal(notices.length, 1, 'sent once');
  assert.deepEqual(notices[0]!.view, { kind: 'text', text: old.content.text }, 'the text as version 14 wrote it');
  assert.equal(old.content.text, translator('en')('subscribe.pauseEnded'));
  const entry = await store.outbox.get(old.id);
  assert.equal(entry?.state, 'sent');
  assert.equal(entry?.messageId, notices[0]!.messageId);
});
