// Personal alerts on Telegram: /subscribe in the private chat with the bot delivers there, through grammY
// against the Bot API fake; a user who blocks the bot ends their subscription after one try.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, privateChat, rig } from './helpers.ts';

const NEVER = '0 0 1 1 *';

test('a personal subscription in a private chat delivers there; blocking the bot ends it after one try', async (t) => {
  const r = await rig(t);
  const me = privateChat(7301);
  const reply = await r.ask(me, '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0');
  assert.match(reply.text!, /Alerts on/);
  const sub = await r.app.store.subscriptions.get(`telegram:${me.id}`);
  assert.equal(sub?.isGroup, false, 'a person’s own subscription');
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  const kol = r.sb.data.kols[2]!;
  const shill = (i: number) =>
    r.sb.addTweets(1, { token: r.sb.data.tokens[i]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
  const alerts = () => r.fake.messages(me.id).filter((m) => / shilled by /.test(m.text ?? ''));
  shill(30);
  await watcher.tick();
  await eventually(() => alerts().length === 1, 'the alert in the private chat');
  r.fake.failChat(me.id, 'blocked');
  const since = r.fake.requests.length;
  shill(31);
  await watcher.tick();
  await eventually(
    async () => (await r.app.store.subscriptions.get(`telegram:${me.id}`))?.disabled != null,
    'the subscription ended',
  );
  assert.match((await r.app.store.subscriptions.get(`telegram:${me.id}`))!.disabled!.reason, /blocked/);
  shill(32);
  await watcher.tick();
  await eventually(async () => (await r.app.store.outbox.pending()).length === 0, 'nothing left to send');
  const tries = r.fake.requests.slice(since).filter((q) => q.method === 'sendMessage' && q.chat_id === me.id);
  assert.equal(tries.length, 1, 'one try, then no more');
});
