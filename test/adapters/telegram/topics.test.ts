// Forum topics end to end through grammY against the Bot API fake: each topic is a
// destination of its own (subscription, alerts, follow-ups, answers), and a topic
// that goes away (closed, deleted, topics turned off) is handled once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeChat, FakeUser, SentMessage } from '../../fakes/telegram/index.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import { eventually, rig, type Rig } from './helpers.ts';

const OPEN = '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0';
const NEVER = '0 0 1 1 *';
const HOUR = 3_600_000;
const FORUM: FakeChat = { id: -1009001, type: 'supergroup', title: 'Big community' };
const ADMIN: FakeUser = { id: 5101, first_name: 'Admin' };
const MEMBER: FakeUser = { id: 5102, first_name: 'Member' };

/** Someone writes in a topic (or General); resolves with the bot's answer, a reply to that message. */
async function askIn(r: Rig, threadId: number | undefined, text: string, from = ADMIN): Promise<SentMessage> {
  const asked = r.fake.sendText({ chat: FORUM, from, text, ...(threadId ? { threadId } : {}) })!.message!.message_id;
  return r.fake.waitForMessage(FORUM.id, (m) => m.reply_to_message_id === asked, PATIENCE_MS);
}

const alertsIn = (r: Rig, threadId: number | undefined) =>
  r.fake.messages(FORUM.id).filter((m) => / shilled by /.test(m.text ?? '') && m.message_thread_id === threadId);

const delivered = (r: Rig) =>
  eventually(async () => (await r.app.store.outbox.pending()).length === 0, 'the outbox to empty');

function tokenOn(r: Rig, chain: string) {
  return r.sb.data.tokens.find((x) => x.chain_id === chain && /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
}

test('two topics with their own subscriptions each get only their alerts, edited in place by follow-ups; answers reply in the asker’s topic', async (t) => {
  let clock = Date.now();
  const now = () => clock;
  const r = await rig(t, { marketClock: now });
  const alpha = r.fake.createTopic(FORUM.id, 'Alpha');
  const calls = r.fake.createTopic(FORUM.id, 'Calls');
  r.fake.setMember(FORUM.id, ADMIN.id, 'administrator');
  const a = await askIn(r, alpha, `${OPEN} chains:solana`);
  const c = await askIn(r, calls, `${OPEN} chains:base`);
  for (const [answer, topic] of [
    [a, alpha],
    [c, calls],
  ] as const) {
    assert.doesNotMatch(answer.text!, /^⚠️/, answer.text);
    assert.equal(answer.message_thread_id, topic, 'answered in the topic it was asked in');
  }
  // A member's lookup in General: a reply there, no topic named.
  const lookup = await askIn(r, undefined, '/help', MEMBER);
  assert.equal(lookup.message_thread_id, undefined);

  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER, followupNow: now });
  await watcher.tick();
  const sol = tokenOn(r, 'solana');
  const base = tokenOn(r, 'base');
  const kol = r.sb.data.kols[3]!;
  for (const tok of [sol, base]) r.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await delivered(r);
  const head = (m: SentMessage) => m.text!.split('\n')[0]!.split(' ')[0];
  assert.deepEqual(alertsIn(r, alpha).map(head), [sol.symbol], 'Alpha: its Solana alert only');
  assert.deepEqual(alertsIn(r, calls).map(head), [base.symbol], 'Calls: its Base alert only');
  assert.deepEqual(alertsIn(r, undefined), [], 'nothing in General');
  for (const m of [...alertsIn(r, alpha), ...alertsIn(r, calls)]) assert.equal(m.isTopic, true);

  // The first follow-up edits each alert where it is, in its topic; nothing new is posted.
  const before = r.fake.messages(FORUM.id).length;
  clock += HOUR + 60_000;
  await watcher.tick();
  await eventually(
    () => [...alertsIn(r, alpha), ...alertsIn(r, calls)].every((m) => m.edits.length === 1),
    'a follow-up edit of each alert',
  );
  await delivered(r);
  assert.match(alertsIn(r, alpha)[0]!.text!, /Since alert \(1h\)/);
  assert.equal(r.fake.messages(FORUM.id).length, before, 'edited in place');

  // A button on Alpha's alert answers in Alpha.
  const alert = alertsIn(r, alpha)[0]!;
  const card = (alert.reply_markup?.inline_keyboard ?? []).flat().find((b) => b.callback_data)!;
  r.fake.pressButton({ chatId: FORUM.id, messageId: alert.message_id, data: card.callback_data!, from: MEMBER });
  const opened = await r.fake.waitForMessage(FORUM.id, (m) => m.reply_to_message_id === alert.message_id, PATIENCE_MS);
  assert.equal(opened.message_thread_id, alpha);
});

/** A rig with one forum topic subscribed and a watcher at the feed's head. */
async function topicRig(t: Parameters<typeof rig>[0]) {
  const r = await rig(t, { appLogs: true });
  const topic = r.fake.createTopic(FORUM.id, 'Alpha');
  r.fake.setMember(FORUM.id, ADMIN.id, 'administrator');
  assert.doesNotMatch((await askIn(r, topic, OPEN)).text!, /^⚠️/);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  let n = 0;
  const shill = async () => {
    const tok = r.sb.data.tokens[30 + n++]!;
    r.sb.addTweets(1, { token: tok.id, kol: r.sb.data.kols[4]!.id, tokenScore: 90, kolScore: 90 });
    await watcher.tick();
    await delivered(r);
  };
  const tries = (description: string) =>
    r.fake.requests.filter((q) => q.method === 'sendMessage' && q.description === description).length;
  const lines = (msg: string) => r.logs.filter((l) => (JSON.parse(l) as { msg: string }).msg === msg).length;
  return { r, topic, shill, tries, lines };
}

test('a closed topic ends its alerts once, with one log line; /alerts in the group says so; reopened and subscribed again, alerts flow', async (t) => {
  const { r, topic, shill, tries, lines } = await topicRig(t);
  r.fake.closeTopic(FORUM.id, topic);
  await shill();
  await shill();
  assert.equal(tries('Bad Request: TOPIC_CLOSED'), 1, 'one attempt, then none');
  assert.equal(lines('destination gone; subscription disabled'), 1);
  assert.deepEqual(alertsIn(r, topic), []);
  const status = await askIn(r, undefined, '/alerts');
  assert.match(status.text!, new RegExp(`Topic ${topic}: Stopped: the topic was closed`));
  assert.equal(status.message_thread_id, undefined, 'answered in General');

  r.fake.closeTopic(FORUM.id, topic, false);
  assert.doesNotMatch((await askIn(r, topic, OPEN)).text!, /^⚠️/);
  await shill();
  assert.equal(alertsIn(r, topic).length, 1, 'alerts again after reopening and subscribing');
});

test('a deleted topic ends its alerts once; the chat is still a forum, so nothing goes to General', async (t) => {
  const { r, topic, shill, tries } = await topicRig(t);
  r.fake.deleteTopic(FORUM.id, topic);
  await shill();
  await shill();
  assert.equal(tries('Bad Request: message thread not found'), 1);
  const sub = await r.app.store.subscriptions.get(`telegram:${FORUM.id}:${topic}`);
  assert.equal(sub?.disabled?.reason, 'the topic was deleted');
  assert.deepEqual(alertsIn(r, undefined), []);
});

test('a group that turns topics off gets its topic’s alerts in the chat, after one refusal and one log line', async (t) => {
  const { r, topic, shill, tries, lines } = await topicRig(t);
  r.fake.setTopics(FORUM.id, false);
  await shill();
  await shill();
  assert.equal(tries('Bad Request: message thread not found'), 1, 'the stored topic id is tried once');
  assert.equal(lines('thread gone; its alerts go to the chat itself'), 1);
  assert.equal(alertsIn(r, undefined).length, 2, 'both alerts in the chat, the refused one included');
  const chat = await r.app.store.subscriptions.get(`telegram:${FORUM.id}`);
  assert.equal(chat?.disabled, null);
  assert.equal(chat?.threadId, undefined);
  const old = await r.app.store.subscriptions.get(`telegram:${FORUM.id}:${topic}`);
  assert.equal(old?.movedTo, String(FORUM.id));
});

test('in groups every answer replies to its asker; one whose message was deleted still arrives, in its topic; private chats get no reply quote', async (t) => {
  const r = await rig(t);
  const topic = r.fake.createTopic(FORUM.id, 'Alpha');
  const replied = await askIn(r, topic, '/help', MEMBER);
  assert.equal(replied.message_thread_id, topic);
  const gone = r.fake.sendText({ chat: FORUM, from: MEMBER, text: '/help', threadId: topic })!.message!;
  r.fake.deleteIncoming(FORUM.id, gone.message_id);
  const orphan = await r.fake.waitForMessage(FORUM.id, (m) => m.message_id > replied.message_id, PATIENCE_MS);
  assert.equal(orphan.reply_to_message_id, undefined, 'sent without the deleted message');
  assert.equal(orphan.message_thread_id, topic, 'in the topic all the same');
  const dm = await r.ask({ id: MEMBER.id, type: 'private' }, '/help', MEMBER);
  assert.equal(dm.reply_to_message_id, undefined);
});

test('the topics of a group share its 20 messages a minute: a burst for two topics is merged against each one’s share, none lost', async (t) => {
  const r = await rig(t);
  const alpha = r.fake.createTopic(FORUM.id, 'Alpha');
  const calls = r.fake.createTopic(FORUM.id, 'Calls');
  r.fake.setMember(FORUM.id, ADMIN.id, 'administrator');
  for (const topic of [alpha, calls]) assert.doesNotMatch((await askIn(r, topic, OPEN)).text!, /^⚠️/);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  const before = r.fake.messages(FORUM.id).length;
  // 12 alerts for each topic at once: fewer than the group's 20 each, 24 for the group.
  const tokens = r.sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol)).slice(0, 12);
  for (const tok of tokens)
    r.sb.addTweets(1, { token: tok.id, kol: r.sb.data.kols[6]!.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await delivered(r);
  const sent = r.fake.messages(FORUM.id).slice(before);
  const listed = (topic: number) =>
    sent
      .filter((m) => m.message_thread_id === topic)
      .reduce((n, m) => n + (m.text!.match(/^• /gm)?.length ?? (/ shilled by /.test(m.text!) ? 1 : 0)), 0);
  assert.equal(listed(alpha), 12, 'every alert listed in Alpha');
  assert.equal(listed(calls), 12, 'every alert listed in Calls');
  // Each topic's share is half the group's 20; a burst merges into at most half its share, leaving room.
  assert.ok(sent.length <= 10, `both topics together well within the group's minute: ${sent.length} messages`);
});

test('a digest asked for in a topic goes to that topic; a pasted address in a topic gets its card there', async (t) => {
  const r = await rig(t);
  r.fake.setPrivacy(false);
  const alpha = r.fake.createTopic(FORUM.id, 'Alpha');
  r.fake.setMember(FORUM.id, ADMIN.id, 'administrator');
  assert.doesNotMatch((await askIn(r, alpha, OPEN)).text!, /^⚠️/);
  r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  const confirmed = await askIn(r, alpha, '/digest now');
  assert.doesNotMatch(confirmed.text!, /^⚠️/, confirmed.text);
  const digest = await r.fake.waitForMessage(FORUM.id, (m) => m.message_id > confirmed.message_id, PATIENCE_MS);
  assert.equal(digest.message_thread_id, alpha, 'the digest, in Alpha');
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana' && /^[A-Z0-9]+$/.test(x.symbol))!;
  const card = await askIn(r, alpha, `look at ${tok.address}`, MEMBER);
  assert.equal(card.message_thread_id, alpha, 'the card, in Alpha');
  assert.match(card.text!, new RegExp(tok.symbol));
});

test('topics turned off with two topics subscribed: the first one’s settings move to the chat, and each alert arrives there once', async (t) => {
  const { r, topic, shill, lines } = await topicRig(t);
  const calls = r.fake.createTopic(FORUM.id, 'Calls');
  assert.doesNotMatch((await askIn(r, calls, OPEN)).text!, /^⚠️/);
  r.fake.setTopics(FORUM.id, false);
  await shill();
  await shill();
  assert.equal(alertsIn(r, undefined).length, 2, 'two alerts, each once, in the chat');
  assert.equal(lines('thread gone; its alerts go to the chat itself'), 2, 'a line for each topic');
  const subs = await Promise.all(
    [topic, calls].map((id) => r.app.store.subscriptions.get(`telegram:${FORUM.id}:${id}`)),
  );
  assert.deepEqual(subs.map((s) => s?.disabled !== null).sort(), [true, true], 'both topics stopped');
  assert.equal(subs.filter((s) => s?.movedTo).length, 1, 'one moved to the chat, the other gave way');
  assert.equal((await r.app.store.subscriptions.get(`telegram:${FORUM.id}`))?.disabled, null);
});

test('a closed General topic ends the chat’s own alerts once; its topics keep theirs', async (t) => {
  const { r, topic, shill, tries, lines } = await topicRig(t);
  assert.doesNotMatch((await askIn(r, undefined, OPEN)).text!, /^⚠️/);
  r.fake.closeGeneral(FORUM.id);
  await shill();
  await shill();
  assert.equal(tries('Bad Request: TOPIC_CLOSED'), 1, 'one attempt in General, then none');
  assert.equal(lines('destination gone; subscription disabled'), 1);
  const chat = await r.app.store.subscriptions.get(`telegram:${FORUM.id}`);
  assert.equal(chat?.disabled?.reason, 'the General topic was closed');
  assert.equal(alertsIn(r, topic).length, 2, 'the topic got both');
});
