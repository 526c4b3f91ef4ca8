// The command menu by scope, and /start in a group: members see what is theirs,
// admins the settings commands too, private chats everything, per language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import { rig } from './helpers.ts';

const GROUP = { id: -1008001, type: 'supergroup' as const, title: 'Degens' };
const names = (m: { command: string }[]) => m.map((c) => c.command);

test('members in a group see the lookup commands, its admins the admin commands too, private chats everything, in their language', async (t) => {
  const r = await rig(t);
  r.fake.addChat(GROUP);
  r.fake.setMember(GROUP.id, 21, 'member');
  r.fake.setMember(GROUP.id, 22, 'administrator');
  const member = names(r.fake.menuFor({ chatId: GROUP.id, userId: 21 }));
  const admin = names(r.fake.menuFor({ chatId: GROUP.id, userId: 22 }));
  const dm = names(r.fake.menuFor({ chatId: 21, userId: 21 }));
  for (const c of ['token', 'kol', 'help', 'mycall']) assert.ok(member.includes(c), `members see /${c}`);
  for (const c of ['subscribe', 'unsubscribe', 'settings', 'alerts', 'digest', 'mute'])
    assert.ok(!member.includes(c) && admin.includes(c) && dm.includes(c), `/${c}: admins and private chats only`);
  assert.ok(admin.length > member.length);
  const ru = r.fake.menuFor({ chatId: GROUP.id, userId: 21, languageCode: 'ru' });
  const en = r.fake.menuFor({ chatId: GROUP.id, userId: 21 });
  assert.deepEqual(names(ru), member, 'the same commands');
  assert.notEqual(
    ru.find((c) => c.command === 'token')!.description,
    en.find((c) => c.command === 'token')!.description,
  );
});

test('/start in a group shows a short list for members; in a private chat every command', async (t) => {
  const r = await rig(t);
  const asked = r.fake.sendText({ chat: GROUP, text: '/start' })!.message!.message_id;
  const inGroup = await r.fake.waitForMessage(GROUP.id, (m) => m.reply_to_message_id === asked, PATIENCE_MS);
  assert.match(inGroup.text!, /\/token — /);
  assert.match(inGroup.text!, /Commands for everyone here/);
  for (const c of ['/subscribe', '/settings', '/unsubscribe']) assert.ok(!inGroup.text!.includes(c), c);
  const dm = await r.ask({ id: 23, type: 'private' }, '/start');
  assert.match(dm.text!, /\/subscribe/);
  assert.ok(dm.text!.length > inGroup.text!.length);
});
