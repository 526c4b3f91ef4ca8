// Running and stopping: per-chat order with concurrency across chats, the error boundary, and a clean stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, group, privateChat, rig, TOKEN } from './helpers.ts';

test('one chat is answered in order while other chats are not held up by its slow command', async (t) => {
  const r = await rig(t);
  const slow = privateChat(801);
  const other = privateChat(802);
  r.sb.setFaults({ latencyMs: 300 });
  r.fake.sendText({ chat: slow, text: '/kols' });
  r.fake.sendText({ chat: slow, text: '/help' });
  r.fake.sendText({ chat: other, text: '/help' });
  const quick = await r.fake.waitForMessage(other.id);
  assert.equal(r.fake.messages(slow.id).length, 0, 'the other chat was answered while /kols was still running');
  assert.ok(quick.text);
  const first = await r.fake.waitForMessage(slow.id);
  const second = await r.fake.waitForMessage(slow.id);
  assert.match(first.text!, /KOL|Rank|kols/i, 'the /kols answer comes first');
  assert.ok(second.text!.includes('/token'), 'then /help');
});

test('a reply that fails (bot kicked from the group) is logged without the token; polling goes on', async (t) => {
  const r = await rig(t);
  const g = group(-4801);
  r.fake.sendText({ chat: g, text: '/help' });
  await r.fake.waitForMessage(g.id);
  r.fake.setMember(g.id, r.fake.botId, 'kicked');
  r.fake.sendText({ chat: g, text: '/help' });
  await eventually(() => r.logs.some((l) => l.includes('update failed')), 'the failure to be logged');
  const later = await r.ask(privateChat(803), '/help');
  assert.ok(later.text, 'still polling');
  const failed = r.fake.requests.filter((q) => q.chat_id === g.id && q.status === 403);
  assert.equal(failed.length, 1);
  const logged = r.logs.join('\n');
  assert.match(logged, /update failed/);
  assert.match(logged, /bot was kicked/);
  assert.ok(!logged.includes(TOKEN.split(':')[1]!), 'no token in the log');
  assert.ok(r.adapter.isReady());
});

test('stop() lets the command in flight finish, confirms its update, and stops polling', async (t) => {
  const r = await rig(t);
  const chat = privateChat(804);
  r.sb.setFaults({ latencyMs: 200 });
  r.fake.sendText({ chat, text: '/kols' });
  await eventually(() => r.sb.count() > 0, 'the command to reach the upstream');
  assert.ok(r.adapter.isReady());
  await r.adapter.stop();
  assert.equal(r.adapter.isReady(), false);
  assert.equal(r.fake.messages(chat.id).length, 1, 'the answer went out before stop() resolved');
  assert.deepEqual(r.fake.unconfirmedUpdates, [], 'a restart will not handle it again');
  assert.equal(r.fake.pendingPolls, 0, 'no poll left open');
});
