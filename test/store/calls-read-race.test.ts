/**
 * A call is written after its indexes (a crash in between leaves an index entry
 * ahead of its call, never a call no index finds). A read in that gap (a member's
 * /calls while the alert goes out, or another instance's) sees an entry with no
 * call yet: it must not drop it, or the call is missing from the chat's calls for
 * good. Entries of calls that really expired still leave the index.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Keyv from 'keyv';
import { callOf } from '../../src/alerts/calls/record.ts';
import { tokenKeyOf } from '../../src/domain/chains.ts';
import { MISSING_GRACE_MS, createCallStore } from '../../src/store/calls.ts';
import { strictKv, type Kv } from '../../src/store/strict.ts';
import { alertContent } from '../alerts/delivery/kit.ts';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

const entry = (i: number, at: number) => ({
  id: `tw${i}:telegram:5`,
  subId: 'telegram:5',
  platform: 'telegram' as const,
  chatId: '5',
  isGroup: true,
  content: alertContent(i),
  createdAt: at,
  notBefore: 0,
  attempts: 0,
  state: 'pending' as const,
  batchId: 'b',
});

test('a /calls read between a call’s index and the call itself keeps the call: it is listed once written', async () => {
  let clock = Date.now();
  const inner = strictKv(new Keyv());
  // The call's own write waits until the test lets it go: the gap a slow store leaves under load.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const kv: Kv = {
    ...inner,
    async set(key, value, ttl) {
      if (key.startsWith('c:')) await held;
      return inner.set(key, value, ttl);
    },
  };
  const calls = createCallStore(kv, { retentionMs: 30 * DAY, now: () => clock });
  const e = entry(1, clock);
  const call = callOf(e, e.content, 'm1', [60], clock);
  const recording = calls.record(call);
  // Readers come while the call's write is held: the index names it, the call is not there yet.
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await calls.list('telegram:5', 0), []);
    assert.deepEqual(await calls.tokenCalls(tokenKeyOf(call.token.chain, call.token.address)), []);
    clock += (MISSING_GRACE_MS / 2) * 0.9;
  }
  release();
  assert.equal(await recording, true);
  assert.deepEqual(
    (await calls.list('telegram:5', 0)).map((c) => c.id),
    [call.id],
    'the call is in the chat’s list once written',
  );
  assert.equal((await calls.tokenCalls(tokenKeyOf(call.token.chain, call.token.address))).length, 1);
});

test('an expired call leaves the chat’s index as it is read (not at the first read that misses it)', async () => {
  let clock = Date.now();
  const inner = strictKv(new Keyv());
  const calls = createCallStore(inner, { retentionMs: 30 * DAY, now: () => clock });
  const old = entry(1, clock);
  await calls.record(callOf(old, old.content, 'm1', [], clock));
  // The call itself expired (its TTL); its index entry is still there.
  await inner.delete(`c:${old.id}`);
  assert.deepEqual(await inner.get<string[]>('d:telegram:5'), [old.id]);
  assert.deepEqual(await calls.list('telegram:5', 0), []);
  clock += MISSING_GRACE_MS;
  assert.deepEqual(await calls.list('telegram:5', 0), []);
  assert.equal(await inner.get('d:telegram:5'), undefined, 'the index no longer names the expired call');
});
