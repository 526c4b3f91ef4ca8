// Broadcast channels as the fake models them: channel_post (asked for, and only
// while the bot is an admin), automatic forwards into a linked discussion group,
// who may post in a channel, and my_chat_member on promotion and rights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TelegramFake } from './index.ts';
import { callRaw, openFake } from './raw.ts';

const open = openFake;
const call = callRaw;

type Upd = Record<string, Record<string, unknown> & { chat?: { id: number } }>;
const updates = async (fake: TelegramFake, allowed?: string[]): Promise<Upd[]> =>
  (await call(fake, 'getUpdates', { timeout: 0, ...(allowed ? { allowed_updates: allowed } : {}) })).result as Upd[];

const CHANNEL = { id: -1005001, type: 'channel' as const, title: 'Alpha calls' };

test('channel_post: only while the bot is an admin, only when allowed_updates names it; the channel posts, nobody in from', async (t) => {
  const fake = await open(t);
  fake.addChannel(CHANNEL);
  assert.equal(fake.postInChannel({ channel: CHANNEL, text: '/subscribe' }), undefined, 'not an admin: nothing');
  fake.setMember(CHANNEL.id, fake.botId, 'administrator');
  await updates(fake, ['message', 'channel_post']); // the promotion's my_chat_member is left out
  fake.postInChannel({ channel: CHANNEL, text: '/subscribe' });
  assert.deepEqual(await updates(fake, ['message']), [], 'not asked for: dropped, as Telegram never queues it');
  fake.postInChannel({ channel: CHANNEL, text: '/subscribe' });
  const [u, ...more] = await updates(fake, ['message', 'channel_post']);
  assert.deepEqual(more, []);
  const post = u!.channel_post!;
  assert.equal(post.chat!.id, CHANNEL.id);
  assert.equal((post.sender_chat as { id: number }).id, CHANNEL.id);
  assert.equal(post.from, undefined);
  assert.deepEqual(post.entities, [{ type: 'bot_command', offset: 0, length: 10 }]);
});

test('a channel with a linked discussion group: each post arrives there as an automatic forward from "Telegram"', async (t) => {
  const fake = await open(t);
  fake.addChannel(CHANNEL);
  const group = { id: -1005002, type: 'supergroup' as const };
  fake.addChat(group);
  fake.linkDiscussion(CHANNEL.id, group.id);
  fake.postInChannel({ channel: CHANNEL, text: '/token pepe' });
  const [u] = await updates(fake);
  const forward = u!.message!;
  assert.equal(forward.chat!.id, group.id);
  assert.equal(forward.is_automatic_forward, true);
  assert.equal((forward.from as { id: number }).id, 777000);
  assert.equal((forward.sender_chat as { id: number }).id, CHANNEL.id);
});

test('posting in a channel: an admin with the right may, one without it or no admin may not; my_chat_member says each change', async (t) => {
  const fake = await open(t);
  fake.addChannel(CHANNEL);
  const send = async () => {
    const r = await call(fake, 'sendMessage', { chat_id: CHANNEL.id, text: 'alert' });
    return r.ok ? 'ok' : r.description;
  };
  assert.equal(await send(), 'Bad Request: need administrator rights in the channel chat');
  fake.setMember(CHANNEL.id, fake.botId, 'administrator');
  assert.equal(await send(), 'ok');
  fake.setMember(CHANNEL.id, fake.botId, 'administrator', { can_post_messages: false });
  assert.equal(await send(), 'Bad Request: need administrator rights in the channel chat');
  fake.setMember(CHANNEL.id, fake.botId, 'left');
  assert.equal(await send(), 'Forbidden: bot is not a member of the channel chat');
  const changes = (await updates(fake)).map((u) => u.my_chat_member!.new_chat_member as Record<string, unknown>);
  assert.deepEqual(
    changes.map((m) => [m.status, m.can_post_messages]),
    [
      ['administrator', true],
      ['administrator', false],
      ['left', undefined],
    ],
  );
});
