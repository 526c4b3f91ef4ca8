// `/digest now` builds the digest the schedule would: with the chat's top callers where its board
// is on (members' calls), as the scheduled one has them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memberCall } from '../../src/store/membercalls.ts';
import { harness, caller } from '../commands/harness.ts';
import type { Call } from '../../src/store/calls.ts';

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

test('/digest now: a token whose market cap fell to $0 is a known loss, counted in the hit rate, and read', async (t) => {
  const h = await harness();
  t.after(() => h.close());
  await h.send('/subscribe');
  const [pump, rug] = h.sandbox.data.tokens.filter((x) => x.marketcap > 0).slice(30, 32);
  const at = Date.now() - 3_600_000;
  // A pump at 3x now, and a token alerted an hour ago, not yet followed up, worth nothing now.
  for (const [i, x, base] of [
    [1, pump!, pump!.marketcap / 3],
    [2, rug!, 1_000_000],
  ] as const)
    await h.store.calls.record({
      id: `d${i}`,
      subId: `${caller.platform}:${caller.chatId}`,
      platform: caller.platform,
      chatId: caller.chatId,
      messageId: String(i),
      token: { chain: x.chain_id as Call['token']['chain'], address: x.address, symbol: x.symbol, name: x.symbol },
      kols: ['kol_a'],
      tweetIds: [String(i)],
      at,
      marketCap: base,
      liquidity: null,
      points: [60],
      next: 0,
      samples: [],
      peak: base,
    });
  rug!.marketcap = 0;
  await h.send('/digest now');
  const queued = (await h.store.outbox.pending()).find((e) => e.content.kind === 'digest');
  assert.ok(queued && queued.content.kind === 'digest' && 'data' in queued.content);
  const calls = queued.content.data.calls;
  assert.ok(calls.state === 'scored');
  assert.equal(calls.hitRate, 0.5, 'one of two calls hit: the rugged one counts');
  assert.equal(calls.partial, undefined, 'both tokens were read just now');
  assert.deepEqual(
    calls.rows.map((r) => [r.symbol, r.now]),
    [
      [pump!.symbol, 3],
      [rug!.symbol, 0],
    ],
  );
});
