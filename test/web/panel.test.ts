/**
 * The settings panel has the community page's row: its status line with the
 * link, and buttons that run /web on (a random name, or one typed) and /web off,
 * as the typed command does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { action, asCard, plain } from '../commands/harness.ts';
import { webHarness } from './harness.ts';

test('the settings panel turns the community page on and off and shows its link', async (t) => {
  const w = await webHarness(t);
  const admin = w.member('1', 'Ada', { admin: true });
  const press = async (view: Parameters<typeof action>[0], label: string, answer?: string) =>
    w.app.dispatcher.action(action(view, label).id!, admin, answer === undefined ? {} : { answer });
  const panel = await w.send(admin, '/settings');
  assert.match(plain(asCard(panel).description), /Community page: off/);
  let v = await press(panel, 'Automatic cards');
  v = await press(v, 'Page name', 'panel-page');
  const page = await w.app.store.web.ofChat('telegram', admin.chatId);
  assert.equal(page?.slug, 'panel-page', 'the typed name, as /web on panel-page');
  assert.equal((await w.get('/c/panel-page')).status, 200);
  const again = await w.send(admin, '/settings');
  assert.ok(plain(asCard(again).description).includes(`Community page: ${w.web.url}/c/panel-page`));
  v = await press(await press(again, 'Automatic cards'), 'Page off');
  assert.equal((await w.get('/c/panel-page')).status, 404, 'off from the panel: the address is gone');
  v = await press(await press(await w.send(admin, '/settings'), 'Automatic cards'), 'Page on');
  const random = await w.app.store.web.ofChat('telegram', admin.chatId);
  assert.match(random?.slug ?? '', /^[a-z2-7]{16}$/, 'a random name');
});
