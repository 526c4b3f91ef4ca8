// A pause that runs out by itself is said once in its destination, in its language, by the
// leader's minute check; a pause resumed by hand, one until resumed, and a check repeated
// (a crash between the notice and clearing the pause) say nothing more. Clock injected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDelivery } from '../../src/alerts/delivery.ts';
import type { Sender } from '../../src/alerts/delivery/types.ts';
import { createDigests } from '../../src/alerts/digest/runner.ts';
import { FOREVER, setPaused } from '../../src/alerts/subscriptions.ts';
import { announcePauseEnds } from '../../src/alerts/pauses.ts';
import type { View } from '../../src/domain/view.ts';
import { translator } from '../../src/i18n/index.ts';
import { silentLogger } from '../../src/log.ts';
import { openStore } from '../../src/store/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';

const textOf = (v: View) => (v.kind === 'text' && typeof v.text === 'string' ? v.text : JSON.stringify(v));

test('a pause that runs out is announced once, in the chat’s language; resumed or endless pauses say nothing', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  let clock = Date.parse('2026-11-26T12:00:00Z');
  const sent: { chatId: string; text: string }[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(chatId, view) {
      sent.push({ chatId, text: textOf(view) });
      return { kind: 'sent', messageId: String(sent.length) };
    },
    async edit(_chatId, messageId) {
      return { kind: 'sent', messageId };
    },
  };
  const log = silentLogger();
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [sender],
    log,
    languages: store.languages,
    now: () => clock,
  });
  t.after(() => delivery.stop());
  const digests = createDigests({
    api: undefined as never,
    log,
    subscriptions: store.subscriptions,
    outbox: store.outbox,
    state: store.watch,
    languages: store.languages,
    lease: { status: () => 'leader', fenced: (write) => write() },
    kick: () => {},
    now: () => clock,
  });
  const subs = store.subscriptions;
  for (const id of ['timed', 'ru', 'resumed', 'forever'])
    await subs.put({ ...openSubscription('console', id), isGroup: true });
  await store.languages.set('console', 'ru', 'ru');
  const get = async (id: string) => (await subs.get(`console:${id}`))!;
  await setPaused(subs, await get('timed'), clock + 30 * 60_000, clock);
  await setPaused(subs, await get('ru'), clock + 30 * 60_000, clock);
  await setPaused(subs, await get('resumed'), clock + 30 * 60_000, clock);
  await setPaused(subs, await get('forever'), FOREVER, clock);

  clock += 10 * 60_000;
  assert.deepEqual(await digests.check(), [], 'nothing while the pauses run');
  await setPaused(subs, await get('resumed'), null, clock); // /alerts resume said so itself
  clock += 21 * 60_000;
  // A crash after the notice and before the pause was cleared: the next check runs over the same pause.
  const crashing = new Proxy(subs, {
    get(target, p) {
      if (p === 'put') return async () => Promise.reject(new Error('killed'));
      const v = Reflect.get(target, p);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  await assert.rejects(
    announcePauseEnds(
      { subscriptions: crashing, outbox: store.outbox, fenced: (w) => w() },
      [await get('timed')],
      clock,
    ),
  );
  assert.notEqual((await get('timed')).pausedUntil, null, 'the crash left the pause in place');
  const queued = await digests.check();
  assert.equal(queued.length, 2, 'the two pauses that ran out (one notice per pause end)');
  assert.deepEqual(await digests.check(), [], 'a second check says nothing more');
  await delivery.drain();
  const byChat = (id: string) => sent.filter((s) => s.chatId === id).map((s) => s.text);
  assert.equal(byChat('timed').length, 1, 'said once');
  assert.equal(byChat('timed')[0], translator('en')('subscribe.pauseEnded'));
  assert.deepEqual(byChat('ru'), [translator('ru')('subscribe.pauseEnded')]);
  assert.deepEqual(byChat('resumed'), []);
  assert.deepEqual(byChat('forever'), []);
  assert.equal((await get('timed')).pausedUntil, null, 'the pause is cleared');
  assert.equal((await get('forever')).pausedUntil, FOREVER);
});

test('a pause-ended notice queued while the chat read English and sent after it chose Russian is said in Russian', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  const clock = Date.parse('2026-11-26T12:00:00Z');
  const sent: string[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(_chatId, view) {
      sent.push(textOf(view));
      return { kind: 'sent', messageId: String(sent.length) };
    },
  };
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [sender],
    log: silentLogger(),
    languages: store.languages,
    now: () => clock,
  });
  t.after(() => delivery.stop());
  await store.subscriptions.put({ ...openSubscription('console', 'c'), isGroup: true });
  await store.languages.set('console', 'c', 'en');
  const until = clock - 60_000;
  await setPaused(store.subscriptions, (await store.subscriptions.get('console:c'))!, until, clock - 3_600_000);
  const [entry] = await announcePauseEnds(
    { subscriptions: store.subscriptions, outbox: store.outbox, fenced: (w) => w() },
    [(await store.subscriptions.get('console:c'))!],
    clock,
  );
  const stored = (await store.outbox.get(entry!.id))?.content;
  assert.deepEqual(stored, { kind: 'notice', event: { what: 'pause-ended', until } }, 'what happened, no words');

  await store.languages.set('console', 'c', 'ru');
  await delivery.drain();
  assert.deepEqual(sent, [translator('ru')('subscribe.pauseEnded')]);
  assert.notEqual(sent[0], translator('en')('subscribe.pauseEnded'));
  assert.equal((await store.outbox.get(entry!.id))?.state, 'sent');
});
