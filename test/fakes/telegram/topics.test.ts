// Forum topics and reply threads as the fake models them (topics.ts): which
// messages carry message_thread_id and is_topic_message, the General topic's
// rules, closed, deleted and turned-off topics, and replies to deleted messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TelegramFake } from './index.ts';
import { callRaw, openFake } from './raw.ts';

const open = openFake;
const call = callRaw;

const messagesOf = async (fake: TelegramFake): Promise<any[]> =>
  ((await call(fake, 'getUpdates', { timeout: 0 })).result as { message?: unknown }[]).flatMap((u) =>
    u.message ? [u.message] : [],
  );

const FORUM = { id: -1001, type: 'supergroup' as const };

test('forum topics: topic messages carry the topic id and is_topic_message, General ones neither', async (t) => {
  const fake = await open(t);
  const alpha = fake.createTopic(FORUM.id, 'Alpha');
  fake.sendText({ chat: FORUM, text: '/kols', threadId: alpha });
  fake.sendText({ chat: FORUM, text: '/token pepe' });
  const [created, inTopic, inGeneral] = await messagesOf(fake);
  assert.equal(created.forum_topic_created.name, 'Alpha');
  assert.equal(created.message_thread_id, alpha);
  assert.equal(inTopic.message_thread_id, alpha);
  assert.equal(inTopic.is_topic_message, true);
  assert.equal(inTopic.reply_to_message.message_id, alpha, 'a topic message "replies" to the topic creation');
  assert.equal(inGeneral.message_thread_id, undefined);
  assert.equal(inGeneral.is_topic_message, undefined);
  assert.equal((await call(fake, 'getChat', { chat_id: FORUM.id })).result.is_forum, true);

  const sent = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'in Alpha', message_thread_id: alpha });
  assert.equal(sent.result.message_thread_id, alpha);
  assert.equal(sent.result.is_topic_message, true);
  const general = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'in General' });
  assert.equal(general.result.message_thread_id, undefined);
  // The General topic is never named: 1 (its id in clients) and unknown ids are refused alike.
  for (const id of [1, 999]) {
    const r = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'x', message_thread_id: id });
    assert.deepEqual([r.ok, r.description], [false, 'Bad Request: message thread not found']);
  }
  assert.deepEqual(
    fake.messages(FORUM.id).map((m) => [m.text, m.message_thread_id ?? 'General']),
    [
      ['in Alpha', alpha],
      ['in General', 'General'],
    ],
  );
});

test('a reply in a supergroup without topics carries its reply thread, never is_topic_message', async (t) => {
  const fake = await open(t);
  const group = { id: -1002, type: 'supergroup' as const };
  fake.addChat(group);
  const card = await call(fake, 'sendMessage', { chat_id: group.id, text: 'card' });
  fake.sendText({ chat: group, text: '/token', replyToMessageId: card.result.message_id });
  const [reply] = await messagesOf(fake);
  assert.equal(reply.message_thread_id, card.result.message_id, 'the thread is the chain’s first message');
  assert.equal(reply.is_topic_message, undefined);
  // Answering in that reply thread is allowed; it is no topic.
  const answer = await call(fake, 'sendMessage', {
    chat_id: group.id,
    text: 'answer',
    reply_parameters: { message_id: reply.message_id },
  });
  assert.equal(answer.result.message_thread_id, card.result.message_id);
  assert.equal(answer.result.is_topic_message, undefined);
});

test('a closed topic refuses sends (TOPIC_CLOSED) except from an admin, and takes them again once reopened', async (t) => {
  const fake = await open(t);
  const calls = fake.createTopic(FORUM.id, 'Calls');
  fake.closeTopic(FORUM.id, calls);
  const closed = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'x', message_thread_id: calls });
  assert.deepEqual([closed.ok, closed.description], [false, 'Bad Request: TOPIC_CLOSED']);
  fake.setMember(FORUM.id, fake.botId, 'administrator');
  assert.ok((await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'admin', message_thread_id: calls })).ok);
  fake.setMember(FORUM.id, fake.botId, 'member');
  fake.closeTopic(FORUM.id, calls, false);
  assert.ok((await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'open', message_thread_id: calls })).ok);
  const service = (await messagesOf(fake)).filter((m) => m.forum_topic_closed || m.forum_topic_reopened);
  assert.deepEqual(
    service.map((m) => [m.message_thread_id, m.forum_topic_closed ? 'closed' : 'reopened']),
    [
      [calls, 'closed'],
      [calls, 'reopened'],
    ],
  );
});

test('a deleted topic takes its messages with it: sends are "message thread not found", edits find nothing', async (t) => {
  const fake = await open(t);
  const alpha = fake.createTopic(FORUM.id, 'Alpha');
  const sent = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'alert', message_thread_id: alpha });
  fake.deleteTopic(FORUM.id, alpha);
  const again = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'x', message_thread_id: alpha });
  assert.deepEqual([again.ok, again.description], [false, 'Bad Request: message thread not found']);
  const edit = await call(fake, 'editMessageText', {
    chat_id: FORUM.id,
    message_id: sent.result.message_id,
    text: 'follow-up',
  });
  assert.deepEqual([edit.ok, edit.description], [false, 'Bad Request: message to edit not found']);
  assert.equal((await call(fake, 'getChat', { chat_id: FORUM.id })).result.is_forum, true, 'still a forum');
});

test('topics turned off: the chat is no forum, a stored topic id is "message thread not found", the chat takes sends', async (t) => {
  const fake = await open(t);
  const alpha = fake.createTopic(FORUM.id, 'Alpha');
  fake.setTopics(FORUM.id, false);
  const r = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'x', message_thread_id: alpha });
  assert.deepEqual([r.ok, r.description], [false, 'Bad Request: message thread not found']);
  assert.equal((await call(fake, 'getChat', { chat_id: FORUM.id })).result.is_forum, false);
  assert.ok((await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'in the chat' })).ok);
});

test('a reply to a deleted message in a topic: refused without allow_sending_without_reply, in the topic with it', async (t) => {
  const fake = await open(t);
  const alpha = fake.createTopic(FORUM.id, 'Alpha');
  const asked = fake.sendText({ chat: FORUM, text: '/kols', threadId: alpha })!.message!;
  fake.deleteIncoming(FORUM.id, asked.message_id);
  const strict = await call(fake, 'sendMessage', {
    chat_id: FORUM.id,
    text: 'x',
    message_thread_id: alpha,
    reply_parameters: { message_id: asked.message_id },
  });
  assert.deepEqual([strict.ok, strict.description], [false, 'Bad Request: message to be replied not found']);
  const lenient = await call(fake, 'sendMessage', {
    chat_id: FORUM.id,
    text: 'answer',
    message_thread_id: alpha,
    reply_parameters: { message_id: asked.message_id, allow_sending_without_reply: true },
  });
  assert.equal(lenient.result.message_thread_id, alpha);
  assert.equal(lenient.result.reply_to_message, undefined, 'sent unthreaded, in the topic');
  // Without the topic id, a reply whose target is gone lands in General.
  const lost = await call(fake, 'sendMessage', {
    chat_id: FORUM.id,
    text: 'lost',
    reply_parameters: { message_id: asked.message_id, allow_sending_without_reply: true },
  });
  assert.equal(lost.result.message_thread_id, undefined);
});

test('a closed General topic refuses sends naming no topic (TOPIC_CLOSED), except from an admin; topics still take them', async (t) => {
  const fake = await open(t);
  const alpha = fake.createTopic(FORUM.id, 'Alpha');
  fake.closeGeneral(FORUM.id);
  const general = await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'x' });
  assert.deepEqual([general.ok, general.description], [false, 'Bad Request: TOPIC_CLOSED']);
  assert.ok((await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'a', message_thread_id: alpha })).ok);
  fake.setMember(FORUM.id, fake.botId, 'administrator');
  assert.ok((await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'admin' })).ok);
  fake.setMember(FORUM.id, fake.botId, 'member');
  fake.closeGeneral(FORUM.id, false);
  assert.ok((await call(fake, 'sendMessage', { chat_id: FORUM.id, text: 'open again' })).ok);
});
