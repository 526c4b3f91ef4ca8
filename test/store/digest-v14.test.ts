// Schema version 14 (a digest in the outbox is stored as its figures, said and drawn when sent): a digest
// that version 13 queued, rendered, and had not sent yet is sent once after the upgrade, as it was written,
// picture included; nothing of the version-13 store is rewritten.
//
// versions/v13-digest.json is that digest's outbox rows as version 13's queueDigest wrote them (commit
// 89152b1, for the populated store's "digest" chat, English, with two calls and so the calls chart).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nonceFor } from '../../src/alerts/delivery.ts';
import type { CardView } from '../../src/domain/view.ts';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.ts';
import { deliverAll, inner, seedQueued } from '../helpers/queued.ts';
import { snapshotOf } from '../helpers/schema.ts';

test('version 13 -> 14: a digest queued rendered by version 13 is sent once, as it was written, picture included', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v14-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  // The digest written beside the version-13 store's own rows, and listed in its pending batches.
  const {
    before,
    queued: digest,
    entry: old,
  } = await seedQueued<{
    id: string;
    content: { view: CardView; picture: { png64: string; name: string; alt: string } };
  }>(url, 13, 'digest');

  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 13);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  assert.equal(MIGRATIONS[13]!.kind, 'contract', 'version 13 code would send a digest stored as figures empty');
  const after = new Map((await snapshotOf(store)).map((r) => [r.key, inner(r.value)]));
  for (const r of [...before, ...digest].filter((r) => !/^meta::|^outbox::pending$/.test(r.key)))
    assert.deepEqual(after.get(r.key), inner(r.value), `${r.key} unchanged`);

  // The chat chose Russian since: the digest was written in English and is sent as it was.
  await store.languages.set('console', 'digest', 'ru');
  const sent = await deliverAll(t, store);
  // The version-13 store's own unsent alerts go out too; the digest is told by its nonce.
  const digests = sent.filter((s) => s.nonce === nonceFor(old.id));
  assert.equal(digests.length, 1, 'sent once');
  const card = digests[0]!.view as CardView;
  const { picture, ...words } = card;
  assert.deepEqual(words, old.content.view, 'the card as version 13 wrote it');
  assert.equal(card.title, 'Daily digest');
  assert.equal(picture?.name, old.content.picture.name);
  assert.equal(picture?.alt, 'Calls in this chat');
  assert.deepEqual(Buffer.from(picture!.png), Buffer.from(old.content.picture.png64, 'base64'), 'its picture');
  assert.deepEqual(Buffer.from(picture!.png).subarray(1, 4).toString(), 'PNG');
  const entry = await store.outbox.get(old.id);
  assert.equal(entry?.state, 'sent');
  assert.equal(entry?.messageId, digests[0]!.messageId);
});
