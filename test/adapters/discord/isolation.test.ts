// One destination never holds up the others, end to end through discord.js against the fake: an
// announcement channel whose crosspost Discord refuses for the rest of the hour, and a channel whose
// sends hang for ten minutes, and a restart inside the hour. Every other channel gets each alert, and
// nothing is lost: an alert left unpublished is named in the hour's summary.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { REST, Routes } from 'discord.js';
import { rejectLongWaits } from '../../../src/adapters/discord/deadline.ts';
import { Publisher } from '../../../src/adapters/discord/publish.ts';
import { silentLogger } from '../../../src/log.ts';
import { openStore } from '../../../src/store/index.ts';
import { publishLedger } from '../../../src/store/publishes.ts';
import { snowflake, startDiscordFake, type FakeGuildConfig } from '../../fakes/discord/index.ts';
import { MANAGER, MANAGER_PERMISSIONS, publicAnswer, startHarness, until, type Harness } from './harness.ts';

const GUILD = snowflake();
const TEXT = snowflake();
const NEWS = snowflake();
const SLOW = snowflake();

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
    { id: SLOW, name: 'slow' },
    { id: NEWS, name: 'news', type: 5 },
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

async function subscribe(h: Harness, channelId: string, publish = false): Promise<void> {
  await publicAnswer(
    await h.fake.sendCommand({
      name: 'subscribe',
      channelId,
      user: MANAGER,
      memberPermissions: MANAGER_PERMISSIONS,
      options: [...OPEN, ...(publish ? [{ name: 'publish', type: 5, value: true }] : [])],
    }),
  );
}

/** One tweet on token `i`, by one KOL, scored to pass; returns the token's name. */
function shill(h: Harness, i: number): string {
  const sb = h.app.sandbox!;
  sb.addTweets(1, { token: sb.data.tokens[i]!.id, kol: sb.data.kols[2]!.id, tokenScore: 90, kolScore: 90 });
  return sb.data.tokens[i]!.name;
}

const alertsIn = (h: Harness, channelId: string) => h.fake.channelMessages(channelId).filter((m) => m.embeds.length);

test('a crosspost refused for the rest of the hour holds up nothing: the next alerts reach every channel, and the refused one is in the hour’s summary', async (t) => {
  let now = Date.parse('2026-11-20T12:00:00Z');
  const timers: { at: number; run: () => void }[] = [];
  const h = await harness(t, {
    fake: { clock: () => now },
    adapter: {
      publisher: { now: () => now, schedule: (run, ms) => timers.push({ at: now + ms, run }) },
      // A deadline past the hour: only refusing the 429 at once keeps the send from waiting it out.
      rest: { sendDeadlineMs: 7_200_000 },
    },
  });
  await subscribe(h, NEWS, true);
  await subscribe(h, TEXT);
  // The channel's 10 publishes of this hour were used before this instance started (another
  // instance, a moderator's own): the bot's count is wrong and its next crosspost meets the 429.
  const before = new REST({ api: h.fake.apiBase }).setToken(h.fake.token);
  for (let i = 0; i < 10; i++) {
    const m = (await before.post(Routes.channelMessages(NEWS), { body: { content: `earlier ${i}` } })) as {
      id: string;
    };
    await before.post(Routes.channelMessageCrosspost(NEWS, m.id));
  }
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  const refused = shill(h, 40);
  await watcher.tick();
  await until(() => h.fake.crosspost429s === 1, 'the crosspost refused for the hour');
  await until(() => alertsIn(h, TEXT).length === 1, 'the first alert in the other channel');
  const next = shill(h, 41);
  await watcher.tick();
  await until(() => alertsIn(h, TEXT).length === 2, 'the next alert in the other channel');
  await until(() => alertsIn(h, NEWS).length === 2, 'the next alert in the announcement channel');
  // Sent means posted and, for an announcement channel, published or kept for the summary.
  await until(
    async () => (await h.app.store.outbox.pending()).every((e) => e.state !== 'pending' && e.state !== 'inflight'),
    'both alerts sent',
  );
  assert.equal(h.fake.crosspost429s, 1, 'the hour’s 429 met once, never retried into');
  assert.deepEqual(
    alertsIn(h, NEWS).map((m) => m.crossposted),
    [false, false],
  );
  // The hour ends: one summary names both alerts left unpublished.
  assert.equal(timers.length, 1, 'one summary waits for the hour');
  now += 3_600_000;
  timers[0]!.run();
  const summary = await until(
    () => h.fake.channelMessages(NEWS).find((m) => /more alerts this hour/.test(m.content)),
    'the summary',
  );
  assert.match(summary.content, /^2 more alerts this hour were posted here but not published/);
  assert.ok(summary.content.includes(refused), `the refused alert (${refused}) is named: ${summary.content}`);
  assert.ok(summary.content.includes(next), `and the one after it (${next})`);
});

test('a channel whose sends hang for ten minutes holds up nothing: the next alerts reach the other channel meanwhile, and the held ones arrive once it answers', async (t) => {
  // A deadline longer than the hold: only the other channel's independence lets its alerts through.
  const h = await harness(t, { adapter: { rest: { sendDeadlineMs: 3_600_000 } } });
  await subscribe(h, TEXT);
  await subscribe(h, SLOW);
  const release = h.fake.holdChannel(SLOW, 600_000);
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, 40);
  await watcher.tick();
  await until(() => alertsIn(h, TEXT).length === 1, 'the first alert in the other channel');
  await until(() => h.fake.heldRequests(SLOW) === 1, 'the slow channel’s send held');
  shill(h, 41);
  await watcher.tick();
  await until(() => alertsIn(h, TEXT).length === 2, 'the next alert in the other channel');
  shill(h, 42);
  await watcher.tick();
  await until(() => alertsIn(h, TEXT).length === 3, 'and the one after it');
  assert.equal(h.fake.heldRequests(SLOW), 1, 'all the while, the slow channel’s first send still hangs');
  assert.equal(alertsIn(h, SLOW).length, 0);
  release();
  await until(() => alertsIn(h, SLOW).length === 3, 'the slow channel’s three alerts, once it answers');
});

test('a send that outlives its deadline gives up, and its alert stays queued to be sent again', async (t) => {
  const h = await harness(t, { adapter: { rest: { sendDeadlineMs: 500 } } });
  await subscribe(h, SLOW);
  h.fake.holdChannel(SLOW, 600_000);
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  shill(h, 40);
  await watcher.tick();
  const entry = await until(
    async () =>
      (await h.app.store.outbox.pending()).find((e) => e.chatId === SLOW && e.attempts === 1 && e.state === 'pending'),
    'the held send given up and its alert queued again',
  );
  assert.ok(entry.notBefore > Date.now(), 'sent again later');
  await until(() => h.fake.heldRequests(SLOW) === 0, 'the request abandoned at the fake');
  assert.ok(
    h.fake.requests.some((r) => r.path === `/channels/${SLOW}/messages` && r.status === 499),
    'never handled: the client gave up on it',
  );
});

test('a restart inside the hour goes on from the stored count: its next alert meets no 429, and the summary names what both lives left unpublished', async (t) => {
  let now = Date.parse('2026-11-20T12:00:00Z');
  const fake = await startDiscordFake({
    clock: () => now,
    channelBucket: { limit: 50, windowMs: 1000 },
    guilds: [guild()],
  });
  t.after(() => fake.close());
  const store = await openStore('memory:');
  t.after(() => store.close());
  /** One life of the bot: its own discord.js client and publisher, on the one store. */
  const life = () => {
    const timers: (() => void)[] = [];
    const rest = new REST({ api: fake.apiBase, rejectOnRateLimit: rejectLongWaits() }).setToken(fake.token);
    const publisher = new Publisher(rest, silentLogger(), {
      now: () => now,
      schedule: (run) => timers.push(run),
      ledger: publishLedger(store.watch),
    });
    const alert = async (title: string) => {
      const m = (await rest.post(Routes.channelMessages(NEWS), { body: { content: title } })) as { id: string };
      await publisher.published(NEWS, m.id, title);
    };
    return { publisher, timers, alert };
  };
  const first = life();
  for (let i = 0; i < 12; i++) await first.alert(`$T${i} Token ${i}`);
  assert.equal(fake.channelMessages(NEWS).filter((m) => m.crossposted).length, 10, 'the hour’s 10 published');
  // Killed 20 minutes on, its summary timer with it; the next life starts.
  now += 20 * 60_000;
  const second = life();
  second.publisher.resume();
  await second.alert('$T12 Token 12');
  assert.equal(fake.crosspost429s, 0, 'the new life knew the hour was used: no crosspost into the 429');
  now += 40 * 60_000;
  const summary = await until(() => {
    for (const run of second.timers.splice(0)) run();
    return fake.channelMessages(NEWS).find((m) => /more alerts this hour/.test(m.content));
  }, 'the summary once the hour ends');
  assert.match(summary.content, /^3 more alerts this hour/);
  for (const title of ['$T10 Token 10', '$T11 Token 11', '$T12 Token 12'])
    assert.ok(summary.content.includes(title), `${title} named: ${summary.content}`);
  await until(() => fake.message(summary.id)?.crossposted, 'the summary published');
  assert.equal(fake.crosspost429s, 0);
});
