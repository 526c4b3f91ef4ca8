// `/digest now` builds the digest the schedule would: with the chat's top callers where its board
// is on (members' calls), as the scheduled one has them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memberCall } from '../../src/store/membercalls.ts';
import { harness, caller } from '../commands/harness.ts';

test('/digest now lists the chat’s top callers, as the scheduled digest does', async (t) => {
  const h = await harness();
  t.after(() => h.close());
  const board = `${caller.platform}:${caller.chatId}`;
  await h.send('/subscribe');
  await h.store.members.setOn(board, true);
  const at = Date.now() - 3_600_000;
  for (let n = 1; n <= 3; n++) {
    const call = memberCall({
      board,
      platform: caller.platform,
      chatId: caller.chatId,
      messageId: String(n),
      member: { id: 'alice', name: '@alice' },
      token: { chain: 'base', address: `0x${n.toString(16).padStart(40, '0')}`, symbol: `T${n}`, name: `T${n}` },
      marketCap: 1000,
      liquidity: null,
      at,
      points: [5],
      nonce: String(n),
    });
    assert.equal((await h.store.members.call(call)).kind, 'recorded');
    await h.store.calls.save([
      { ...call, peak: 3000, samples: [{ at: at + 300_000, marketCap: 3000, point: 5 }], next: 1 },
    ]);
  }
  await h.send('/digest now');
  const queued = (await h.store.outbox.pending()).find((e) => e.content.kind === 'digest');
  assert.ok(queued && queued.content.kind === 'digest' && 'data' in queued.content, 'a digest queued as its figures');
  const callers = queued.content.data.callers;
  assert.ok(callers, 'the board is on: the digest has its callers section');
  assert.deepEqual(
    callers.rows?.map((r) => r.name),
    ['@alice'],
  );
});
