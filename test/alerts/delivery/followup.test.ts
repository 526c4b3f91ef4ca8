import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followUp, track } from '../../../src/alerts/delivery/followup.ts';
import { addKols, mergeKols } from '../../../src/alerts/delivery/amend.ts';
import { sendOne } from '../../../src/alerts/delivery/outcome.ts';
import { mergedEntry } from '../../../src/alerts/merge.ts';
import { nextDue, type Call } from '../../../src/store/calls.ts';
import Keyv from 'keyv';
import type { KolClient } from '../../../src/api/index.ts';
import { createFollowups } from '../../../src/alerts/calls/followups.ts';
import { silentLogger } from '../../../src/log.ts';
import { createCallStore } from '../../../src/store/calls.ts';
import { strictKv, type Kv } from '../../../src/store/strict.ts';
import { alertContent, deliveryKit, textOf } from './kit.ts';

const HOUR = 3_600_000;

test('a follow-up edits the alert in place with the call’s latest line', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c', { filters: { ...(await k.subscribe('c')).filters, followups: [60] } });
  const e = await k.alert('c');
  await sendOne(k.s, e, k.sender, sub);
  const call = (await k.store.calls.get(e.id))!;
  assert.deepEqual(call.points, [60]);
  await k.store.calls.save([{ ...call, next: 1, samples: [{ at: k.now + HOUR, marketCap: 2_000_000, point: 60 }] }]);
  const content = { kind: 'followup', call: e.id, point: 0 } as const;
  const fu = await k.alert('c', { id: `fu:${e.id}:0`, content });
  assert.equal(await followUp(k.s, fu, content, k.sender, sub), 'next');
  const edit = k.out.at(-1)!;
  assert.equal(edit.op, 'edit');
  assert.equal(edit.messageId, '1');
  assert.match(textOf(edit.view), /Since alert \(1h\): 2x · mcap \$1M → \$2M/);
  assert.match(textOf(edit.view), /TK1 shilled by/, 'the alert is unchanged above the line');
});

test('a deleted alert message ends its call’s follow-ups; a transient failure is retried later', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c');
  const e = await k.alert('c');
  await sendOne(k.s, e, k.sender, sub);
  const call = (await k.store.calls.get(e.id))!;
  await k.store.calls.save([{ ...call, next: 1, samples: [{ at: k.now, marketCap: 2_000_000, point: 60 }] }]);
  const content = { kind: 'followup', call: e.id, point: 0 } as const;
  const fu = await k.alert('c', { id: `fu:${e.id}:0`, content });
  k.answers.set('c', () => ({ kind: 'uncertain', reason: 'socket hang up' }));
  assert.equal(await followUp(k.s, fu, content, k.sender, sub), 'later', 'an edit is safe to repeat');
  k.answers.set('c', () => ({ kind: 'rejected', reason: 'message to edit not found' }));
  assert.equal(await followUp(k.s, fu, content, k.sender, sub), 'next');
  assert.match((await k.store.calls.get(e.id))!.ended!, /not found/);
});

test('each alert of a merged message is recorded as a call of that message', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('g');
  const members = [await k.alert('g'), await k.alert('g')];
  await track(k.s, mergedEntry('burst', members, k.now), '77', sub);
  for (const m of members) assert.equal((await k.store.calls.get(m.id))!.messageId, '77');
});

test('a burst’s calls are followed up in their message: each edit shows the whole list with every token’s move', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('g', { filters: { ...(await k.subscribe('g')).filters, followups: [60] } });
  const members = [await k.alert('g'), await k.alert('g')];
  await track(k.s, mergedEntry('burst', members, k.now), '77', sub);
  const [a, b] = await Promise.all(members.map(async (m) => (await k.store.calls.get(m.id))!));
  assert.deepEqual(a!.burst, { calls: [members[0]!.id, members[1]!.id], points: [60] });
  assert.deepEqual(a!.points, [], 'older code finds no point due and never edits the list with one alert');
  assert.equal(nextDue(a!), a!.at + HOUR, 'the round finds it due');
  const edit = async (call: Call, cap: number) => {
    await k.store.calls.save([{ ...call, next: 1, samples: [{ at: k.now + HOUR, marketCap: cap, point: 60 }] }]);
    const content = { kind: 'followup', call: call.id, point: 0 } as const;
    const fu = await k.alert('g', { id: `fu:${call.id}:0`, content });
    assert.equal(await followUp(k.s, fu, content, k.sender, sub), 'next');
    const last = k.out.at(-1)!;
    assert.equal(last.op, 'edit');
    assert.equal(last.messageId, '77', 'the burst message itself');
    return textOf(last.view);
  };
  const first = await edit(a!, 2_000_000);
  assert.match(first, /2 alerts at once/);
  assert.match(first, /TK1[^•]*2\.00x since then/);
  assert.match(first, /TK2/, 'the other token stays listed');
  assert.doesNotMatch(first, /TK2[^•]*since then/);
  const second = await edit(b!, 3_000_000);
  assert.match(second, /TK1[^•]*2\.00x since then/);
  assert.match(second, /TK2[^•]*3\.00x since then/);
  // The message deleted: every call of it ends.
  k.answers.set('g', () => ({ kind: 'rejected', reason: 'message to edit not found' }));
  const content = { kind: 'followup', call: a!.id, point: 0 } as const;
  const fu = await k.alert('g', { id: `fu:${a!.id}:again`, content });
  assert.equal(await followUp(k.s, fu, content, k.sender, sub), 'next');
  for (const m of members) assert.match((await k.store.calls.get(m.id))!.ended!, /not found/);
});

test('a quiet-hours summary’s calls are scored but not followed (the summary shows the move when sent)', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('q');
  const members = [await k.alert('q'), await k.alert('q')];
  await track(k.s, mergedEntry('quiet', members, k.now), '78', sub);
  for (const m of members) {
    const call = (await k.store.calls.get(m.id))!;
    assert.equal(call.messageId, '78');
    assert.equal(call.burst, undefined);
    assert.equal(nextDue(call), undefined);
  }
});

test('more KOLs within the cooldown: a sent alert is edited to name them all, each once', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c');
  const e = await k.alert('c');
  await sendOne(k.s, e, k.sender, sub);
  const other = alertContent(2).kols;
  const twice = [...alertContent(1).kols, ...other];
  assert.deepEqual(
    mergeKols(alertContent(1).kols, twice).map((x) => x.username),
    ['kol1', 'kol2'],
  );
  const content = { kind: 'more', of: e.id, kols: twice } as const;
  const more = await k.alert('c', { content });
  assert.equal(await addKols(k.s, more, content, k.sender), undefined);
  assert.equal(k.out.at(-1)!.op, 'edit');
  assert.match(textOf(k.out.at(-1)!.view), /@kol2/);
  assert.deepEqual((await k.store.calls.get(e.id))!.kols, ['kol1', 'kol2'], 'one call with all its KOLs');
});

test('an edit queued before its call’s sample was saved waits for it, then shows the point', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c', { filters: { ...(await k.subscribe('c')).filters, followups: [60] } });
  const e = await k.alert('c');
  await sendOne(k.s, e, k.sender, sub);
  const content = { kind: 'followup', call: e.id, point: 0 } as const;
  const fu = await k.alert('c', { id: `fu:${e.id}:0`, content });
  // The round queued the edit; the call's new sample is not saved yet (a crash, or a drain in between).
  assert.equal(await followUp(k.s, fu, content, k.sender, sub), 'later');
  assert.equal(k.out.length, 1, 'no edit with the old text');
  assert.equal((await k.store.outbox.get(fu.id))!.state, 'pending');
  const call = (await k.store.calls.get(e.id))!;
  await k.store.calls.save([{ ...call, next: 1, samples: [{ at: k.now + HOUR, marketCap: 3_000_000, point: 60 }] }]);
  assert.equal(await followUp(k.s, (await k.store.outbox.get(fu.id))!, content, k.sender, sub), 'next');
  assert.match(textOf(k.out.at(-1)!.view), /Since alert \(1h\): 3x/);
});

test('a crash between a round’s burst edit and its samples: restarted, the message shows every token’s move', async (t) => {
  let crash = false;
  const inner = strictKv(new Keyv());
  const kv: Kv = {
    ...inner,
    async set(key, value, ttl) {
      if (crash && key.startsWith('c:')) throw new Error('killed before the samples were saved');
      return inner.set(key, value, ttl);
    },
  };
  let now = 0;
  const calls = createCallStore(kv, { retentionMs: 30 * 24 * HOUR, now: () => now });
  const k = await deliveryKit(t, { calls });
  now = k.now;
  const sub = await k.subscribe('g', { filters: { ...(await k.subscribe('g')).filters, followups: [60] } });
  const members = [await k.alert('g'), await k.alert('g')];
  await track(k.s, mergedEntry('burst', members, k.now), '77', sub);
  const api = {
    async getTokenAnalytics(p: { tokenAddress: string }) {
      return { items: [{ token: { address: p.tokenAddress }, marketcap: 2_000_000, liquidity: 1 }] };
    },
  } as unknown as KolClient;
  const round = () =>
    createFollowups({
      calls,
      outbox: k.store.outbox,
      api,
      lease: { fenced: (write) => write() },
      log: silentLogger(),
      perMinute: 60,
      now: () => k.now,
    }).round();
  k.advance(HOUR + 60_000);
  crash = true;
  await assert.rejects(round(), /killed/);
  crash = false;
  const pending = async () => {
    const out = [];
    for (const e of await k.store.outbox.pending())
      if (e.content.kind === 'followup' && e.state === 'pending') out.push(e);
    return out;
  };
  const [first] = await pending();
  assert.ok(first, 'the edit was queued before the crash');
  const fu = first.content as Extract<typeof first.content, { kind: 'followup' }>;
  assert.equal(await followUp(k.s, first, fu, k.sender, sub), 'later', 'it waits for the sample it shows');
  k.advance(5_000); // restarted: the round runs again
  await round();
  for (const e of await pending()) assert.equal(await followUp(k.s, e, e.content as typeof fu, k.sender, sub), 'next');
  const last = k.out.at(-1)!;
  assert.equal(last.messageId, '77');
  assert.match(textOf(last.view), /TK1[^•]*2\.00x since then/);
  assert.match(textOf(last.view), /TK2[^•]*2\.00x since then/);
});
