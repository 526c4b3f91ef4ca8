// Privacy mode as the fake models it: what getMe reports, and which group
// messages reach the bot (commands, mentions, replies to it, everything when it is an admin).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startTelegramFake, type TelegramFake, type TelegramFakeOptions } from './index.ts';

async function open(t: TestContext, opts?: TelegramFakeOptions): Promise<TelegramFake> {
  const fake = await startTelegramFake({ limits: false, ...opts });
  t.after(() => fake.close());
  return fake;
}

async function call(fake: TelegramFake, method: string, params: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(`${fake.apiRoot}/bot${fake.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return ((await res.json()) as { result: unknown }).result;
}

const texts = async (fake: TelegramFake): Promise<string[]> =>
  ((await call(fake, 'getUpdates', { timeout: 0 })) as { message?: { text: string } }[]).map(
    (u) => u.message?.text ?? '',
  );

test('privacy mode on (the default): getMe says so and ordinary group messages are not delivered', async (t) => {
  const fake = await open(t);
  const me = await call(fake, 'getMe');
  assert.equal(me.can_read_all_group_messages, false);
  const g = { id: -500, type: 'group' as const };
  assert.equal(fake.sendText({ chat: g, text: 'gm, So11111111111111111111111111111111111111112' }), undefined);
  fake.sendText({ chat: g, text: '/token pepe' });
  fake.sendText({ chat: g, text: `hey @${fake.botUsername} look` });
  fake.sendText({ chat: { id: 9, type: 'private' }, text: 'private chatter' });
  const sent = await call(fake, 'sendMessage', { chat_id: -500, text: 'card' });
  fake.sendText({ chat: g, text: 'a reply to the bot', replyToMessageId: sent.message_id });
  assert.deepEqual(await texts(fake), [
    '/token pepe',
    `hey @${fake.botUsername} look`,
    'private chatter',
    'a reply to the bot',
  ]);
});

test('privacy mode on, bot an admin: every group message is delivered', async (t) => {
  const fake = await open(t);
  fake.setMember(-501, fake.botId, 'administrator');
  fake.sendText({ chat: { id: -501, type: 'group' }, text: 'plain chatter' });
  const got = (await call(fake, 'getUpdates', { timeout: 0 })) as { message?: { text: string } }[];
  assert.deepEqual(
    got.filter((u) => u.message).map((u) => u.message!.text),
    ['plain chatter'],
  );
});

test('privacy mode off: getMe says so and plain group messages arrive; a bot sender is marked is_bot', async (t) => {
  const fake = await open(t, { privacyMode: false });
  assert.equal((await call(fake, 'getMe')).can_read_all_group_messages, true);
  fake.sendText({ chat: { id: -502, type: 'supergroup' }, text: 'plain chatter' });
  fake.sendText({
    chat: { id: -502, type: 'supergroup' },
    text: 'from a bot',
    from: { id: 31, first_name: 'Other bot' },
    fromBot: true,
  });
  const got = (await call(fake, 'getUpdates', { timeout: 0 })) as {
    message: { text: string; from: { is_bot: boolean } };
  }[];
  assert.deepEqual(
    got.map((u) => [u.message.text, u.message.from.is_bot]),
    [
      ['plain chatter', false],
      ['from a bot', true],
    ],
  );
  fake.setPrivacy(true);
  assert.equal((await call(fake, 'getMe')).can_read_all_group_messages, false);
});

test('a user deletes a message: a reply to it needs allow_sending_without_reply, and then goes out unthreaded', async (t) => {
  const fake = await open(t, { privacyMode: false });
  const chat = { id: 77, type: 'private' as const };
  const m = fake.sendText({ chat, text: 'paste' })!;
  fake.deleteIncoming(chat.id, m.message!.message_id);
  const refused = await fetch(`${fake.apiRoot}/bot${fake.token}/sendMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: 77, text: 'card', reply_parameters: { message_id: m.message!.message_id } }),
  });
  assert.match(((await refused.json()) as { description: string }).description, /message to be replied not found/);
  await call(fake, 'sendMessage', {
    chat_id: 77,
    text: 'card',
    reply_parameters: { message_id: m.message!.message_id, allow_sending_without_reply: true },
  });
  assert.equal(fake.messages(77).at(-1)!.reply_to_message_id, undefined);
});

test('a user edits a message: edited_message arrives unless allowed_updates leaves it out', async (t) => {
  const fake = await open(t, { privacyMode: false });
  const chat = { id: 78, type: 'private' as const };
  const m = fake.sendText({ chat, text: 'first' })!;
  fake.editText({ chat, messageId: m.message!.message_id, text: 'second' });
  const all = (await call(fake, 'getUpdates', { timeout: 0 })) as {
    update_id: number;
    edited_message?: { text: string; edit_date: number };
  }[];
  assert.equal(all[1]!.edited_message!.text, 'second');
  assert.ok(all[1]!.edited_message!.edit_date > 0);
  fake.editText({ chat, messageId: m.message!.message_id, text: 'third' });
  const some = (await call(fake, 'getUpdates', {
    timeout: 0,
    offset: all[1]!.update_id + 1,
    allowed_updates: ['message'],
  })) as unknown[];
  assert.deepEqual(some, []);
});
