// Forced replies as the fake models them: the markup's limits, and who gets the reply field (selective).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callRaw as call, openFake as open } from './raw.ts';

const g = { id: -700, type: 'group' as const, title: 'G' };
const ada = { id: 41, first_name: 'Ada' };
const bob = { id: 42, first_name: 'Bob' };

test('force_reply must be true and its placeholder 1-64 characters; it cannot sit with an inline keyboard', async (t) => {
  const fake = await open(t);
  fake.addChat(g);
  const send = (reply_markup: unknown) => call(fake, 'sendMessage', { chat_id: g.id, text: 'value?', reply_markup });
  assert.equal((await send({ force_reply: true, input_field_placeholder: 'x'.repeat(64) })).ok, true);
  const long = await send({ force_reply: true, input_field_placeholder: 'x'.repeat(65) });
  assert.deepEqual([long.ok, long.description], [false, 'Bad Request: INPUT_FIELD_PLACEHOLDER_INVALID']);
  assert.equal((await send({ force_reply: false })).ok, false);
  assert.equal((await send({ force_reply: true, inline_keyboard: [[{ text: 'a', callback_data: 'a' }]] })).ok, false);
});

test('a selective forced reply opens for the user it mentions only; the reply reaches the bot with reply_to_message', async (t) => {
  const fake = await open(t);
  fake.addChat(g);
  const asked = await call(fake, 'sendMessage', {
    chat_id: g.id,
    text: `<a href="tg://user?id=${ada.id}">Ada</a>, the new score?`,
    parse_mode: 'HTML',
    reply_markup: { force_reply: true, selective: true },
  });
  assert.equal(asked.ok, true);
  assert.throws(() => fake.answerForceReply({ chat: g, from: bob, text: '80' }), /no forced reply asks user 42/);
  // Privacy mode on: a reply to the bot is still delivered.
  fake.answerForceReply({ chat: g, from: ada, text: '80' });
  const updates = (await call(fake, 'getUpdates', { timeout: 0 })).result as {
    message: { text: string; from: { id: number }; reply_to_message: { message_id: number } };
  }[];
  assert.equal(updates.length, 1);
  assert.equal(updates[0]!.message.text, '80');
  assert.equal(updates[0]!.message.from.id, ada.id);
  assert.equal(updates[0]!.message.reply_to_message.message_id, asked.result.message_id);
});
