// Command menus by scope as the fake models them (setMyCommands `scope` and
// `language_code`): which list a user sees in a private chat and in a group,
// as a member or an admin, in their language or not, and scopes refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callRaw as call, openFake as open } from './raw.ts';

const list = (...names: string[]) => names.map((command) => ({ command, description: `${command} it` }));

test('each user sees the narrowest menu set for them, in their language first', async (t) => {
  const fake = await open(t);
  const set = (commands: unknown, scope: unknown, language_code?: string) =>
    call(fake, 'setMyCommands', { commands, scope, ...(language_code ? { language_code } : {}) });
  assert.ok((await set(list('token', 'subscribe'), { type: 'default' })).ok);
  assert.ok((await set(list('token', 'subscribe', 'alerts'), { type: 'all_private_chats' })).ok);
  assert.ok((await set(list('token'), { type: 'all_group_chats' })).ok);
  assert.ok((await set(list('token', 'subscribe'), { type: 'all_chat_administrators' })).ok);
  assert.ok((await set([{ command: 'token', description: 'токен' }], { type: 'all_group_chats' }, 'ru')).ok);
  const group = -7001;
  fake.addChat({ id: group, type: 'supergroup' });
  fake.setMember(group, 11, 'member');
  fake.setMember(group, 12, 'administrator');
  const names = (m: { command: string }[]) => m.map((c) => c.command);
  assert.deepEqual(names(fake.menuFor({ chatId: 11, userId: 11 })), ['token', 'subscribe', 'alerts'], 'private');
  assert.deepEqual(names(fake.menuFor({ chatId: group, userId: 11 })), ['token'], 'a member');
  assert.deepEqual(names(fake.menuFor({ chatId: group, userId: 12 })), ['token', 'subscribe'], 'an admin');
  assert.equal(fake.menuFor({ chatId: group, userId: 11, languageCode: 'ru' })[0]!.description, 'токен');
  assert.equal(fake.menuFor({ chatId: group, userId: 11, languageCode: 'de' })[0]!.description, 'token it');
  // A chat's own menu is narrower than every "all ..." scope.
  assert.ok((await set(list('help'), { type: 'chat', chat_id: group })).ok);
  assert.deepEqual(names(fake.menuFor({ chatId: group, userId: 12 })), ['help'], 'chat before all admins');
});

test('a scope of an unknown type, or without the ids it needs, is refused', async (t) => {
  const fake = await open(t);
  const bad = [{ type: 'everyone' }, { type: 'chat' }, { type: 'chat_member', chat_id: -1 }];
  for (const scope of bad) {
    const r = await call(fake, 'setMyCommands', { commands: list('token'), scope });
    assert.equal(r.ok, false, JSON.stringify(scope));
  }
  assert.equal(fake.allCommands.size, 0);
});
