// An owner's notice to 1,000 Telegram destinations through the real grammY sender and the
// Bot API fake (its limits enforced, on a 100x clock): a dry run first, then each once, paced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSubscription } from '../helpers/subscriptions.ts';
import { eventually, privateChat, rig } from '../adapters/telegram/helpers.ts';

const OWNER = 7401;
const N = 1000;
const NEVER = '0 0 1 1 *';

test('a notice reaches 1,000 Telegram destinations once each within the limits: dry run, send, progress, a repeated send writes nothing new', async (t) => {
  const r = await rig(t, { env: { OWNER_IDS: `telegram:${OWNER}` } });
  const chats = Array.from({ length: N }, (_, i) => 8_000_000 + i);
  // Half groups (Telegram's 20 a minute each), half private chats; one stopped, which a notice skips.
  await Promise.all(
    chats.map((id, i) => {
      const isGroup = i % 2 === 0;
      r.fake.addChat(isGroup ? { id: -id, type: 'group', title: `G${i}` } : privateChat(id));
      return r.app.store.subscriptions.put({ ...openSubscription('telegram', String(isGroup ? -id : id)), isGroup });
    }),
  );
  const gone = openSubscription('telegram', '8999999');
  await r.app.store.subscriptions.put({ ...gone, disabled: { reason: 'kicked', at: 1 } });
  const me = privateChat(OWNER);
  const text = 'Maintenance <b>tonight</b> at 02:00 UTC & back by 02:30';

  const dry = (await r.ask(me, `/owner notice telegram ${text}`)).text!;
  assert.match(
    dry,
    /Dry run: destinations this notice would reach: 1,000 \(Discord: 0, Telegram: 1,000\)\. Nothing was sent/,
  );
  const id = /\/owner send ([0-9a-f]{8})/.exec(dry)![1]!;
  assert.equal((await r.app.store.outbox.pending()).length, 0, 'a dry run queues nothing');

  // One chat's connection drops after Telegram took the message: an uncertain send, never repeated.
  const flaky = chats[1]!;
  r.fake.failChat(flaky, 'drop_after_send');
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  const queued = (await r.ask(me, `/owner send ${id}`)).text!;
  assert.match(queued, new RegExp(`Notice ${id} is on its way \\(destinations: 1,000\\)`));
  await eventually(async () => (await r.app.store.outbox.pending()).length === 0, 'the notice to go out', 120_000);
  // Sent again (a retried confirm): the same entry ids, nothing new queued or sent.
  await r.ask(me, `/owner send ${id}`);
  await watcher.tick();
  await eventually(async () => (await r.app.store.outbox.pending()).length === 0, 'nothing left');

  const target = (id: number, i: number) => (i % 2 === 0 ? -id : id);
  for (const [i, c] of chats.entries()) {
    const got = r.fake.messages(target(c, i)).filter((m) => m.text === text);
    assert.equal(got.length, 1, `chat ${target(c, i)}: the notice once`);
  }
  assert.equal(r.fake.messages(8999999).length, 0, 'a stopped destination gets nothing');
  const sends = r.fake.requests.filter((q) => q.method === 'sendMessage' && q.chat_id !== OWNER);
  assert.equal(sends.length, N, 'no send beyond one per destination');
  assert.equal(sends.filter((q) => q.status === 429).length, 0, 'paced below every limit: no 429');
  assert.match(
    (await r.ask(me, `/owner progress ${id}`)).text!,
    new RegExp(`Notice ${id} finished: delivered 999 of 1,000, not delivered 1`),
  );
  // The owner finds it among the failing destinations, with its error.
  const failing = (await r.ask(me, '/owner destinations failing')).text!;
  assert.match(failing, /Destinations: 2\n/);
  assert.match(
    failing,
    new RegExp(`telegram:${flaky} · Telegram private chat · on\\n\\s+Last error: not resent after an uncertain send`),
  );
  assert.match(failing, /telegram:8999999 .* off\n\s+Last error: kicked/);
});
