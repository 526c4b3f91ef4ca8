// The owner's console through the real grammY adapter and the Bot API fake: who sees it, what it
// does, and that a ban silences a chat or a user everywhere (commands, pastes, buttons, inline, alerts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translator } from '../../src/i18n/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { barrier, button, eventually, group, privateChat, rig, type Rig } from '../adapters/telegram/helpers.ts';

const OWNER = 7001;
const env = {
  OWNER_IDS: `telegram:${OWNER},discord:80351110224678912`,
  OWNER_MAX_SUBSCRIPTIONS_PER_PERSON: '2',
};
const OPEN = '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0';
const NEVER = '0 0 1 1 *';

/** Resolves once the adapter logged that it ignored an update of `what` for a ban: the update was read and dropped. */
const ignoredCount = (r: Rig, what: string) =>
  r.logs.filter((l) => l.includes('ignored: banned by an owner') && l.includes(`"what":"${what}"`)).length;

test('a non-owner sees nothing of /owner: the same answer as any unknown command, no menu entry; an owner in a group neither', async (t) => {
  const r = await rig(t, { env });
  const stranger = privateChat(7002);
  const unknown = translator('en')('errors.unknownCommand', { name: 'owner' });
  for (const text of ['/owner stats', '/owner ban telegram:1 x', '/owner notice hi']) {
    const reply = await r.ask(stranger, text);
    assert.ok(reply.text!.includes(unknown), reply.text);
    assert.doesNotMatch(reply.text!, /owner’s console|Every community/i);
  }
  // The owner, in a group: treated as any unknown command there (no answer: a group is not told
  // of commands it did not mean for this bot), the console answers in private only.
  const g = group(-5001);
  const owner = { id: OWNER, first_name: 'Owner' };
  r.fake.sendText({ chat: g, text: '/owner stats', from: owner });
  r.fake.sendText({ chat: g, text: '/nosuchthing', from: owner });
  const after = await barrier(r, g, owner);
  assert.deepEqual(
    r.fake.messages(g.id).map((m) => m.message_id),
    [after.message_id],
    'only the barrier answered',
  );
  // Menus: the default one has no /owner; the owner's own chat has it, and only that scope.
  await eventually(() => r.fake.commands !== undefined, 'the default menu');
  assert.ok(!r.fake.commands!.some((c) => c.command === 'owner'));
  const withOwner = [...r.fake.allCommands].filter(([, list]) => list.some((c) => c.command === 'owner'));
  assert.deepEqual(
    withOwner.map(([k]) => k),
    [`chat|${OWNER}||`],
  );
});

test('/owner stats counts servers, destinations, subscriptions and upstream requests; destinations lists, disables and enables', async (t) => {
  const r = await rig(t, { env });
  const me = privateChat(OWNER);
  const admin = { id: 7100, first_name: 'Admin' };
  const g = group(-5101, 'Degen Den');
  r.fake.setMember(g.id, admin.id, 'administrator');
  assert.doesNotMatch((await r.ask(g, OPEN, admin)).text!, /^⚠️/);
  assert.doesNotMatch((await r.ask(privateChat(7101), OPEN)).text!, /^⚠️/);
  await r.ask(privateChat(7101), `/token ${r.sb.data.tokens[0]!.chain_id} ${r.sb.data.tokens[0]!.address}`);

  // Another instance on the same store, as its beat says.
  await r.app.store.instances.beat(
    { id: 'other-host:42:0c0ffee0', roles: { watcher: 'follower' }, startedAt: Date.now() + 1, at: Date.now() },
    30_000,
  );
  const stats = (await r.ask(me, '/owner stats')).text!;
  assert.match(stats, /Every community the bot serves/);
  assert.match(stats, /Telegram groups: 1/);
  assert.match(stats, /Telegram group: 1/);
  assert.match(stats, /Telegram private chat: 1/);
  assert.match(stats, /active: 2 · paused: 0 · stopped: 0/);
  assert.match(stats, /memory: keys: \d+/);
  assert.match(stats, /\w+: [1-9]/, 'upstream requests by operation');
  assert.match(stats, new RegExp(`${r.app.instanceId} \\(This instance\\): watcher: `));
  assert.match(stats, /other-host:42:0c0ffee0: watcher: follower/);

  // No action, or one it does not know: what the console can do.
  assert.match((await r.ask(me, '/owner')).text!, /^Owner’s console: \/owner stats · destinations/);
  assert.match((await r.ask(me, '/owner help')).text!, /^Owner’s console:/);
  const list = (await r.ask(me, '/owner destinations search:degen')).text!;
  assert.match(list, /Destinations: 1/);
  assert.match(list, /telegram:-5101 · Degen Den · Telegram group · on/);

  assert.match((await r.ask(me, '/owner disable telegram:-5101')).text!, /Alerts to telegram:-5101 stopped/);
  const failing = (await r.ask(me, '/owner destinations failing')).text!;
  assert.match(failing, /telegram:-5101 .* off\n\s+Last error: disabled by the owner/);
  // The group's admin cannot undo an owner's stop.
  assert.match((await r.ask(g, OPEN, admin)).text!, /operator stopped alerts here/);
  assert.match((await r.ask(me, '/owner enable telegram:-5101')).text!, /on again/);
  assert.match((await r.ask(me, '/owner destinations')).text!, /telegram:-5101 .* on/);
  assert.match((await r.ask(me, '/owner disable telegram:404')).text!, /No destination telegram:404/);
});

test('a ban stops commands, pastes, buttons, inline answers and alerts for that chat or user; unban restores them', async (t) => {
  const r = await rig(t, { env, fake: { inlineMode: true } });
  const me = privateChat(OWNER);
  const spammer = { id: 7201, first_name: 'Spam' };
  const spamDm = privateChat(spammer.id);
  const g = group(-5201);
  const other = privateChat(7202);
  const admin = { id: 7203, first_name: 'Admin' };
  r.fake.setMember(g.id, admin.id, 'administrator');
  await r.ask(g, OPEN, admin);
  await r.ask(other, OPEN);
  const kols = await r.ask(spamDm, '/kols'); // a message with buttons, before the ban
  const next = button(kols, 'Next');

  // Another spelling of the group's id would ban a chat no subscription has: refused, nothing banned.
  assert.match(
    (await r.ask(me, '/owner ban telegram:-05201 spam')).text!,
    /Name a chat, server or user as platform:id/,
  );
  assert.match(
    (await r.ask(me, '/owner ban telegram:-5201 shilling scams')).text!,
    /Banned telegram:-5201.*stopped: 1/,
  );
  assert.match((await r.ask(me, `/owner ban telegram:${spammer.id}`)).text!, /Banned telegram:7201/);
  assert.match(
    (await r.ask(me, '/owner bans')).text!,
    /telegram:-5201 · shilling scams[\s\S]*telegram:7201 · no reason given/,
  );

  // Commands in the banned group (from anyone), and the banned user's commands, pastes, presses and queries anywhere.
  const before = { g: r.fake.messages(g.id).length, dm: r.fake.messages(spamDm.id).length };
  r.fake.sendText({ chat: g, text: '/help', from: admin });
  await eventually(() => ignoredCount(r, 'message') >= 1, 'the group command ignored');
  r.fake.sendText({ chat: spamDm, text: r.sb.data.tokens[0]!.address });
  await eventually(() => ignoredCount(r, 'message') >= 2, 'the paste ignored');
  const press = r.fake.pressButton({ chatId: spamDm.id, messageId: kols.message_id, data: next });
  await eventually(() => ignoredCount(r, 'button') >= 1, 'the button ignored');
  assert.ok(r.fake.sendInlineQuery({ query: r.sb.data.tokens[0]!.address, from: spammer }));
  await eventually(() => ignoredCount(r, 'inline') >= 1, 'the inline query ignored');
  assert.equal(r.fake.messages(g.id).length, before.g, 'nothing posted in the banned group');
  assert.equal(r.fake.messages(spamDm.id).length, before.dm, 'nothing sent to the banned user');
  assert.deepEqual(r.fake.answersFor(press), [], 'the press is not answered');

  // Alerts: the banned group's subscription stopped; the other destination still gets them.
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  const kol = r.sb.data.kols[3]!;
  r.sb.addTweets(1, { token: r.sb.data.tokens[11]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await eventually(async () => (await r.app.store.outbox.pending()).length === 0, 'the outbox to empty');
  assert.equal(r.fake.messages(other.id).filter((m) => / shilled by /.test(m.text ?? '')).length, 1);
  assert.equal(r.fake.messages(g.id).filter((m) => / shilled by /.test(m.text ?? '')).length, 0);
  assert.match(
    (await r.ask(me, '/owner stats')).text!,
    /alerts: 1 · follow-ups: 0/,
    'the alert counted for the last day',
  );

  // Unbanned: the group answers and its alerts resume.
  assert.match((await r.ask(me, '/owner unban telegram:-5201')).text!, /Unbanned telegram:-5201.*back on: 1/);
  assert.match((await r.ask(g, '/help', admin)).text!, /\/token/);
  assert.equal((await r.app.store.subscriptions.get('telegram:-5201'))?.disabled, null);
  assert.match((await r.ask(me, '/owner unban telegram:-5201')).text!, /was not banned/);
});

test('quotas: past OWNER_MAX_SUBSCRIPTIONS_PER_PERSON the next subscription is refused with the limit named; changing one still works', async (t) => {
  const r = await rig(t, { env });
  const admin = { id: 7301, first_name: 'Admin' };
  const groups = [group(-5301), group(-5302), group(-5303)];
  for (const g of groups) r.fake.setMember(g.id, admin.id, 'administrator');
  assert.match((await r.ask(groups[0]!, OPEN, admin)).text!, /Alerts on/);
  assert.match((await r.ask(groups[1]!, OPEN, admin)).text!, /Alerts on/);
  const refused = (await r.ask(groups[2]!, OPEN, admin)).text!;
  assert.match(refused, /limit .* per person \(2\)/);
  assert.equal(await r.app.store.subscriptions.get('telegram:-5303'), undefined, 'nothing stored');
  assert.match((await r.ask(groups[0]!, '/subscribe token_score:80', admin)).text!, /Alerts updated/);
});

test('/owner notice over the limit is refused with the limit, never cut; at the limit it is drafted whole', async (t) => {
  const r = await rig(t, { env });
  const me = privateChat(OWNER);
  await r.app.store.subscriptions.put({ ...openSubscription('telegram', '-5101'), isGroup: true });
  const long = `Maintenance tonight${'.'.repeat(3_978)}END`;
  const refused = (await r.ask(me, `/owner notice ${long}`)).text!;
  assert.match(refused, /That notice has 4,000 characters; a notice may have at most 1,500\. Nothing was drafted/);
  assert.doesNotMatch(refused, /Dry run|\/owner send|Maintenance|\.\.\./, 'no draft, and no part of it');
  // At the limit: the dry run shows all of it, and the send queues all of it.
  const whole = `${'x'.repeat(1_496)} END`;
  const dry = (await r.ask(me, `/owner notice telegram ${whole}`)).text!;
  assert.ok(dry.endsWith(whole), dry.slice(-40));
  const id = /\/owner send ([0-9a-f]{8})/.exec(dry)![1]!;
  await r.ask(me, `/owner send ${id}`);
  const queued = (await r.app.store.outbox.pending()).find((e) => e.content.kind === 'notice');
  assert.ok(queued && queued.content.kind === 'notice' && JSON.stringify(queued.content).includes(whole));
});
