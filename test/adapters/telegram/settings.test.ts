// /settings on Telegram through grammY and the Bot API fake: the panel edits itself, values come by forced reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeChat, SentMessage } from '../../fakes/telegram/index.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import { barrier, button, eventually, group, rig, type Rig } from './helpers.ts';

const g = group(-4901, 'Panel group');
const admin = { id: 6001, first_name: 'Ada' };
const member = { id: 6002, first_name: 'Bob' };

/** Presses `label` on the panel as `who`; resolves once the panel was edited. */
async function press(r: Rig, panel: SentMessage, label: string, who = admin, chat = g): Promise<SentMessage> {
  const before = current(r, panel, chat).edits.length;
  r.fake.pressButton({
    chatId: chat.id,
    messageId: panel.message_id,
    data: button(current(r, panel, chat), label),
    from: who,
  });
  return r.fake.waitForEdit(chat.id, (m) => m.message_id === panel.message_id && m.edits.length > before, PATIENCE_MS);
}

/** Presses a value button, answers its forced reply, and resolves once the panel shows the change. */
async function fill(r: Rig, panel: SentMessage, label: string, value: string, chat: FakeChat): Promise<SentMessage> {
  r.fake.pressButton({
    chatId: chat.id,
    messageId: panel.message_id,
    data: button(current(r, panel, chat), label),
    from: admin,
  });
  await r.fake.waitForMessage(chat.id, (m) => m.reply_markup?.force_reply === true, PATIENCE_MS);
  const before = current(r, panel, chat).edits.length;
  r.fake.answerForceReply({ chat, from: admin, text: value });
  return r.fake.waitForEdit(chat.id, (m) => m.message_id === panel.message_id && m.edits.length > before, PATIENCE_MS);
}

/** /settings in a group: the link to the private chat, then the panel opened in place. */
async function openHere(r: Rig, chat: FakeChat): Promise<SentMessage> {
  const card = await r.ask(chat, '/settings', admin);
  assert.match(card.text!, /private chat/);
  const link = (card.reply_markup?.inline_keyboard ?? []).flat().find((b) => b.url);
  assert.equal(link?.url, `https://t.me/${r.fake.botUsername}?start=set_${chat.id}`);
  return press(r, card, 'Open here', admin, chat);
}

const current = (r: Rig, panel: SentMessage, chat = g) =>
  r.fake.messages(chat.id).find((m) => m.message_id === panel.message_id)!;
const sub = (r: Rig, chat = g) => r.app.store.subscriptions.get(`telegram:${chat.id}`);

test('an admin sets a preset, numbers by forced reply (also as the group itself); others change nothing', async (t) => {
  const r = await rig(t);
  r.fake.setMember(g.id, admin.id, 'administrator');
  let panel = await openHere(r, g);
  assert.match(panel.text!, /Alerts: off/);
  panel = await press(r, panel, 'Presets');
  panel = await press(r, panel, 'Early gems');
  panel = await press(r, panel, 'Apply');
  assert.equal((await sub(r))?.filters.minKolScore, 80);
  panel = await press(r, panel, 'Filters');

  // The value button asks with a forced reply naming the admin; the panel is not touched yet.
  const pressId = r.fake.pressButton({
    chatId: g.id,
    messageId: panel.message_id,
    data: button(current(r, panel), 'Token score'),
    from: admin,
  });
  const question = await r.fake.waitForMessage(g.id, (m) => m.reply_markup?.force_reply === true, PATIENCE_MS);
  assert.equal(r.fake.answersFor(pressId).length, 1, 'the press is answered');
  assert.match(question.text!, /^Ada, Token score: reply to this message with the new value\. Now: 50/);
  assert.equal(question.reply_markup?.selective, true);

  // Someone else cannot get the field, and a reply they write by hand is left alone.
  assert.throws(() => r.fake.answerForceReply({ chat: g, from: member, text: '1' }), /no forced reply/);
  r.fake.sendText({ chat: g, from: member, text: '1', replyToMessageId: question.message_id });
  await barrier(r, g, member);
  assert.equal((await sub(r))?.filters.minTokenScore, 50);

  // A bad number: the same error as the typed option, with an example; nothing changes, the question stays.
  r.fake.answerForceReply({ chat: g, from: admin, text: '150' });
  const refused = await r.fake.waitForMessage(g.id, (m) => /150/.test(m.text ?? ''), PATIENCE_MS);
  assert.match(refused.text!, /token_score:\d+/);
  assert.equal((await sub(r))?.filters.minTokenScore, 50);

  r.fake.answerForceReply({ chat: g, from: admin, text: '85' });
  panel = await r.fake.waitForEdit(
    g.id,
    (m) => m.message_id === panel.message_id && /at least 85/.test(m.text ?? ''),
    PATIENCE_MS,
  );
  assert.equal((await sub(r))?.filters.minTokenScore, 85);
  await eventually(() => current(r, question).deleted, 'the answered question to be removed');

  // An anonymous admin answers as the group itself.
  r.fake.pressButton({
    chatId: g.id,
    messageId: panel.message_id,
    data: button(current(r, panel), 'KOL score'),
    from: admin,
  });
  await r.fake.waitForMessage(g.id, (m) => m.reply_markup?.force_reply === true, PATIENCE_MS);
  r.fake.answerForceReply({ chat: g, from: admin, text: '91', senderChat: g });
  await r.fake.waitForEdit(
    g.id,
    (m) => m.message_id === panel.message_id && /KOL score at least 91/.test(m.text ?? ''),
    PATIENCE_MS,
  );
  assert.equal((await sub(r))?.filters.minKolScore, 91);

  // A member's press: told why on the button, nothing edited or stored.
  const edits = current(r, panel).edits.length;
  const denied = r.fake.pressButton({
    chatId: g.id,
    messageId: panel.message_id,
    data: button(current(r, panel), 'Followers'),
    from: member,
  });
  await barrier(r, g, member);
  assert.match(r.fake.answersFor(denied)[0]?.text ?? '', /admin/i);
  assert.equal(current(r, panel).edits.length, edits);
  assert.equal(r.fake.messages(g.id).filter((m) => m.reply_markup?.force_reply === true && !m.deleted).length, 0);
  assert.equal((await sub(r))?.filters.minFollowers, 10_000);
});

test('by buttons and replies alone a group stores what typed options store; two admins at once both keep theirs', async (t) => {
  const r = await rig(t);
  const p = group(-4902, 'Panel');
  const typed = group(-4903, 'Typed');
  const other = { id: 6003, first_name: 'Cy' };
  for (const c of [p, typed]) r.fake.setMember(c.id, admin.id, 'administrator');
  r.fake.setMember(p.id, other.id, 'administrator');
  let panel = await openHere(r, p);
  panel = await press(r, panel, 'Alerts', admin, p);
  panel = await press(r, panel, 'Turn alerts on', admin, p);
  panel = await press(r, panel, '« Back', admin, p);
  panel = await press(r, panel, 'Chains', admin, p);
  panel = await press(r, panel, '✅ Solana', admin, p);
  panel = await press(r, panel, '« Back', admin, p);
  panel = await press(r, panel, 'KOLs', admin, p);
  panel = await fill(r, panel, 'Only these KOLs', '@Cobie,@ansem', p);
  panel = await press(r, panel, '« Back', admin, p);
  panel = await press(r, panel, 'Quiet hours', admin, p);
  panel = await fill(r, panel, 'Quiet hours', '22:30-06:00', p);
  panel = await press(r, panel, '« Back', admin, p);
  panel = await press(r, panel, 'Digest', admin, p);
  panel = await press(r, panel, 'Weekly', admin, p);
  panel = await fill(r, panel, 'Day', 'fri', p);
  panel = await press(r, panel, '« Back', admin, p);
  panel = await press(r, panel, 'Filters', admin, p);

  // Two admins each press a value button and answer at the same moment.
  for (const [who, label] of [
    [admin, 'Token score'],
    [other, 'KOL score'],
  ] as const) {
    r.fake.pressButton({
      chatId: p.id,
      messageId: panel.message_id,
      data: button(current(r, panel, p), label),
      from: who,
    });
    await r.fake.waitForMessage(p.id, (m) => m.reply_markup?.force_reply === true, PATIENCE_MS);
  }
  r.fake.answerForceReply({ chat: p, from: admin, text: '77' });
  r.fake.answerForceReply({ chat: p, from: other, text: '66' });
  await eventually(async () => (await sub(r, p))?.filters.minKolScore === 66, 'both answers stored');

  for (const line of [
    '/subscribe',
    '/subscribe chains:aptos,bsc,base,sui only:@Cobie,@ansem token_score:77 kol_score:66',
    '/alerts quiet 22:30-06:00',
    '/digest weekly day:fri',
  ]) {
    const answer = await r.ask(typed, line, admin);
    assert.doesNotMatch(answer.text!, /^⚠️/, line);
  }
  const [byPanel, byTyping] = [await sub(r, p), await sub(r, typed)];
  assert.deepEqual(byPanel?.filters, byTyping?.filters);
  assert.deepEqual(byPanel?.quiet, byTyping?.quiet);
  assert.deepEqual({ ...byPanel?.digest, since: 0 }, { ...byTyping?.digest, since: 0 });
});

test('from the group link an admin sets the group in their private chat; a member following it is refused', async (t) => {
  const r = await rig(t);
  const grp = group(-4904, 'Linked');
  r.fake.setMember(grp.id, admin.id, 'administrator');
  r.fake.setMember(grp.id, member.id, 'member');
  const mine = { id: admin.id, type: 'private' as const };
  let panel = await r.ask(mine, `/start set_${grp.id}`, admin);
  assert.match(panel.text!, /^Settings/);
  panel = await press(r, panel, 'Alerts', admin, mine);
  panel = await press(r, panel, 'Turn alerts on', admin, mine);
  panel = await press(r, panel, '« Back', admin, mine);
  panel = await press(r, panel, 'Filters', admin, mine);
  panel = await fill(r, panel, 'Followers', '25k', mine);
  const stored = await sub(r, grp);
  assert.equal(stored?.filters.minFollowers, 25_000, "the group's subscription, set from the private chat");
  assert.equal(stored?.isGroup, true);
  assert.equal(await sub(r, mine), undefined, 'nothing stored for the private chat');
  assert.equal(r.fake.messages(grp.id).length, 0, 'the group saw no message');

  const theirs = { id: member.id, type: 'private' as const };
  const refused = await r.ask(theirs, `/start set_${grp.id}`, member);
  assert.match(refused.text!, /Only that chat's admins/);
});

test('an admin demoted in the group is refused at the next press and command, in the group and from the private link', async (t) => {
  const r = await rig(t);
  const grp = group(-4905, 'Demoted');
  r.fake.setMember(grp.id, admin.id, 'administrator');
  // Two panels opened as an admin: in the group, and from its link in the private chat.
  let panel = await openHere(r, grp);
  panel = await press(r, panel, 'Presets', admin, grp);
  panel = await press(r, panel, 'Early gems', admin, grp);
  const mine = { id: admin.id, type: 'private' as const };
  let away = await r.ask(mine, `/start set_${grp.id}`, admin);
  away = await press(r, away, 'Alerts', admin, mine);
  r.fake.setMember(grp.id, admin.id, 'member');

  // The Apply button they saw as an admin: told why on the button, nothing stored, the panel as it was.
  const edits = current(r, panel, grp).edits.length;
  const apply = r.fake.pressButton({
    chatId: grp.id,
    messageId: panel.message_id,
    data: button(current(r, panel, grp), 'Apply'),
    from: admin,
  });
  const refused = await eventually(() => r.fake.answersFor(apply)[0], 'the press to be answered');
  assert.match(refused.text ?? '', /Only group admins may change/);
  assert.equal(current(r, panel, grp).edits.length, edits);
  const on = r.fake.pressButton({
    chatId: mine.id,
    messageId: away.message_id,
    data: button(current(r, away, mine), 'Turn alerts on'),
    from: admin,
  });
  const there = await eventually(() => r.fake.answersFor(on)[0], 'the private press to be answered');
  assert.match(there.text ?? '', /Only that chat's admins/);
  const typed = await r.ask(grp, '/subscribe token_score:60', admin);
  assert.match(typed.text!, /Only group admins may change/);
  assert.equal(await sub(r, grp), undefined, 'nothing stored for the group');
});

test('a settings link is refused unless its ids are as Telegram writes them and its topic is one the group has', async (t) => {
  const r = await rig(t);
  const forum: FakeChat = { id: -1004907, type: 'supergroup', title: 'Forum' };
  r.fake.setMember(forum.id, admin.id, 'administrator');
  const mine = { id: admin.id, type: 'private' as const };
  const digits = String(forum.id).slice(1);

  // Other spellings of the group's id pass Telegram's admin check (it reads a number), but name no chat here.
  for (const payload of [`set_-0${digits}`, `set_-00${digits}`, `set_${forum.id}_07`]) {
    const refused = await r.ask(mine, `/start ${payload}`, admin);
    assert.match(refused.text!, /not one the bot made\. Open \/settings in the group/, payload);
  }
  // A topic the bot never saw in the group.
  const unknown = await r.ask(mine, `/start set_${forum.id}_4242`, admin);
  assert.match(unknown.text!, /does not know that topic in this group/);

  // A topic's own link opens its panel; alerts turned on there are stored once, under the ids Telegram gives.
  const topic = r.fake.createTopic(forum.id, 'Alpha');
  const asked = r.fake.sendText({ chat: forum, from: admin, text: '/settings', threadId: topic })!.message!.message_id;
  const card = await r.fake.waitForMessage(forum.id, (m) => m.reply_to_message_id === asked, PATIENCE_MS);
  const link = (card.reply_markup?.inline_keyboard ?? []).flat().find((b) => b.url)!.url!;
  assert.equal(link, `https://t.me/${r.fake.botUsername}?start=set_${forum.id}_${topic}`);
  let panel = await r.ask(mine, `/start ${link.split('start=')[1]}`, admin);
  panel = await press(r, panel, 'Alerts', admin, mine);
  panel = await press(r, panel, 'Turn alerts on', admin, mine);
  assert.ok(await r.app.store.subscriptions.get(`telegram:${forum.id}:${topic}`));
  const subs = await r.app.store.subscriptions.all();
  assert.deepEqual(
    subs.map((s) => s.id),
    [`telegram:${forum.id}:${topic}`],
    'one subscription, under the id Telegram gives',
  );
});
