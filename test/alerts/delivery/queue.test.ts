import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOnce } from '../../../src/alerts/delivery/queue.ts';
import { deliveryKit } from './kit.ts';

test('a run sends every destination’s queue in order; one waiting out a 429 does not stop the others', async (t) => {
  const k = await deliveryKit(t);
  await k.subscribe('busy');
  await k.subscribe('quiet');
  await k.alert('busy');
  await k.alert('busy');
  await k.alert('quiet');
  await k.alert('quiet');
  k.answers.set('busy', () => ({
    kind: 'retry',
    afterMs: 10_000,
    reason: '429: Too Many Requests',
    rateLimited: true,
  }));
  await runOnce(k.s);
  assert.deepEqual(
    k.out.map((x) => x.chatId),
    ['quiet', 'quiet'],
  );
  assert.equal(k.s.wakeAt, k.now + 10_000);
  k.answers.delete('busy');
  k.advance(10_000);
  await runOnce(k.s);
  assert.deepEqual(
    k.out.map((x) => x.chatId),
    ['quiet', 'quiet', 'busy', 'busy'],
  );
});

test('follow-up edits go after every new alert of the run', async (t) => {
  const k = await deliveryKit(t);
  await k.subscribe('c');
  const first = await k.alert('c');
  await runOnce(k.s);
  const call = (await k.store.calls.get(first.id))!;
  await k.store.calls.save([{ ...call, next: 1, samples: [{ at: k.now, marketCap: 2_000_000, point: 60 }] }]);
  await k.alert('c', { id: `fu:${first.id}:0`, content: { kind: 'followup', call: first.id, point: 0 } });
  await k.alert('c');
  await runOnce(k.s);
  assert.deepEqual(
    k.out.map((x) => x.op),
    ['send', 'send', 'edit'],
  );
});

test('entries of a chat that moved (group upgrade) follow it to its new id', async (t) => {
  const k = await deliveryKit(t);
  await k.subscribe('old', { movedTo: 'new', disabled: { reason: 'upgraded', at: 0 } });
  await k.subscribe('new');
  await k.alert('old');
  await runOnce(k.s);
  assert.equal(k.s.again, true, 'another run is due');
  await runOnce(k.s);
  assert.deepEqual(
    k.out.map((x) => x.chatId),
    ['new'],
  );
});
