import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regroup } from '../../../src/alerts/delivery/regroup.ts';
import { viewOf } from '../../../src/alerts/delivery/compose.ts';
import { BURST_ITEMS_MAX } from '../../../src/alerts/merge.ts';
import { deliveryKit, textOf } from './kit.ts';

test('quiet hours hold a new alert until they end, then what they held goes out as one summary, in order', async (t) => {
  const k = await deliveryKit(t);
  // Quiet all day but the minute before midnight UTC: the kit's clock sits inside them.
  const sub = await k.subscribe('q', { quiet: { from: 0, to: 1439, tz: 'UTC' } });
  const a = await k.alert('q');
  const b = await k.alert('q');
  const first = await regroup(k.s, [a, b], sub, k.sender);
  assert.deepEqual(first, [], 'nothing goes out during quiet hours');
  const held = await k.store.outbox.get(a.id);
  assert.ok(held!.quietUntil! > k.now, 'held until quiet hours end');
  assert.ok(k.s.wakeAt <= held!.quietUntil!, 'a drain is due when they end');
  k.advance(held!.quietUntil! - k.now + 1);
  const after = await regroup(k.s, await k.store.outbox.pending(), sub, k.sender);
  assert.equal(after.length, 1);
  const summary = after[0]!;
  assert.equal(summary.content.kind, 'merged');
  assert.deepEqual(summary.content.kind === 'merged' && summary.content.members, [a.id, b.id]);
  assert.equal((await k.store.outbox.get(a.id))!.state, 'merged', 'members are marked, never sent alone');
});

test('alerts held through one night, the bot back only in the next quiet hours: the summary waits for these to end', async (t) => {
  const k = await deliveryKit(t);
  // Quiet all day but the minute before midnight UTC: the kit's clock sits inside them.
  const sub = await k.subscribe('q', { quiet: { from: 0, to: 1439, tz: 'UTC' } });
  const a = await k.alert('q');
  assert.deepEqual(await regroup(k.s, [a], sub, k.sender), []);
  const firstEnd = (await k.store.outbox.get(a.id))!.quietUntil!;
  // Down through the minute between (no drain ran then): back two minutes after, quiet again.
  k.advance(firstEnd - k.now + 2 * 60_000);
  assert.deepEqual(await regroup(k.s, await k.store.outbox.pending(), sub, k.sender), [], 'no summary at night');
  const moved = (await k.store.outbox.get(a.id))!;
  assert.equal(moved.state, 'pending');
  assert.ok(moved.quietUntil! > k.now && moved.notBefore === moved.quietUntil, 'held until these quiet hours end');
  k.advance(moved.quietUntil! - k.now + 1);
  const after = await regroup(k.s, await k.store.outbox.pending(), sub, k.sender);
  assert.equal(after.length, 1);
  assert.deepEqual(after[0]!.content.kind === 'merged' && after[0]!.content.members, [a.id]);
});

test('a burst larger than the minute allows is merged; one that fits is not', async (t) => {
  const k = await deliveryKit(t, { perMinute: 3 });
  const sub = await k.subscribe('g');
  const fits = [await k.alert('g'), await k.alert('g'), await k.alert('g')];
  assert.deepEqual(
    (await regroup(k.s, fits, sub, k.sender)).map((e) => e.id),
    fits.map((e) => e.id),
  );
  const burst = [...fits, await k.alert('g')];
  const out = await regroup(k.s, burst, sub, k.sender);
  assert.equal(out.length, 1, 'four alerts for a chat that takes three: one message');
  assert.equal(out[0]!.content.kind === 'merged' && out[0]!.content.why, 'burst');
});

test('after a crash between storing a merged entry and marking its members, the members are not sent again', async (t) => {
  const k = await deliveryKit(t, { perMinute: 1 });
  const sub = await k.subscribe('g');
  const q = [await k.alert('g'), await k.alert('g')];
  const [merged] = await regroup(k.s, q, sub, k.sender);
  // The crash: the members were never marked.
  for (const e of q) await k.store.outbox.update({ ...e, state: 'pending' });
  const again = await regroup(k.s, await k.store.outbox.pending(), sub, k.sender);
  assert.deepEqual(
    again.map((e) => e.id),
    [merged!.id],
  );
  for (const e of q) assert.equal((await k.store.outbox.get(e.id))!.state, 'merged');
});

test('60 alerts held through quiet hours: every one listed once, in order, over as many summaries as the limits need', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('q', { quiet: { from: 0, to: 1439, tz: 'UTC' } });
  const held: string[] = [];
  for (let i = 0; i < 60; i++) held.push((await k.alert('q')).id);
  await regroup(k.s, await k.store.outbox.pending(), sub, k.sender);
  k.advance((await k.store.outbox.get(held[0]!))!.quietUntil! - k.now + 1);
  const out = await regroup(k.s, await k.store.outbox.pending(), sub, k.sender);
  const listed = out.flatMap((e) =>
    e.content.kind === 'merged' && e.content.why === 'quiet' ? e.content.members : [],
  );
  assert.deepEqual(listed, held, 'each once, in order');
  assert.equal(out.length, Math.ceil(60 / BURST_ITEMS_MAX));
  for (const e of out) {
    assert.equal(e.content.kind, 'merged');
    const view = await viewOf(k.s, e);
    const lines = textOf(view).match(/TK\d+/g) ?? [];
    assert.equal(
      new Set(lines).size,
      e.content.kind === 'merged' ? e.content.members.length : 0,
      'the message shows every alert it stands for (no "and N more")',
    );
  }
});
