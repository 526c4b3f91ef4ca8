// Alerts end to end through the real grammY transport: watcher -> outbox -> delivery -> paced sender -> Bot API fake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Watcher } from '../../../src/alerts/watcher.ts';
import type { FakeChat, FakeUser, SentMessage } from '../../fakes/telegram/index.ts';
import { nothingMoreAfter } from '../../helpers/wait.ts';
import { eventually, group, privateChat, rig, type Rig } from './helpers.ts';

const OPEN = '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0';
/** A cron that does not fire during a test: ticks are driven by hand. */
const NEVER = '0 0 1 1 *';

/** The symbols of each rig's barrier alerts (see `delivered`). */
const barriers = new WeakMap<Rig, string[]>();
const isBarrier = (r: Rig, m: SentMessage) =>
  (barriers.get(r) ?? []).some((symbol) => (m.text ?? '').startsWith(`${symbol} shilled by `));

/** The alerts in a chat, barriers left out. */
const alerts = (r: Rig, chatId: number): SentMessage[] =>
  r.fake.messages(chatId).filter((m) => / shilled by /.test(m.text ?? '') && !isBarrier(r, m));

/**
 * Waits until the outbox is empty, then shows that nothing more arrives in `chats`: a
 * barrier alert (one more tweet, on a token whose symbol no other token has) joins each
 * chat's queue behind whatever was left there and is sent in order, so an alert sent
 * twice would come before it.
 */
async function delivered(r: Rig, watcher: Watcher, chats: readonly number[]): Promise<void> {
  await eventually(async () => (await r.app.store.outbox.pending()).length === 0, 'the outbox to empty');
  const used = barriers.get(r) ?? [];
  barriers.set(r, used);
  const { tokens } = r.sb.data;
  const tok = tokens.find(
    (x, i) =>
      i >= 50 &&
      x.chain_id === 'solana' &&
      !used.includes(x.symbol) &&
      tokens.filter((y) => y.symbol === x.symbol).length === 1,
  )!;
  used.push(tok.symbol);
  const count = () => chats.reduce((n, c) => n + alerts(r, c).length, 0);
  await nothingMoreAfter(
    count,
    async () => {
      r.sb.addTweets(1, { token: tok.id, kol: r.sb.data.kols[0]!.id, tokenScore: 90, kolScore: 90 });
      await watcher.tick();
      await eventually(
        () => chats.every((c) => r.fake.messages(c).some((m) => isBarrier(r, m))),
        `the barrier alert (${tok.symbol}) in every chat`,
      );
    },
    'no alert sent twice',
  );
}

async function subscribe(r: Rig, chat: FakeChat, admin?: FakeUser): Promise<void> {
  if (admin) r.fake.setMember(chat.id, admin.id, 'administrator');
  const reply = await r.ask(chat, OPEN, admin);
  assert.doesNotMatch(reply.text!, /^⚠️/, reply.text);
}

// Full feed authors, spec-minimal ones (id and username: facts come from op 7) and a mix.
for (const authors of ['full', 'minimal', 'mix'] as const)
  test(`two chats each get each matching alert exactly once (${authors} feed authors); a kicked chat is disabled after its first failure`, async (t) => {
    const r = await rig(t);
    r.sb.setAuthors(authors);
    const admin = { id: 5001, first_name: 'Admin' };
    const a = privateChat(201);
    const b = group(-4201);
    const kicked = privateChat(202);
    await subscribe(r, a);
    await subscribe(r, b, admin);
    await subscribe(r, kicked);
    const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
    await watcher.tick(); // the feed head: nothing old is sent
    r.fake.failChat(kicked.id, 'kicked');
    const since = r.fake.requests.length;
    const triesAtKicked = () =>
      r.fake.requests.slice(since).filter((q) => q.method === 'sendMessage' && q.chat_id === kicked.id);

    const kol = r.sb.data.kols[2]!;
    const tokens = r.sb.data.tokens.slice(10, 13);
    for (const tok of tokens) r.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await watcher.tick();
    await delivered(r, watcher, [a.id, b.id]);

    const expected = tokens.map((tok) => `${tok.symbol} shilled by ${kol.display_name} (@${kol.username})`);
    for (const chat of [a, b]) {
      const got = alerts(r, chat.id);
      assert.deepEqual(
        got.map((m) => m.text!.split('\n')[0]),
        expected,
        `chat ${chat.id}: each alert once, in order`,
      );
      assert.equal(got[0]!.parse_mode, 'HTML');
      assert.ok(
        (got[0]!.reply_markup?.inline_keyboard ?? []).flat().some((x) => x.url?.startsWith('https://')),
        'link buttons',
      );
    }
    const tries = triesAtKicked();
    assert.equal(tries.length, 1, 'one attempt at the kicked chat');
    assert.equal(tries[0]!.status, 403);
    const sub = await r.app.store.subscriptions.get(`telegram:${kicked.id}`);
    assert.match(sub?.disabled?.reason ?? '', /kicked/);

    r.sb.addTweets(1, { token: r.sb.data.tokens[20]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await watcher.tick();
    await delivered(r, watcher, [a.id, b.id]);
    assert.equal(alerts(r, a.id).length, 4);
    assert.equal(triesAtKicked().length, 1, 'a disabled chat is not tried again');
  });

test('a 429 during a fan-out is waited out: delivered once, nothing sent inside the window', async (t) => {
  const r = await rig(t);
  const chats = [301, 302, 303, 304].map(privateChat);
  for (const c of chats) await subscribe(r, c);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  r.fake.force429({ count: 1, retryAfter: 3, chatId: 302 });
  const kol = r.sb.data.kols[4]!;
  for (const tok of r.sb.data.tokens.slice(30, 32))
    r.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  await delivered(
    r,
    watcher,
    chats.map((c) => c.id),
  );
  for (const c of chats) assert.equal(alerts(r, c.id).length, 2, `chat ${c.id}`);
  const limited = r.fake.requests.filter((q) => q.chat_id === 302 && q.method === 'sendMessage');
  assert.equal(limited.filter((q) => q.status === 429).length, 1);
  // violations are checked for every test when the rig closes
});

test('a group upgraded to a supergroup keeps its settings under the new id, and alerts follow it', async (t) => {
  const r = await rig(t);
  const admin = { id: 5002, first_name: 'Admin' };
  const old = group(-4401);
  r.fake.setMember(old.id, admin.id, 'creator');
  const reply = await r.ask(
    old,
    '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0 chains:solana,base',
    admin,
  );
  assert.doesNotMatch(reply.text!, /^⚠️/);
  const before = (await r.app.store.subscriptions.get(`telegram:${old.id}`))!;
  r.fake.migrateGroup(old.id, -1004401);
  const moved = await eventually(() => r.app.store.subscriptions.get('telegram:-1004401'), 'the subscription to move');
  assert.equal(
    (await r.app.store.subscriptions.get(`telegram:${old.id}`))?.movedTo,
    '-1004401',
    'the old id only points at the new one',
  );
  assert.deepEqual(moved.filters, before.filters);
  assert.equal(moved.chatId, '-1004401');
  const shown = await r.ask({ id: -1004401, type: 'supergroup' }, '/alerts', admin);
  assert.match(shown.text!, /chains:solana,base/);

  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  r.sb.addTweets(1, { token: tok.id, kol: r.sb.data.kols[0]!.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await delivered(r, watcher, [-1004401]);
  assert.equal(alerts(r, -1004401).length, 1);
  assert.equal(alerts(r, old.id).length, 0);
});

test('a send refused with migrate_to_chat_id moves the subscription and delivers to the new id', async (t) => {
  const r = await rig(t);
  const admin = { id: 5003, first_name: 'Admin' };
  const old = group(-4501);
  await subscribe(r, old, admin);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  // The upgrade happened while the bot did not see the service messages.
  r.fake.addChat({ id: -1004501, type: 'supergroup' });
  r.fake.failChat(old.id, { migrateTo: -1004501 });
  r.sb.addTweets(1, { token: r.sb.data.tokens[3]!.id, kol: r.sb.data.kols[1]!.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await delivered(r, watcher, [-1004501]);
  assert.equal(alerts(r, -1004501).length, 1);
  const moved = await r.app.store.subscriptions.get('telegram:-1004501');
  assert.equal(moved?.disabled, null);
  assert.equal(
    (await r.app.store.subscriptions.get(`telegram:${old.id}`))?.movedTo,
    '-1004501',
    'the old id only points at the new one',
  );
});
