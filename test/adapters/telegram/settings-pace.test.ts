// The settings panel's presses on Telegram, through grammY and the Bot API fake, on a moved clock: an admin going
// through the panel at human speed is never told to slow down; a script pressing in a loop is stopped; a press
// that asks the upstream (a test alert reads a sample of the feed) still counts as a command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PANEL_LIMIT, DEFAULT_USER_LIMIT } from '../../../src/core/dispatch.ts';
import type { SentMessage } from '../../fakes/telegram/index.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import { button, eventually, group, rig } from './helpers.ts';

const g = group(-4951, 'Paced');
const admin = { id: 6051, first_name: 'Ada' };

test('Telegram: panel presses every 1.5 s are never refused; a flood of presses is; a press asking the upstream counts as a command', async (t) => {
  let now = Date.UTC(2026, 0, 1);
  const r = await rig(t, { userLimit: DEFAULT_USER_LIMIT, clock: () => now });
  r.fake.setMember(g.id, admin.id, 'administrator');
  const current = (m: SentMessage) => r.fake.messages(g.id).find((x) => x.message_id === m.message_id)!;
  /** Presses `label`; resolves with the press's answer once the press was answered (and the panel edited, if it was). */
  const press = async (panel: SentMessage, label: string) => {
    const before = current(panel).edits.length;
    const id = r.fake.pressButton({
      chatId: g.id,
      messageId: panel.message_id,
      data: button(current(panel), label),
      from: admin,
    });
    const answer = await eventually(() => r.fake.answersFor(id)[0], `the press of ${label} to be answered`);
    if (!answer.text)
      await r.fake.waitForEdit(g.id, (m) => m.message_id === panel.message_id && m.edits.length > before, PATIENCE_MS);
    return answer;
  };
  const card = await r.ask(g, '/settings', admin);
  now += 1_500;
  assert.equal((await press(card, 'Open here')).text, undefined);
  const panel = card;

  // Forty presses, one every 1.5 s: a minute of going back and forth through the pages.
  for (let k = 0; k < 40; k++) {
    now += 1_500;
    const answer = await press(panel, k % 2 === 0 ? 'Filters' : '« Back');
    assert.equal(answer.text, undefined, `press ${k + 1} refused`);
  }

  // A loop pressing without pause: the panel's limit, then a short refusal on the button.
  now += DEFAULT_PANEL_LIMIT.windowMs;
  for (let k = 0; k < DEFAULT_PANEL_LIMIT.count; k++)
    assert.equal((await press(panel, k % 2 === 0 ? 'Filters' : '« Back')).text, undefined);
  const edits = current(panel).edits.length;
  assert.match((await press(panel, 'Filters')).text ?? '', /You're sending commands quickly/);
  assert.equal(current(panel).edits.length, edits, 'the panel is not edited');

  // Commands used up: the panel still navigates and changes settings, but a test alert (a feed read) is a command.
  now += DEFAULT_PANEL_LIMIT.windowMs;
  for (let k = 0; k < DEFAULT_USER_LIMIT.count; k++) await r.ask(g, '/help', admin);
  assert.equal((await press(panel, 'Alerts')).text, undefined);
  assert.equal((await press(panel, 'Turn alerts on')).text, undefined);
  assert.ok(
    await r.app.store.subscriptions.get(`telegram:${g.id}`),
    'alerts on: a settings change, no upstream request',
  );
  const sent = r.fake.messages(g.id).length;
  assert.match((await press(panel, 'Send a test alert')).text ?? '', /You're sending commands quickly/);
  assert.equal(r.fake.messages(g.id).length, sent, 'no test alert');
});
