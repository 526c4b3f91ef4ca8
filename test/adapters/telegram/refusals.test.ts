/**
 * A group's members cannot crowd its alerts out, through grammY and the Telegram
 * fake on a pacer clock the test moves (frozen otherwise: a minute never passes by
 * itself, so nothing here depends on the machine's speed): repeated refusals are
 * answered once, answers to people leave part of the group's minute to alerts, and
 * an error quotes only the start of what was typed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALERT_RESERVE_PER_MINUTE } from '../../../src/adapters/telegram/pacer.ts';
import { typedPart } from '../../../src/core/errors.ts';
import type { FakeUser } from '../../fakes/telegram/index.ts';
import { barrier, eventually, group, privateChat, rig, type Rig } from './helpers.ts';

const ADMIN: FakeUser = { id: 424242, first_name: 'Tester', username: 'tester' };
const MEMBERS: FakeUser[] = [
  { id: 5101, first_name: 'Mo' },
  { id: 5102, first_name: 'Jo' },
];
const NEVER = '0 0 1 1 *';

/**
 * Telegram's own minute (time scale 1: a minute no test run comes near), on a clock the test
 * moves for the pacer and the fake together; chats' one-a-second limit out of the way (a
 * group's minute is the subject).
 */
async function minute(t: Parameters<typeof rig>[0]) {
  let skipped = 0;
  const r = await rig(t, {
    fake: { timeScale: 1, limits: { perChatPerSecond: 1000 } },
    pacing: { now: () => performance.now() + skipped, perChatPerSecond: 1000 },
  });
  const move = (ms: number) => {
    skipped += ms;
    r.fake.advanceClock(ms);
  };
  return { r, move };
}

async function subscribed(r: Rig, id: number) {
  const g = group(id);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  await r.ask(g, '/subscribe', ADMIN);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  return { g, watcher };
}

/** A tweet that alerts every open subscription; resolves with the alert in `chatId`. */
async function alert(r: Rig, watcher: { tick(): Promise<unknown> }, chatId: number) {
  const kol = r.sb.data.kols.find((k) => k.follower_count >= 20_000)!;
  r.sb.addTweets(1, { token: r.sb.data.tokens[30]!.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  return r.fake.waitForMessage(chatId, (m) => / shilled by /.test(m.text ?? ''));
}

test('twenty refusals of two members in a group are answered once, and the next alert goes out within the same minute', async (t) => {
  const { r } = await minute(t);
  const { g, watcher } = await subscribed(r, -6101);
  for (let i = 0; i < 20; i++) r.fake.sendText({ chat: g, from: MEMBERS[i % 2]!, text: '/alerts pause 1h' });
  await barrier(r, g, MEMBERS[0]);
  const refusals = r.fake.messages(g.id).filter((m) => /Only admins/.test(m.text ?? ''));
  assert.equal(refusals.length, 1, 'one answer for the twenty');
  const a = await alert(r, watcher, g.id);
  assert.equal(r.fake.messages(g.id).at(-1)!.message_id, a.message_id, 'the alert, within the minute');
});

test(`answers to people leave ${ALERT_RESERVE_PER_MINUTE} of a group's minute to alerts`, async (t) => {
  const { r, move } = await minute(t);
  const { g, watcher } = await subscribed(r, -6102);
  // Twenty members' questions in the minute: the answers stop where the alerts' share begins.
  for (let i = 0; i < 20; i++) r.fake.sendText({ chat: g, from: MEMBERS[i % 2]!, text: '/help' });
  const replies = 20 - ALERT_RESERVE_PER_MINUTE;
  await eventually(() => r.fake.messages(g.id).length >= replies, 'the answers the minute allows');
  const a = await alert(r, watcher, g.id);
  const shown = r.fake.messages(g.id);
  assert.equal(shown.at(-1)!.message_id, a.message_id);
  assert.equal(shown.length, replies + 1, 'the alert went out while the other answers waited for the next minute');
  // The next minute: the answers left waiting go out.
  move(61_000);
  await eventually(() => r.fake.messages(g.id).length === 20 + 1 + 1, 'the answers left waiting');
});

test('an error answer quotes only the start of what was typed: a 4,000-character start payload does not come back', async (t) => {
  const r = await rig(t);
  const payload = `x${'A'.repeat(3_999)}`;
  const answer = await r.ask(privateChat(6103), `/start ${payload}`);
  assert.ok(answer.text!.includes(typedPart(payload)), answer.text);
  assert.ok(!answer.text!.includes('A'.repeat(41)), `${answer.text!.length} characters`);
  assert.ok(answer.text!.length < 400, `${answer.text!.length} characters`);
});
