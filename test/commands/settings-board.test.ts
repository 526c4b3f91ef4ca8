// The settings panel turns members' call board on and off (the same options /callboard takes),
// for admins only, and says where it stands.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import type { View } from '../../src/domain/view.ts';
import { SETTING_OPTIONS } from '../../src/alerts/settings.ts';
import callboard from '../../commands/callboard.ts';
import { action, asCard, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());

const admin: Caller = {
  platform: 'console',
  userId: 'admin-1',
  chatId: 'board-panel',
  chatType: 'group',
  canManage: async () => true,
};
const press = (view: View, label: string, who: Caller) => h.dispatcher.action(action(view, label).id!, who);

test('the panel’s call board buttons set what /callboard on|off sets, and the summary says so', async () => {
  assert.equal(callboard.options, SETTING_OPTIONS.callboard, 'one definition of the options');
  let v = await h.dispatcher.run('settings', {}, admin);
  assert.match(plain(asCard(v).description), /Members' call board: off/);
  v = await press(v, 'Automatic cards', admin);
  v = await press(v, 'Call board on', admin);
  assert.equal((await h.store.members.settings('console:board-panel')).on, true);
  assert.match(plain(asCard(v).description), /Call board on here/);
  assert.match(plain(asCard(v).description), /Members' call board: on/);
  v = await press(v, 'Call board off', admin);
  assert.equal((await h.store.members.settings('console:board-panel')).on, false);
});
