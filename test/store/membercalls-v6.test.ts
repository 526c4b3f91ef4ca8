// Schema version 6 (members' own calls): a version-5 store opens at version 6 as a contract
// (version 5 code may no longer run on it), its alerts' calls and their follow-ups unchanged,
// and a board can be turned on and record a call at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { memberCall } from '../../src/store/membercalls.ts';
import type { Call } from '../../src/store/calls.ts';
import { seedVersion } from '../helpers/schema.ts';

test('version 5 -> 6: the alerts’ calls a version-5 store held are followed up as before; a board records beside them', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v6-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 5))
    .filter((r) => r.key.startsWith('calls::c:'))
    .map((r) => (r.value as { value: Call }).value);
  assert.ok(before.length >= 2, 'the version-5 snapshot holds calls');
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 5);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  // At least 6: a later contract step (14) raises it further.
  assert.ok(store.schema.mark.oldestCode >= 6, 'version 5 code may not run on it any more');
  for (const old of before) assert.deepEqual(await store.calls.get(old.id), old, `${old.id} unchanged`);
  const open = before.filter((c) => c.next < c.points.length);
  const due = await store.calls.dueTokens(Number.MAX_SAFE_INTEGER);
  assert.ok(open.length > 0 && due.length > 0, 'their follow-ups are still due');
  const board = before[0]!.subId;
  assert.equal((await store.members.settings(board)).on, false, 'no board is on after the upgrade');
  await store.members.setOn(board, true);
  const tok = before[0]!.token;
  const made = await store.members.call(
    memberCall({
      board,
      platform: before[0]!.platform,
      chatId: before[0]!.chatId,
      messageId: '1',
      member: { id: '7', name: '@seven' },
      token: tok,
      marketCap: 1000,
      liquidity: null,
      at: Date.now(),
      points: [5],
      nonce: '1',
    }),
  );
  assert.equal(made.kind, 'recorded');
  assert.deepEqual(
    (await store.calls.list(board, 0)).map((c) => c.id),
    before.filter((c) => c.subId === board).map((c) => c.id),
    'the KOL scorecard lists no member call',
  );
  assert.equal((await store.members.list(board, 0)).length, 1);
});
