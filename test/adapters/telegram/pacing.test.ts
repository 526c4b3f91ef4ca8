// A busy group at its 20-a-minute limit beside other chats, end to end through grammY and the Bot API fake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeChat, SentMessage } from '../../fakes/telegram/index.ts';
import { eventually, group, privateChat, rig } from './helpers.ts';

/** A cron that does not fire during a test: ticks are driven by hand. */
const NEVER = '0 0 1 1 *';
const OPEN = 'token_score:0 kol_score:0 followers:0 cooldown:0';

test('a group holding 40 alerts behind its minute limit delays neither another group’s new alert nor a digest', {
  timeout: 240_000,
}, async (t) => {
  // Time on the fake runs 2x faster: the group's minute is 30 s, long enough (on a loaded machine too) to see what waits for it.
  const r = await rig(t, { fake: { timeScale: 0.5 } });
  const admin = { id: 5101, first_name: 'Admin' };
  const busy = group(-4601, 'Busy');
  const other = group(-4602, 'Other');
  const digestChat = privateChat(4603);
  for (const [chat, chains] of [
    [busy, 'base'],
    [other, 'solana'],
  ] as [FakeChat, string][]) {
    r.fake.setMember(chat.id, admin.id, 'administrator');
    const reply = await r.ask(chat, `/subscribe ${OPEN} chains:${chains}`, admin);
    assert.doesNotMatch(reply.text!, /^⚠️/, reply.text);
  }
  assert.doesNotMatch((await r.ask(digestChat, `/subscribe ${OPEN} chains:bsc`)).text!, /^⚠️/);
  assert.match((await r.ask(digestChat, '/digest daily')).text!, /daily|Daily/);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick(); // the feed head: nothing old is sent

  const alertsIn = (chatId: number): SentMessage[] =>
    r.fake.messages(chatId).filter((m) => / shilled by |alerts at once/.test(m.text ?? ''));
  const kol = r.sb.data.kols[3]!;
  const base = r.sb.data.tokens.filter((x) => x.chain_id === 'base');
  const solana = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  assert.ok(base.length >= 5, 'base tokens in the sandbox');
  const shill = (n: number, tokens: readonly { id: number }[]) => {
    for (let i = 0; i < n; i++)
      r.sb.addTweets(1, { token: tokens[i % tokens.length]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
  };

  // The busy group takes its 20 for the minute: the reply to /subscribe and 19 alerts.
  shill(19, base);
  await watcher.tick();
  await eventually(() => alertsIn(busy.id).length === 19 || undefined, 'the first 19 out', 60_000);
  const sentBefore = alertsIn(busy.id).length;
  // 40 more for the busy group: they wait for its window, merged.
  shill(40, base);
  await watcher.tick();
  // Another group's alert, read by the next watcher tick, goes out now.
  shill(1, [solana]);
  await watcher.tick();
  const theirs = await r.fake.waitForMessage(other.id, (m) => / shilled by /.test(m.text ?? ''));
  assert.match(theirs.text!, new RegExp(solana.symbol));
  assert.equal(alertsIn(busy.id).length, sentBefore, 'sent while the busy group still waits for its minute');
  // A digest asked for meanwhile goes out on time too.
  assert.match((await r.ask(digestChat, '/digest now')).text!, /on its way/);
  await r.fake.waitForMessage(digestChat.id, (m) => /digest/i.test(m.text ?? ''));
  assert.equal(alertsIn(busy.id).length, sentBefore, 'the digest did not wait for the busy group either');
  // And nothing falls out: when its window frees, the busy group gets every one of its 60 alerts, once.
  await eventually(
    async () => (await r.app.store.outbox.pending()).length === 0 || undefined,
    'the busy group served',
    120_000,
  );
  const lines = r.fake
    .messages(busy.id)
    .filter((m) => /^\d+ alerts at once/.test(m.text ?? ''))
    .flatMap((m) => (m.text ?? '').split('\n').filter((l) => l.startsWith('• ')));
  assert.deepEqual(
    lines.map((l) => l.split(' ')[1]),
    Array.from({ length: 40 }, (_, i) => base[i % base.length]!.symbol),
    'the 40 held alerts, each once, in order',
  );
  assert.deepEqual(r.fake.violations, []);
});
