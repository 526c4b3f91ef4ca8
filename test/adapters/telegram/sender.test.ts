// The alert sender on its own: what each Telegram answer means for delivery, and pacing under Telegram's limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTelegramAdapter } from '../../../src/adapters/telegram/index.ts';
import { silentLogger } from '../../../src/log.ts';
import type { CardView } from '../../../src/domain/view.ts';
import { openStore } from '../../../src/store/index.ts';
import { rig, TOKEN } from './helpers.ts';

const card = (title: string): CardView => ({
  kind: 'card',
  title,
  description: 'body',
  links: [{ label: 'Tweet', url: 'https://x.com/a/status/1' }],
});

test('each Telegram answer maps to what delivery should do', async (t) => {
  const r = await rig(t, { start: false });
  const { fake } = r;
  const send = (chatId: number | string, title = 'Alert') => r.adapter.sender.send(String(chatId), card(title), 'n1');
  for (const id of [11, 12, 13, 14, 15, 16, 17, -18]) fake.addChat({ id, type: id < 0 ? 'group' : 'private' });

  const ok = await send(11);
  assert.equal(ok.kind, 'sent');
  assert.equal(ok.kind === 'sent' && ok.messageId, String(fake.messages(11)[0]!.message_id));

  fake.failChat(12, 'kicked');
  assert.deepEqual(await send(12), { kind: 'gone', reason: 'bot was kicked from the group chat' });
  fake.failChat(13, 'blocked');
  assert.equal((await send(13)).kind, 'gone');
  fake.failChat(14, 'not_found');
  assert.equal((await send(14)).kind, 'gone');
  assert.equal((await send(999_999)).kind, 'gone', 'a chat that never wrote: chat not found');
  fake.failChat(-18, { migrateTo: -1000018 });
  const moved = await send(-18);
  assert.equal(moved.kind, 'gone');
  assert.equal(moved.kind === 'gone' && moved.migrateTo, '-1000018');

  fake.failChat(15, 'server_error', { count: 1 });
  const five = await send(15);
  assert.equal(five.kind, 'retry');
  assert.equal(fake.messages(15).length, 0);

  // The request reached Telegram and was posted, then the connection died: resending could post twice.
  fake.failChat(16, 'drop_after_send', { count: 1 });
  const unsure = await send(16, 'Posted once');
  assert.equal(unsure.kind, 'uncertain');
  assert.equal(fake.messages(16).length, 1);
  fake.failChat(17, 'drop', { count: 1 });
  assert.equal((await send(17)).kind, 'uncertain', 'a dropped connection cannot be told apart from the case above');

  fake.force429({ count: 1, retryAfter: 4, chatId: 11 });
  const limited = await send(11);
  assert.equal(limited.kind, 'retry');
  assert.equal(limited.kind === 'retry' && limited.afterMs, 4 * 1000 * fake.timeScale);
  assert.match(
    limited.kind === 'retry' ? limited.reason : '',
    /^429/,
    'delivery does not count flood waits as attempts',
  );
  const before = fake.messages(11).length;
  const next = await send(11);
  assert.equal(next.kind, 'paced', 'still inside the flood wait: delivery is told when it ends, nothing is sent');
  assert.ok(next.kind === 'paced' && next.afterMs > 1000 * fake.timeScale && next.afterMs <= 4 * 1000 * fake.timeScale);
  assert.equal(fake.messages(11).length, before);
  // Not a wait for an event: delivery waits out the flood window it was told, as it does in production.
  await new Promise((res) => setTimeout(res, next.kind === 'paced' ? next.afterMs : 0));
  assert.equal((await send(11)).kind, 'sent', 'and after it, the send goes out');
});

test('a refused connection is safe to retry: nothing can have been posted', async (t) => {
  const server = createServer();
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((res) => server.close(() => res()));
  const adapter = createTelegramAdapter({
    token: TOKEN,
    apiRoot: `http://127.0.0.1:${port}`,
    dispatcher: undefined as never,
    store: await openStore('memory:'),
    log: silentLogger(),
  });
  t.after(() => adapter.stop());
  const r = await adapter.sender.send('1', card('x'), 'n');
  assert.equal(r.kind, 'retry');
  assert.equal(r.kind === 'retry' && r.reason, 'not connected (ECONNREFUSED)');
});

test('pacing: one busy chat neither breaks its limit nor holds up the others', async (t) => {
  const r = await rig(t, { start: false });
  const { fake } = r;
  const busy = 21;
  const others = Array.from({ length: 40 }, (_, i) => 100 + i);
  for (const id of [busy, ...others, -22]) fake.addChat({ id, type: id < 0 ? 'group' : 'private' });
  /** For each chat, how many of the busy chat's messages were out when that chat's own were all sent. */
  const busyOutWhenDone = new Map<number, number>();
  // As delivery does: one destination's messages in order, and a paced answer waited out on a timer.
  const deliver = async (id: number, n: number) => {
    for (let i = 0; i < n; i++)
      for (;;) {
        const res = await r.adapter.sender.send(String(id), card(`#${i}`), `n${i}`);
        if (res.kind === 'paced') {
          // Not a wait for an event: the paced answer waited out, as delivery does.
          await new Promise((res2) => setTimeout(res2, res.afterMs));
          continue;
        }
        assert.equal(res.kind, 'sent');
        break;
      }
    busyOutWhenDone.set(id, fake.messages(busy).length);
  };
  await Promise.all([deliver(busy, 8), ...others.map((id) => deliver(id, 1)), deliver(-22, 22)]);
  // The fake answers 429 (and records a violation) to a send that breaks any of Telegram's limits:
  // 1 a second per chat, 20 a minute per group, 30 a second in all. Not one 429 is each limit kept.
  assert.equal(
    fake.requests.filter((q) => q.status === 429).length,
    0,
    'paced before sending: Telegram never had to refuse',
  );
  assert.deepEqual(
    fake.messages(busy).map((m) => m.text!.split('\n')[0]),
    ['#0', '#1', '#2', '#3', '#4', '#5', '#6', '#7'],
    'in order',
  );
  const busyOut = Math.max(...others.map((id) => busyOutWhenDone.get(id)!));
  assert.ok(busyOut < 8, `the other chats did not wait behind the busy one (${busyOut} of its 8 were out)`);
  assert.equal(fake.messages(-22).length, 22, 'the group got all 22, the 21st once the first left its minute');
});

test('a fan-out to 600 chats stays within 30 messages a second without a single 429', async (t) => {
  // A clock 20x faster makes the limit 600 sends a second, which this process can outrun: the pacer must hold it back.
  const r = await rig(t, { start: false, fake: { knownChatsOnly: false, timeScale: 0.05 } });
  const { fake } = r;
  const ids = Array.from({ length: 600 }, (_, i) => 1_000_000 + i);
  let next = 0;
  // As delivery does: a fixed number of destinations in flight at once.
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const res = await r.adapter.sender.send(String(id), card('Fan-out'), 'n');
      assert.equal(res.kind, 'sent');
    }
  };
  await Promise.all(Array.from({ length: 256 }, worker));
  // The fake refuses the 31st send inside any of its seconds with a 429: 600 sent, not one refused,
  // is the pacer holding 256 workers to 30 a second.
  assert.equal(fake.requests.filter((q) => q.method === 'sendMessage' && q.status === 200).length, 600);
  assert.equal(fake.requests.filter((q) => q.status === 429).length, 0);
});

test('an alert that went out as a picture is edited as its caption; "not modified" counts as done; a deleted one is refused', async (t) => {
  const { Api, InputFile } = await import('grammy');
  const { tinyPng } = await import('../../fakes/telegram/png.ts');
  const r = await rig(t, { start: false });
  r.fake.addChat({ id: -31, type: 'group' });
  const api = new Api(r.fake.token, { apiRoot: r.fake.apiRoot });
  const photo = await api.sendPhoto(-31, new InputFile(tinyPng(4, 4), 'alert.png'), { caption: 'Alert' });
  const edited = await r.adapter.sender.edit!('-31', String(photo.message_id), card('Alert · Since alert (1h): 2x'));
  assert.deepEqual(edited, { kind: 'sent', messageId: String(photo.message_id) });
  const m = r.fake.messages(-31)[0]!;
  assert.deepEqual(
    m.edits.map((e) => e.method),
    ['editMessageCaption'],
  );
  assert.match(m.text ?? '', /Since alert \(1h\): 2x/);
  const again = await r.adapter.sender.edit!('-31', String(photo.message_id), card('Alert · Since alert (1h): 2x'));
  assert.equal(again.kind, 'sent', 'the same edit again is done, not an error');
  assert.equal(r.fake.messages(-31)[0]!.edits.length, 1);
  r.fake.deleteSent(-31, photo.message_id);
  const gone = await r.adapter.sender.edit!('-31', String(photo.message_id), card('Alert · Since alert (6h): 3x'));
  assert.equal(gone.kind, 'rejected');
  assert.match(gone.kind === 'rejected' ? gone.reason : '', /message to edit not found/);
});
