// Schema version 7 (a member's calls of the last day listed apart, for the daily cap): built from
// the boards a version-6 store holds; the cap then counts a call made before the upgrade.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { indexMembersDay, memberCall } from '../../src/store/membercalls.ts';
import type { Call } from '../../src/store/calls.ts';
import { seedVersion } from '../helpers/schema.ts';

test('version 6 -> 7: each member’s calls of the last day are listed from the boards, and the daily cap counts them', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v7-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const calls = (await seedVersion(url, 6))
    .filter((r) => r.key.startsWith('calls::c:'))
    .map((r) => (r.value as { value: Call }).value)
    .filter((c) => c.member);
  assert.ok(calls.length >= 1, 'the version-6 snapshot holds a member’s call');
  const store = await openStore(url, { memberCalls: { perDay: 1 } });
  t.after(() => store.close());
  assert.equal(store.schema.found, 6);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const kv = store.space('calls');
  const [c] = calls;
  const listed = await kv.get<string[]>(`u:${c!.subId}:${c!.member!.id}`);
  // The snapshot's call is as old as the snapshot: listed while it is within a day, not after.
  assert.deepEqual(listed ?? [], Date.now() - c!.at < 86_400_000 ? [c!.id] : []);
  // As of an hour after the call (the migration run then): listed, and the cap of 1 a day is reached.
  await indexMembersDay(kv, c!.at + 3_600_000);
  assert.deepEqual(await kv.get<string[]>(`u:${c!.subId}:${c!.member!.id}`), [c!.id]);
  const again = memberCall({
    board: c!.subId,
    platform: c!.platform,
    chatId: c!.chatId,
    messageId: 'x',
    member: c!.member!,
    token: { ...c!.token, address: `${c!.token.address.slice(0, -4)}zzzz` },
    marketCap: 1,
    liquidity: null,
    at: c!.at + 3_600_000,
    points: [5],
    nonce: 'x',
  });
  const stored = await store.members.call(again);
  assert.equal(stored.kind, Date.now() - c!.at < 86_400_000 ? 'limit' : 'recorded');
});
