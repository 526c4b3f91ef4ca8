// What an ordinary member could do to others: forge buttons from another chat, flood commands, hide behind a shared sender.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FOREIGN_BUTTON } from '../../../src/core/buttons.ts';
import type { Caller } from '../../../src/core/command.ts';
import type { FakeChat, SenderChannel } from '../../fakes/telegram/index.ts';
import { button, eventually, group, rig } from './helpers.ts';

test('a button replayed from another chat, or onto another message, is refused with a short answer and nothing is edited', async (t) => {
  const r = await rig(t);
  const a = group(-5101, 'A');
  const b = group(-5102, 'B');
  const list = await r.ask(a, '/kols');
  const next = button(list, 'Next');
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  const card = await r.ask(b, `/token solana ${tok.address}`);
  const cardInA = await r.ask(a, `/token solana ${tok.address}`);
  const before = { b: r.fake.messages(b.id).length, a: r.fake.messages(a.id).length };

  const cross = r.fake.pressButton({ chatId: b.id, messageId: card.message_id, data: next, unchecked: true });
  const sideways = r.fake.pressButton({ chatId: a.id, messageId: cardInA.message_id, data: next, unchecked: true });
  await eventually(
    () => r.fake.answersFor(cross).length > 0 && r.fake.answersFor(sideways).length > 0,
    'both presses answered',
  );
  assert.deepEqual(
    r.fake.answersFor(cross).map((x) => x.text),
    [FOREIGN_BUTTON],
  );
  assert.deepEqual(
    r.fake.answersFor(sideways).map((x) => x.text),
    [FOREIGN_BUTTON],
  );

  // The genuine press still pages in place; it also shows nothing else changed meanwhile.
  const genuine = r.fake.pressButton({ chatId: a.id, messageId: list.message_id, data: next });
  await eventually(
    () =>
      r.fake.answersFor(genuine).length > 0 &&
      r.fake.messages(a.id).find((m) => m.message_id === list.message_id)!.edits.length > 0,
    'the genuine page turn',
  );
  assert.equal(
    r.fake.messages(b.id).find((m) => m.message_id === card.message_id)!.edits.length,
    0,
    "the other chat's message is untouched",
  );
  assert.equal(
    r.fake.messages(a.id).find((m) => m.message_id === cardInA.message_id)!.edits.length,
    0,
    'the other message is untouched',
  );
  assert.deepEqual({ b: r.fake.messages(b.id).length, a: r.fake.messages(a.id).length }, before, 'no new messages');
});

test('alert buttons work in the chats the alert went to and nowhere else', async (t) => {
  const r = await rig(t);
  const admin = { id: 5201, first_name: 'Admin' };
  const x = group(-5201, 'X');
  r.fake.setMember(x.id, admin.id, 'administrator');
  await r.ask(x, '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0', admin);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: '0 0 1 1 *' });
  await watcher.tick();
  const kol = r.sb.data.kols[3]!;
  r.sb.addTweets(1, { token: r.sb.data.tokens[14]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  const alert = await eventually(
    () => r.fake.messages(x.id).find((m) => / shilled by /.test(m.text ?? '')),
    'the alert',
  );
  const tokenCard = button(alert, 'Token card');

  const elsewhere: Caller = {
    platform: 'telegram',
    userId: '77',
    chatId: '-5299',
    chatType: 'group',
    canManage: async () => false,
  };
  const refused = await r.app.dispatcher.action(tokenCard, elsewhere);
  assert.equal(refused.kind === 'error' && refused.message, FOREIGN_BUTTON);
  const pressed = r.fake.pressButton({ chatId: x.id, messageId: alert.message_id, data: tokenCard });
  await eventually(() => r.fake.answersFor(pressed).length > 0, 'the press answered');
  assert.deepEqual(
    r.fake.answersFor(pressed).map((a) => a.text ?? ''),
    [''],
    'no notice: it worked',
  );
  const card = await eventually(
    () =>
      r.fake
        .messages(x.id)
        .find((m) => m.message_id > alert.message_id && m.text?.includes(r.sb.data.tokens[14]!.symbol)),
    'the token card',
  );
  assert.ok(card);
});

let markers = 0;
/** Sends each text, then a marker from a fresh user of the chat: once the marker is answered, everything before it was handled. */
async function sendAll(
  r: Awaited<ReturnType<typeof rig>>,
  chat: FakeChat,
  texts: readonly { text: string; senderChat?: FakeChat | SenderChannel; from?: { id: number; first_name: string } }[],
) {
  for (const m of texts) r.fake.sendText({ chat, ...m });
  r.fake.sendText({
    chat,
    text: `/zzmarker@${r.fake.botUsername}`,
    from: { id: 9_000 + ++markers, first_name: 'Marker' },
  });
  const marker = await eventually(
    () => r.fake.messages(chat.id).find((m) => m.text?.includes('/zzmarker')),
    'the marker answered',
  );
  return r.fake.messages(chat.id).filter((m) => m.message_id < marker.message_id);
}

test('a user over the limit is told once per wait and then gets no answer at all', async (t) => {
  const r = await rig(t, { userLimit: { count: 3, windowMs: 60_000 } });
  const chat = group(-5301);
  const spammer = { id: 5301, first_name: 'Spam' };
  const sent = await sendAll(
    r,
    chat,
    Array.from({ length: 12 }, () => ({ text: '/help', from: spammer })),
  );
  const notices = sent.filter((m) => /sending commands quickly/.test(m.text ?? ''));
  assert.equal(sent.length, 4, `3 answers and 1 notice, not ${sent.length} messages`);
  assert.equal(notices.length, 1);
  const counted = r.app.metrics.commands.get({ command: 'help', outcome: 'limited' });
  assert.equal(counted, 9, 'every refusal is still counted');
});

test('anonymous admins and channel posts in different groups do not share one rate-limit bucket', async (t) => {
  const r = await rig(t, { userLimit: { count: 2, windowMs: 60_000 } });
  const groups = Array.from({ length: 11 }, (_, i) => ({
    id: -1005400 - i,
    type: 'supergroup' as const,
    title: `G${i}`,
  }));
  // Ten groups' anonymous admins (all the same placeholder user) use up their own buckets...
  for (const g of groups.slice(0, 10)) {
    const sent = await sendAll(r, g, [
      { text: '/help', senderChat: g },
      { text: '/help', senderChat: g },
    ]);
    assert.equal(sent.filter((m) => /quickly/.test(m.text ?? '')).length, 0, `group ${g.title}: both answered`);
  }
  // ...and the eleventh group's admin, and a channel posting in it, are still served.
  const last = groups[10]!;
  const channel: SenderChannel = { id: -1005499, type: 'channel', title: 'News' };
  const sent = await sendAll(r, last, [
    { text: '/help', senderChat: last },
    { text: '/help', senderChat: channel },
    { text: '/help', senderChat: channel },
    { text: '/help', senderChat: channel },
  ]);
  assert.equal(sent.length, 4, 'three answers and one notice');
  assert.equal(
    sent.filter((m) => /quickly/.test(m.text ?? '')).length,
    1,
    'the channel is limited on its own third command',
  );
});
