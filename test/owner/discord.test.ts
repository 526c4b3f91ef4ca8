// The owner's console through the real discord.js client and the Discord fake: never registered,
// typed in the owner's DM; a server ban silences its members' commands, pastes and buttons and
// stops its alerts; the per-server quota; a notice to 1,000 channels, each once, within the limits.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { toDiscordCommands } from '../../src/adapters/discord/commands.ts';
import { createLogger } from '../../src/log.ts';
import { snowflake } from '../fakes/discord/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
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
} from '../adapters/discord/harness.ts';

const OWNER = { id: '80351110224678912', username: 'owner' };
const STRANGER = { id: '80351110224678913', username: 'stranger' };
const OPEN = [
  { name: 'token_score', type: 10, value: 0 },
  { name: 'kol_score', type: 10, value: 0 },
  { name: 'followers', type: 4, value: 0 },
  { name: 'cooldown', type: 4, value: 0 },
];

async function harness(t: TestContext, o: Parameters<typeof startHarness>[0] = {}) {
  const logs: string[] = [];
  const log = createLogger({ level: 'info', secrets: [], destination: { write: (l: string) => logs.push(l) } });
  const h = await startHarness({ ...o, adapter: { log, ...o.adapter } });
  t.after(() => h.close());
  return { h, logs };
}

/** The owner (or anyone) writes in their DM with the bot; resolves with the bot's next reply there. */
async function dm(h: Harness, user: { id: string; username: string }, dmId: string, content: string) {
  const before = h.fake.channelMessages(dmId).length;
  h.fake.postMessage({ channelId: dmId, content, author: user });
  return until(() => h.fake.channelMessages(dmId)[before], `a reply in DM ${dmId}`);
}

const text = (m: { content?: string; embeds: unknown[] }) =>
  shown(
    [m.content ?? '', ...m.embeds.map((e) => JSON.stringify(e))].join('\n').replace(/\\n/g, '\n').replace(/\\"/g, '"'),
  );

test('Discord: /owner is never registered; only the owner’s DM answers it; a server ban silences commands, pastes and buttons and stops alerts; the per-server quota refuses the next channel', async (t) => {
  const { h, logs } = await harness(t, {
    env: { OWNER_IDS: `discord:${OWNER.id}`, OWNER_MAX_SUBSCRIPTIONS_PER_SERVER: '1' },
  });
  const [a, b] = h.channels as [string, string];
  // What `npm run deploy-commands` registers: the registry's commands, never the console.
  const names = toDiscordCommands(h.app.dispatcher.commands).map((c) => c.name);
  assert.ok(names.includes('subscribe') && !names.includes('owner'), names.join(', '));

  // A stranger's /owner in their DM gets nothing; the owner's, in theirs, the console (in order: the stranger's came first).
  const strangerDm = snowflake();
  const ownerDm = snowflake();
  h.fake.postMessage({ channelId: strangerDm, content: '/owner stats', author: STRANGER });
  const sub = await h.fake.sendCommand({
    name: 'subscribe',
    channelId: a,
    user: MANAGER,
    memberPermissions: MANAGER_PERMISSIONS,
    options: OPEN,
  });
  assert.equal(shown(embedOf(await publicAnswer(sub)).title!), 'Alerts on');
  const stats = text(await dm(h, OWNER, ownerDm, '/owner stats'));
  assert.match(stats, /Every community the bot serves/);
  assert.match(stats, /Discord servers: 1/);
  assert.match(stats, /Discord channel: 1/);
  assert.deepEqual(h.fake.channelMessages(strangerDm), [], 'the stranger got nothing');
  // The owner in a server channel: nothing either (the console is the DM's).
  h.fake.postMessage({ channelId: b, content: '/owner stats', author: OWNER, mentionsBot: true });

  // The quota: one subscription per server; the second channel is refused, with the limit named.
  const second = await h.fake.sendCommand({
    name: 'subscribe',
    channelId: b,
    user: MANAGER,
    memberPermissions: MANAGER_PERMISSIONS,
    options: OPEN,
  });
  assert.match(text(await privateAnswer(second)), /limit .* per server \(1\)/);
  assert.equal(await h.app.store.subscriptions.get(`discord:${b}`), undefined);
  assert.equal(h.fake.channelMessages(b).length, 0, 'nothing posted in the channel for the owner’s line there');

  // Another server's channel, subscribed: it keeps its alerts through the ban below.
  const elsewhere = snowflake();
  h.fake.addGuild({ id: snowflake(), name: 'Other', channels: [{ id: elsewhere, name: 'calls' }] });
  await h.app.store.subscriptions.put(openSubscription('discord', elsewhere));

  // A message with buttons, posted before the ban.
  const page = await publicAnswer(await h.fake.sendCommand({ name: 'kols', channelId: a, user: MANAGER }));
  const customId = String(
    (page.components as { components: { custom_id?: string }[] }[])
      .flatMap((r) => r.components)
      .find((c) => c.custom_id)!.custom_id,
  );
  const banned = text(await dm(h, OWNER, ownerDm, `/owner ban discord:${h.guildId} raids`));
  assert.match(banned, new RegExp(`Banned discord:${h.guildId}.*stopped: 1`));
  const ignored = () => logs.filter((l) => l.includes('ignored: banned by an owner')).length;
  const kols = await h.fake.sendCommand({ name: 'kols', channelId: b, user: MANAGER });
  await until(() => ignored() >= 1, 'the command ignored');
  h.fake.postMessage({
    channelId: b,
    content: h.app.sandbox!.data.tokens[0]!.address,
    author: MANAGER,
    mentionsBot: true,
  });
  await until(() => ignored() >= 2, 'the paste ignored');
  const press = await h.fake.clickButton({ message: page, customId, user: MANAGER });
  await until(() => ignored() >= 3, 'the button ignored');
  assert.deepEqual(kols.callbacks, [], 'the command is not answered');
  assert.deepEqual(press.callbacks, [], 'the button is not answered');
  assert.equal(h.fake.channelMessages(b).length, 0, 'no card for the paste');

  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  const sb = h.app.sandbox!;
  sb.addTweets(1, { token: sb.data.tokens[12]!.id, kol: sb.data.kols[2]!.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await until(async () => (await h.app.store.outbox.pending()).length === 0, 'the outbox to empty');
  assert.equal(h.fake.channelMessages(elsewhere).length, 1, 'the other server got its alert');
  assert.equal(h.fake.channelMessages(a).length, 0, 'the banned server got none');
  assert.deepEqual(h.fake.violations, []);
});

test('Discord: a notice reaches 1,000 channels once each, within the fake’s limits (scaled), with progress', async (t) => {
  const { h } = await harness(t, {
    channelCount: 1000,
    env: { OWNER_IDS: `discord:${OWNER.id}` },
    fake: { globalPerSecond: 2000 },
    adapter: { rest: { globalRequestsPerSecond: 2000, alertsPerSecond: 1900 } },
  });
  await Promise.all(
    h.channels.map((c) => h.app.store.subscriptions.put({ ...openSubscription('discord', c), serverId: h.guildId })),
  );
  const ownerDm = snowflake();
  const dry = text(await dm(h, OWNER, ownerDm, '/owner notice discord Upgrade tonight, @everyone stays unpinged'));
  assert.match(dry, /destinations this notice would reach: 1,000 \(Discord: 1,000, Telegram: 0\)/);
  const id = /\/owner send ([0-9a-f]{8})/.exec(dry)![1]!;
  h.app.startAlerts([h.adapter.sender]);
  assert.match(text(await dm(h, OWNER, ownerDm, `/owner send ${id}`)), /is on its way \(destinations: 1,000\)/);
  await until(async () => (await h.app.store.outbox.pending()).length === 0, 'the notice to go out', 120_000);
  for (const c of h.channels) {
    const got = h.fake.channelMessages(c);
    assert.equal(got.length, 1, `channel ${c}: the notice once`);
    assert.match(got[0]!.content ?? '', /Upgrade tonight/);
  }
  assert.deepEqual(h.fake.violations, [], 'no request inside a rate-limit window');
  assert.match(text(await dm(h, OWNER, ownerDm, `/owner progress ${id}`)), /finished: delivered 1,000 of 1,000/);
});
