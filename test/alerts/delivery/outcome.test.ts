import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sendOne, unwanted } from '../../../src/alerts/delivery/outcome.ts';
import { deliveryKit, textOf } from './kit.ts';

test('an accepted alert is recorded as a call, then marked sent with its message id', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c');
  const e = await k.alert('c');
  assert.equal(await sendOne(k.s, e, k.sender, sub), 'next');
  assert.match(textOf(k.out[0]!.view), /TK1/);
  const stored = await k.store.outbox.get(e.id);
  assert.equal(stored!.state, 'sent');
  assert.equal(stored!.messageId, '1');
  assert.equal((await k.store.calls.get(e.id))!.messageId, '1', 'the call points at the message');
});

test('a 429 waits as long as it says, however old the alert; other transient failures give up after retryForMs', async (t) => {
  const k = await deliveryKit(t, { retryForMs: 60_000 });
  const sub = await k.subscribe('c');
  const e = await k.alert('c');
  k.answers.set('c', () => ({ kind: 'retry', afterMs: 30_000, reason: '429: Too Many Requests', rateLimited: true }));
  k.advance(120_000);
  assert.equal(await sendOne(k.s, e, k.sender, sub), 'later');
  const waiting = await k.store.outbox.get(e.id);
  assert.equal(waiting!.state, 'pending');
  assert.equal(waiting!.notBefore, k.now + 30_000);
  assert.equal(k.s.wakeAt, k.now + 30_000, 'a drain is due when the wait ends');
  assert.equal(await sendOne(k.s, waiting!, k.sender, sub), 'later', 'not sent before its time');
  k.advance(30_000);
  k.answers.set('c', () => ({ kind: 'retry', afterMs: 5_000, reason: '502: Bad Gateway' }));
  assert.equal(await sendOne(k.s, (await k.store.outbox.get(e.id))!, k.sender, sub), 'next');
  assert.match((await k.store.outbox.get(e.id))!.error!, /gave up after 2 attempts: 502/);
});

test('an uncertain send is not repeated (it may have landed); a refused one dies; the chat stays subscribed', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c');
  const a = await k.alert('c');
  const b = await k.alert('c');
  k.answers.set('c', () => ({ kind: 'uncertain', reason: 'socket hang up' }));
  assert.equal(await sendOne(k.s, a, k.sender, sub), 'next');
  k.answers.set('c', () => ({ kind: 'rejected', reason: '400: message too long' }));
  assert.equal(await sendOne(k.s, b, k.sender, sub), 'next');
  assert.match((await k.store.outbox.get(a.id))!.error!, /not resent/);
  assert.match((await k.store.outbox.get(b.id))!.error!, /refused/);
  assert.equal((await k.store.subscriptions.get(sub.id))!.disabled, null);
});

test('a destination gone for good is disabled and its queue stops', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c');
  const e = await k.alert('c');
  k.answers.set('c', () => ({ kind: 'gone', reason: 'bot was kicked' }));
  assert.equal(await sendOne(k.s, e, k.sender, sub), 'stop');
  assert.equal((await k.store.subscriptions.get(sub.id))!.disabled!.reason, 'bot was kicked');
});

test('a send the store could not record is never sent again: the next pass only records it', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c');
  const e = await k.alert('c');
  // The memory store has no failure hook: the "sent" write fails by hand.
  const update = k.store.outbox.update;
  let failNext = true;
  k.store.outbox.update = async (x) => {
    if (x.state === 'sent' && failNext) {
      failNext = false;
      throw new Error('store down');
    }
    return update.call(k.store.outbox, x);
  };
  await assert.rejects(sendOne(k.s, e, k.sender, sub), /store down/);
  assert.equal(await sendOne(k.s, e, k.sender, sub), 'next');
  assert.equal(k.out.length, 1, 'one message');
  assert.equal((await k.store.outbox.get(e.id))!.state, 'sent');
});

test('unwanted: unsubscribed, disabled, paused and muted alerts are not sent; a test alert ignores pause', async (t) => {
  const k = await deliveryKit(t);
  const sub = await k.subscribe('c');
  const e = await k.alert('c');
  const now = k.now;
  assert.equal(unwanted(e, sub, now), undefined);
  assert.match(unwanted(e, undefined, now)!, /unsubscribed/);
  assert.match(unwanted(e, { ...sub, disabled: { reason: 'kicked', at: 0 } }, now)!, /disabled: kicked/);
  assert.match(unwanted(e, { ...sub, pausedUntil: now + 1 }, now)!, /paused/);
  assert.equal(unwanted({ ...e, id: `test-${e.id}` }, { ...sub, pausedUntil: now + 1 }, now), undefined);
  const key = `base:0x${'1'.padStart(40, '0')}`;
  assert.match(unwanted(e, { ...sub, mutedTokens: [key] }, now)!, /muted/);
});
