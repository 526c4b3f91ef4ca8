// Where big Discord communities read, end to end through discord.js against the fake: a role ping
// on new alerts only, threads (archived, locked), announcement channels' hourly publishing, and
// personal subscriptions in the bot's DM.
import { test, type TestContext } from 'node:test';
import { generateKeyPairSync } from 'node:crypto';
import assert from 'node:assert/strict';
import { nonceFor } from '../../../src/alerts/delivery.ts';
import { postingOf } from '../../../src/alerts/delivery/compose.ts';
import { translator } from '../../../src/i18n/index.ts';
import type { AlertContent } from '../../../src/store/outbox.ts';
import { alertView } from '../../../src/views/cards/alert.ts';
import { snowflake, type FakeGuildConfig, type SendCommandOptions } from '../../fakes/discord/index.ts';
import {
  embedOf,
  MANAGER,
  MANAGER_PERMISSIONS,
  privateAnswer,
  publicAnswer,
  shown,
  startHarness,
  until,
  type Harness,
} from './harness.ts';

const GUILD = snowflake();
const TEXT = snowflake();
const THREAD = snowflake();
const LOCKED = snowflake();
const NEWS = snowflake();
const TRADERS = snowflake();
const QUIET = snowflake();
const FORUM = snowflake();
const ASLEEP = snowflake();
const POST = snowflake();
const TAG = snowflake();

const OPEN = [
  { name: 'token_score', type: 10, value: 0 },
  { name: 'kol_score', type: 10, value: 0 },
  { name: 'followers', type: 4, value: 0 },
];

const guild = (): FakeGuildConfig => ({
  id: GUILD,
  name: 'Radar HQ',
  channels: [
    { id: TEXT, name: 'alerts' },
    { id: THREAD, name: 'sol-calls', type: 11, parentId: TEXT },
    { id: LOCKED, name: 'old', type: 11, parentId: TEXT },
    // Archived before the bot connected: not among GUILD_CREATE's threads, so discord.js has not cached it.
    { id: ASLEEP, name: 'asleep', type: 11, parentId: TEXT, archived: true },
    { id: NEWS, name: 'news', type: 5 },
    { id: FORUM, name: 'calls', type: 15, requireTag: true, tags: [{ id: TAG, name: 'Alerts' }] },
    { id: POST, name: 'read me', type: 11, parentId: FORUM },
  ],
  roles: [
    { id: TRADERS, name: 'traders', mentionable: true },
    { id: QUIET, name: 'quiet', mentionable: false },
  ],
});

async function harness(t: TestContext, o: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness({
    ...o,
    fake: { guilds: [guild()], channelBucket: { limit: 50, windowMs: 1000 }, ...o.fake },
  });
  t.after(() => h.close());
  return h;
}

const subscribe = (h: Harness, channelId: string, more: SendCommandOptions['options'] = [], user = MANAGER) =>
  h.fake.sendCommand({
    name: 'subscribe',
    channelId,
    user,
    memberPermissions: MANAGER_PERMISSIONS,
    options: [...OPEN, ...(more ?? [])],
  });

async function settled(h: Harness): Promise<void> {
  await until(
    async () => (await h.app.store.outbox.pending()).every((e) => e.state !== 'pending' && e.state !== 'inflight'),
    'the outbox to settle',
  );
}

/** One tweet per token, by one KOL, scored to pass. */
function shill(h: Harness, tokens: number[], kol = 2): void {
  const sb = h.app.sandbox!;
  for (const i of tokens)
    sb.addTweets(1, { token: sb.data.tokens[i]!.id, kol: sb.data.kols[kol]!.id, tokenScore: 90, kolScore: 90 });
}

test('a role ping: new alerts notify that role alone; a second KOL on the token edits the alert without a new ping', async (t) => {
  const h = await harness(t);
  const on = await subscribe(h, TEXT, [
    { name: 'ping', type: 8, value: TRADERS },
    { name: 'cooldown', type: 4, value: 60 },
  ]);
  assert.match(shown(embedOf(await publicAnswer(on)).description!), /Pings @traders on each new alert/);
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, [10, 11]);
  await watcher.tick();
  await until(() => h.fake.channelMessages(TEXT).length === 2, 'two alerts');
  await settled(h);
  shill(h, [10], 3);
  await watcher.tick();
  await until(() => h.fake.channelMessages(TEXT)[0]!.edits > 0, 'the first alert names the second KOL');
  await settled(h);
  const messages = h.fake.channelMessages(TEXT);
  assert.equal(messages.length, 2, 'no new message for the second KOL');
  for (const m of messages) {
    assert.deepEqual(m.notified, { roles: [TRADERS], users: [], everyone: false });
    assert.equal(m.content, `<@&${TRADERS}>`, 'the mention is in content, not in the embed');
  }
  assert.deepEqual(h.fake.violations, []);
});

test('a role nobody may mention is refused at subscribe time with what to change; nothing is stored', async (t) => {
  const h = await harness(t);
  const refused = await subscribe(h, TEXT, [{ name: 'ping', type: 8, value: QUIET }]);
  const text = (await privateAnswer(refused)).embeds.map((e) => JSON.stringify(e)).join(' ');
  assert.match(text, /Allow anyone to @mention this role/);
  assert.match(text, /Mention Everyone/);
  assert.equal(await h.app.store.subscriptions.get(`discord:${TEXT}`), undefined);
});

test('a role nobody may mention is accepted when the bot has Mention Everyone, and pinged', async (t) => {
  const h = await harness(t, { fake: { guilds: [{ ...guild(), botMentionsEveryone: true }] } });
  await publicAnswer(await subscribe(h, TEXT, [{ name: 'ping', type: 8, value: QUIET }]));
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, [12]);
  await watcher.tick();
  await until(() => h.fake.channelMessages(TEXT).length === 1, 'the alert');
  assert.deepEqual(h.fake.channelMessages(TEXT)[0]!.notified.roles, [QUIET]);
});

test('a thread subscription posts in the thread, unarchiving it; a locked archived thread ends with the reason', async (t) => {
  const h = await harness(t);
  await publicAnswer(await subscribe(h, THREAD));
  await publicAnswer(await subscribe(h, LOCKED));
  const sub = await h.app.store.subscriptions.get(`discord:${TEXT}:${THREAD}`);
  assert.equal(sub?.threadId, THREAD, 'the thread is a destination of its channel');
  h.fake.archiveThread(THREAD);
  h.fake.archiveThread(LOCKED, { locked: true });
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, [13, 14]);
  await watcher.tick();
  await until(() => h.fake.channelMessages(THREAD).length === 2, 'two alerts in the thread');
  await until(
    async () => (await h.app.store.subscriptions.get(`discord:${TEXT}:${LOCKED}`))?.disabled != null,
    'the locked thread ended',
  );
  await settled(h);
  assert.equal(h.fake.channel(THREAD)!.archived, false, 'posting unarchived it');
  assert.deepEqual(h.fake.channelMessages(TEXT), [], 'nothing in the parent channel');
  assert.deepEqual(h.fake.channelMessages(LOCKED), []);
  const ended = await h.app.store.subscriptions.get(`discord:${TEXT}:${LOCKED}`);
  assert.match(ended!.disabled!.reason, /archived and locked/);
  const tries = h.fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${LOCKED}/messages`);
  assert.equal(tries.length, 1, 'one attempt, then no more');
});

const PERSON = { id: snowflake(), username: 'degen' };

/** The person runs /subscribe in their DM with the bot (a channel in no server). */
const subscribeInDm = (h: Harness, dm: string) =>
  h.fake.sendCommand({ name: 'subscribe', channelId: dm, user: PERSON, options: OPEN });

test('a personal subscription in the bot’s DM is confirmed by a real DM and delivers there; 50007 ends it', async (t) => {
  const h = await harness(t);
  const dm = snowflake();
  await publicAnswer(await subscribeInDm(h, dm));
  assert.equal(h.fake.dmChannelOf(PERSON.id), dm, 'the confirmation went to the person’s own DM channel');
  assert.deepEqual(
    h.fake.channelMessages(dm).map((m) => m.content),
    ['Your personal alerts are on: they arrive in this DM.'],
  );
  const sub = await h.app.store.subscriptions.get(`discord:${dm}`);
  assert.equal(sub?.isGroup, false);
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, [15]);
  await watcher.tick();
  await until(() => h.fake.channelMessages(dm).length === 2, 'the alert in the DM');
  await settled(h);
  h.fake.setDmsClosed(PERSON.id, true);
  shill(h, [16]);
  await watcher.tick();
  await until(
    async () => (await h.app.store.subscriptions.get(`discord:${dm}`))?.disabled != null,
    'the personal subscription ended',
  );
  assert.match((await h.app.store.subscriptions.get(`discord:${dm}`))!.disabled!.reason, /direct messages/);
  assert.equal(h.fake.channelMessages(dm).length, 2, 'nothing more arrived');
});

test('a personal subscription that could never be delivered (DMs closed) is refused at once; nothing is stored', async (t) => {
  const h = await harness(t);
  const dm = snowflake();
  h.fake.setDmsClosed(PERSON.id, true);
  const refused = await privateAnswer(await subscribeInDm(h, dm));
  assert.match(JSON.stringify(refused.embeds), /can’t send you direct messages/);
  assert.equal(await h.app.store.subscriptions.get(`discord:${dm}`), undefined);
});

test('a DM answering 50001 is not ended: its alert waits to be retried', async (t) => {
  const h = await harness(t);
  const dm = snowflake();
  await publicAnswer(await subscribeInDm(h, dm));
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  h.fake.failChannel(dm, { status: 403, code: 50001, message: 'Missing Access', times: 1 });
  shill(h, [17]);
  await watcher.tick();
  await until(
    async () => (await h.app.store.outbox.pending()).some((e) => e.attempts > 0 && e.state === 'pending'),
    'the refused send',
  );
  const sub = await h.app.store.subscriptions.get(`discord:${dm}`);
  assert.equal(sub?.disabled, null, 'still on');
  const [entry] = (await h.app.store.outbox.pending()).filter((e) => e.chatId === dm);
  assert.equal(entry?.state, 'pending');
  assert.ok(entry!.notBefore > Date.now() + 60_000, 'retried later, not at once');
});

test('25 alerts in an hour in an announcement channel: 10 crossposts, then one published summary of the other 15, and no 429', async (t) => {
  let now = Date.parse('2026-11-20T12:00:00Z');
  const timers: { at: number; run: () => void }[] = [];
  const h = await harness(t, {
    fake: { clock: () => now },
    adapter: { publisher: { now: () => now, schedule: (run, ms) => timers.push({ at: now + ms, run }) } },
  });
  const on = await subscribe(h, NEWS, [{ name: 'publish', type: 5, value: true }]);
  assert.match(shown(embedOf(await publicAnswer(on)).description!), /published to following servers/);
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  const tokens = Array.from({ length: 25 }, (_, i) => 40 + i);
  shill(h, tokens);
  await watcher.tick();
  await until(() => h.fake.channelMessages(NEWS).length === 25, '25 alerts posted');
  await settled(h);
  const alerts = h.fake.channelMessages(NEWS);
  assert.deepEqual(
    alerts.map((m) => m.crossposted),
    [...Array(10).fill(true), ...Array(15).fill(false)],
    'the first 10 published, the rest posted only',
  );
  assert.equal(timers.length, 1, 'one summary waits for the hour');
  now += 3_600_000;
  timers[0]!.run();
  await until(() => h.fake.channelMessages(NEWS).length === 26, 'the summary');
  const summary = h.fake.channelMessages(NEWS)[25]!;
  await until(() => h.fake.message(summary.id)!.crossposted, 'the summary published');
  assert.match(summary.content, /^15 more alerts this hour were posted here but not published/);
  assert.deepEqual(summary.notified, { roles: [], users: [], everyone: false });
  assert.equal(h.fake.crosspost429s, 0, 'never a 429');
  const crossposts = h.fake.requests.filter((r) => r.route.endsWith('/crosspost'));
  assert.equal(crossposts.length, 11);
});

test('publish:true outside an announcement channel is refused with where it works', async (t) => {
  const h = await harness(t);
  const refused = await privateAnswer(await subscribe(h, TEXT, [{ name: 'publish', type: 5, value: true }]));
  assert.match(JSON.stringify(refused.embeds), /announcement channel/);
  assert.equal(await h.app.store.subscriptions.get(`discord:${TEXT}`), undefined);
});

test('a forum: /subscribe in one of its posts needs a tag it has; each token then gets one post, tagged, its later KOLs added to it; /unsubscribe there stops it', async (t) => {
  const h = await harness(t);
  const untagged = await privateAnswer(await subscribe(h, POST));
  assert.match(JSON.stringify(untagged.embeds), /requires a tag on each post: add tag: with one of Alerts/);
  const unknown = await privateAnswer(await subscribe(h, POST, [{ name: 'tag', type: 3, value: 'memes' }]));
  assert.match(JSON.stringify(unknown.embeds), /no tag “memes”/);
  assert.equal(await h.app.store.subscriptions.get(`discord:${FORUM}`), undefined);
  await publicAnswer(
    await subscribe(h, POST, [
      { name: 'tag', type: 3, value: 'alerts' },
      { name: 'cooldown', type: 4, value: 60 },
    ]),
  );
  const sub = await h.app.store.subscriptions.get(`discord:${FORUM}`);
  assert.deepEqual(sub?.posting?.forum, { tags: [TAG] }, 'the forum itself, with its tag');
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, [20, 21]);
  await watcher.tick();
  const posts = () => h.fake.forumPosts(FORUM).filter((p) => p.thread.id !== POST);
  await until(() => posts().length === 2, 'two posts');
  await settled(h);
  shill(h, [20], 3);
  await watcher.tick();
  await until(() => posts()[0]!.messages[0]!.edits > 0, 'the first post names the second KOL');
  await settled(h);
  const sb = h.app.sandbox!;
  assert.equal(posts().length, 2, 'one post per token');
  for (const [i, p] of posts().entries()) {
    const token = sb.data.tokens[20 + i]!;
    assert.ok(p.thread.name.includes(token.symbol), `post ${p.thread.name} names ${token.symbol}`);
    assert.ok(p.thread.name.length <= 100);
    assert.deepEqual(p.tags, [TAG]);
    assert.equal(p.messages.length, 1, 'the alert is the post');
  }
  assert.deepEqual(h.fake.channelMessages(POST), [], 'nothing in the post it was asked in');
  const off = await h.fake.sendCommand({
    name: 'unsubscribe',
    channelId: POST,
    user: MANAGER,
    memberPermissions: MANAGER_PERMISSIONS,
  });
  await publicAnswer(off);
  assert.equal(await h.app.store.subscriptions.get(`discord:${FORUM}`), undefined, 'the forum’s alerts are off');
});

test('a forum post sent again with its entry’s nonce (as after a crash before it was recorded) opens no second post', async (t) => {
  const h = await harness(t);
  await publicAnswer(await subscribe(h, POST, [{ name: 'tag', type: 3, value: 'alerts' }]));
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  const sb = h.app.sandbox!;
  const [tweet] = sb.addTweets(1, {
    token: sb.data.tokens[20]!.id,
    kol: sb.data.kols[2]!.id,
    tokenScore: 90,
    kolScore: 90,
  });
  await watcher.tick();
  const posts = () => h.fake.forumPosts(FORUM).filter((p) => p.thread.id !== POST);
  await until(() => posts().length === 1, 'the post');
  await settled(h);
  const entry = await h.app.store.outbox.get(`${tweet!.id}:discord:${FORUM}`);
  assert.ok(entry, 'the outbox entry behind the post');
  assert.equal(posts()[0]!.messages[0]!.nonce, nonceFor(entry.id), 'posted with the entry’s nonce');
  const sub = await h.app.store.subscriptions.get(`discord:${FORUM}`);
  const again = await h.adapter.sender.send(
    FORUM,
    alertView(entry.content as AlertContent, translator('en')),
    nonceFor(entry.id),
    undefined,
    undefined,
    postingOf(entry, sub),
  );
  assert.deepEqual(again, { kind: 'sent', messageId: posts()[0]!.thread.id });
  assert.equal(posts().length, 1, 'one post');
});

test('a person who only installed the app (no shared server) subscribes in the bot’s DM as well', async (t) => {
  const h = await harness(t);
  const dm = snowflake();
  const on = await h.fake.sendCommand({
    name: 'subscribe',
    channelId: dm,
    user: PERSON,
    options: OPEN,
    install: 'user',
  });
  await publicAnswer(on);
  assert.equal((await h.app.store.subscriptions.get(`discord:${dm}`))?.isGroup, false);
  assert.equal(h.fake.channelMessages(dm).length, 1, 'confirmed by a real DM');
  const [confirmation] = h.fake.channelMessages(dm);
  assert.deepEqual(
    [confirmation!.nonce, confirmation!.enforce_nonce],
    [on.id, true],
    'with the interaction’s enforced nonce: a resend is the same DM',
  );
});

test('a thread discord.js has not cached (archived before the bot connected) is the same destination (channel, thread)', async (t) => {
  const h = await harness(t);
  assert.equal(h.adapter.client.channels.cache.get(ASLEEP), undefined, 'not cached');
  await publicAnswer(await subscribe(h, ASLEEP));
  assert.equal((await h.app.store.subscriptions.get(`discord:${TEXT}:${ASLEEP}`))?.threadId, ASLEEP);
  assert.equal(await h.app.store.subscriptions.get(`discord:${ASLEEP}`), undefined, 'never a channel of its own');
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, [18]);
  await watcher.tick();
  await until(() => h.fake.channelMessages(ASLEEP).length === 1, 'the alert in the thread');
  assert.equal(h.fake.channel(ASLEEP)!.archived, false);
});

test('over HTTP interactions (nothing cached) /subscribe in a thread is still (channel, thread), and an announcement channel may publish', async (t) => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const hex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  const h = await harness(t, { adapter: { httpInteractions: { publicKey: hex, port: 0, host: '127.0.0.1' } } });
  h.fake.setInteractionsEndpoint(`http://127.0.0.1:${h.adapter.httpAddress()!.port}/interactions`, privateKey);
  await publicAnswer(await subscribe(h, THREAD));
  assert.equal((await h.app.store.subscriptions.get(`discord:${TEXT}:${THREAD}`))?.threadId, THREAD);
  assert.equal(await h.app.store.subscriptions.get(`discord:${THREAD}`), undefined);
  await publicAnswer(await subscribe(h, NEWS, [{ name: 'publish', type: 5, value: true }]));
  assert.equal((await h.app.store.subscriptions.get(`discord:${NEWS}`))?.posting?.publish, true);
});
