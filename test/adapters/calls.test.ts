/**
 * Call tracking end to end through the real discord.js and grammY against the
 * platform fakes, on SQLite and Redis: each alert is followed up in place at
 * 1h, 6h and 24h with the market caps the sandbox served, and an alert a
 * member deleted stops its follow-ups without a word in the chat.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bothPlatforms } from '../helpers/platforms.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { until } from '../helpers/wait.ts';
import { usd } from '../../src/i18n/english.ts';

const HOUR = 3_600_000;
const available = redisAvailable();
if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);

const CHANNEL = '831000000000000001';
const DELETED_CHANNEL = '831000000000000002';
const CHAT = 7200001;
const DELETED_CHAT = 7200002;

for (const store of ['SQLite', 'Redis'] as const) {
  test(`${store}: alerts on both platforms are followed up in place with the sandbox's market caps; a deleted alert stops quietly`, {
    timeout: 120_000,
    skip: store === 'Redis' && !available ? REDIS_SKIP : false,
  }, async (t) => {
    let storeUrl: string;
    if (store === 'Redis') storeUrl = (await startRedis(t)).url;
    else {
      const dir = await mkdtemp(join(tmpdir(), 'kolradar-calls-e2e-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      storeUrl = `sqlite:${join(dir, 'state.sqlite')}`;
    }
    let clock = Date.now();
    const now = () => clock;
    const { discord, telegram, app, dc, tg } = await bothPlatforms(t, {
      channels: [CHANNEL, DELETED_CHANNEL],
      guildId: '931000000000000001',
      telegramToken: '7000000013:AAFakeTokenForTheCallsTest_01234567',
      storeUrl,
      marketClock: now,
    });
    for (const c of [CHANNEL, DELETED_CHANNEL]) await app.store.subscriptions.put(openSubscription('discord', c));
    for (const c of [CHAT, DELETED_CHAT]) await app.store.subscriptions.put(openSubscription('telegram', String(c)));
    const watcher = app.startAlerts([dc.sender, tg.sender], { followupNow: now });
    await watcher.tick();
    const sb = app.sandbox!;
    const tok = sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
    sb.addTweets(1, { token: tok.id, kol: sb.data.kols[0]!.id, tokenScore: 95, kolScore: 95 });
    await watcher.tick();
    const arrived = () =>
      [CHANNEL, DELETED_CHANNEL].every((c) => discord.channelMessages(c).length === 1) &&
      [CHAT, DELETED_CHAT].every((c) => telegram.messages(c).length === 1);
    await until(arrived, 'one alert in each chat');
    // Delivery records each call before marking its alert sent: once nothing is pending, all four are calls.
    await until(async () => (await app.store.outbox.pending()).length === 0, 'an empty outbox after the alerts');
    const atAlert = tok.marketcap;
    // Members delete the alert in one Discord channel and one Telegram group.
    discord.deleteMessage(discord.channelMessages(DELETED_CHANNEL)[0]!.id);
    telegram.deleteSent(DELETED_CHAT, telegram.messages(DELETED_CHAT)[0]!.message_id);

    const discordText = () => JSON.stringify(discord.channelMessages(CHANNEL)[0]!.embeds).replace(/\\\\/g, '');
    const telegramText = () => telegram.messages(CHAT)[0]!.text ?? '';
    const discordEdits = () =>
      discord.requests.filter(
        (r) => r.method === 'PATCH' && r.path.includes(`/channels/${CHANNEL}/messages/`) && r.status === 200,
      ).length;
    let peak = atAlert;
    for (const [i, [advance, label]] of (
      [
        [HOUR + 60_000, '1h'],
        [5 * HOUR, '6h'],
        [18 * HOUR, '1d'],
      ] as const
    ).entries()) {
      clock += advance;
      await watcher.tick();
      const served = tok.marketcap;
      peak = Math.max(peak, served);
      const line = `Since alert (${label})`;
      const shown = () => discordText().includes(line) && telegramText().includes(line);
      await until(shown, `${label}: the follow-up line on both platforms`);
      for (const text of [discordText(), telegramText()]) {
        assert.ok(
          text.includes(`${usd(atAlert)} → ${usd(served)}`),
          `${label}: the market caps the sandbox served, in ${text.slice(0, 300)}`,
        );
      }
      assert.equal(discordEdits(), i + 1, `${label}: one edit of the Discord alert`);
      assert.equal(telegram.messages(CHAT)[0]!.edits.length, i + 1, `${label}: one edit of the Telegram alert`);
    }
    assert.equal(discord.channelMessages(CHANNEL).length, 1, 'still one message');
    assert.equal(telegram.messages(CHAT).length, 1);
    // The deleted alerts: the first follow-up found them gone and ended; nothing was posted, the chats stay subscribed.
    assert.equal(
      discord.requests.filter((r) => r.method === 'PATCH' && r.path.includes(`/channels/${DELETED_CHANNEL}/`)).length,
      1,
      'one attempt, then no more',
    );
    const tgTries = telegram.requests.filter(
      (r) => r.method === 'editMessageText' && String(r.chat_id) === String(DELETED_CHAT),
    );
    assert.deepEqual(
      tgTries.map((r) => [r.status, r.description]),
      [[400, 'Bad Request: message to edit not found']],
      'Telegram: one attempt, then no more',
    );
    assert.equal(discord.channelMessages(DELETED_CHANNEL).length, 1, 'nothing new posted');
    assert.equal(telegram.messages(DELETED_CHAT).length, 1);
    assert.equal((await app.store.subscriptions.get(`discord:${DELETED_CHANNEL}`))!.disabled, null);
    assert.equal((await app.store.subscriptions.get(`telegram:${DELETED_CHAT}`))!.disabled, null);
    const [ended] = await app.store.calls.list(`telegram:${DELETED_CHAT}`, 0);
    assert.match(ended!.ended ?? '', /not found/);
    assert.equal(discord.violations.length + telegram.violations.length, 0);
  });
}

test('1,000 Telegram chats and a Discord channel on one token: one upstream request per round, every alert edited once', {
  timeout: 180_000,
}, async (t) => {
  let clock = Date.now();
  const now = () => clock;
  const { discord, telegram, app, dc, tg } = await bothPlatforms(t, {
    channels: [CHANNEL],
    guildId: '931000000000000002',
    telegramToken: '7000000015:AAFakeTokenForTheCallsFanout_0123456',
    marketClock: now,
    // Telegram's clock 20x faster (its 30/s becomes 600/s), the adapter's pacer told the same.
    timeScale: 0.05,
  });
  const chats = Array.from({ length: 1000 }, (_, i) => 7_400_000 + i);
  await app.store.subscriptions.put(openSubscription('discord', CHANNEL, { followups: [60] }));
  for (const c of chats)
    await app.store.subscriptions.put(openSubscription('telegram', String(c), { followups: [60] }));
  const watcher = app.startAlerts([dc.sender, tg.sender], { followupNow: now });
  await watcher.tick();
  const sb = app.sandbox!;
  const tok = sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
  sb.addTweets(1, { token: tok.id, kol: sb.data.kols[0]!.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  const sent = () =>
    chats.filter((c) => telegram.messages(c).length === 1).length + discord.channelMessages(CHANNEL).length;
  // 1,001 sends paced at the platforms' limits: a longer safety net than the default.
  await until(
    async () => sent() >= 1001 && (await app.store.outbox.pending()).length === 0,
    'every alert sent and an empty outbox',
    60_000,
  );
  assert.equal(sent(), 1001, 'every alert arrived');
  clock += HOUR + 60_000;
  const before = sb.count('2');
  await watcher.tick();
  assert.equal(sb.count('2') - before, 1, 'one op-2 request for 1,001 follow-ups');
  const edited = () =>
    chats.filter((c) => telegram.messages(c)[0]!.edits.length === 1).length +
    (JSON.stringify(discord.channelMessages(CHANNEL)[0]!.embeds).includes('Since alert (1h)') ? 1 : 0);
  await until(() => edited() >= 1001, 'each alert edited', 60_000);
  assert.equal(edited(), 1001, 'each alert edited once');
  assert.ok(chats.every((c) => telegram.messages(c)[0]!.edits.length === 1 && telegram.messages(c).length === 1));
  assert.equal(discord.violations.length + telegram.violations.length, 0, 'edits paced within the limits');
});

test('Redis, two bot instances with the real adapters: a leader change gives no double edit', {
  timeout: 120_000,
  skip: available ? false : REDIS_SKIP,
}, async (t) => {
  const { createApp } = await import('../../src/app.ts');
  const { loadConfig } = await import('../../src/config.ts');
  const { silentLogger } = await import('../../src/log.ts');
  const { createDiscordAdapter } = await import('../../src/adapters/discord/index.ts');
  const { createTelegramAdapter } = await import('../../src/adapters/telegram/index.ts');
  const { startSandbox } = await import('../../src/sandbox/server.ts');
  const { startDiscordFake } = await import('../fakes/discord/index.ts');
  const { startTelegramFake } = await import('../fakes/telegram/index.ts');
  const redis = await startRedis(t);
  let clock = Date.now();
  const now = () => clock;
  const sb = await startSandbox({ market: { clock: now } });
  const discord = await startDiscordFake({ guilds: [{ id: '931000000000000003', channels: [{ id: CHANNEL }] }] });
  const telegram = await startTelegramFake({
    token: '7000000016:AAFakeTokenForTheCallsLeader_012345',
    knownChatsOnly: false,
  });
  const log = silentLogger();
  const instance = async () => {
    const app = await createApp(
      loadConfig({ STORE_URL: redis.url, WATCH_CRON: '0 0 1 1 *', KOL_API_BASE_URL: sb.url, KOL_API_KEY: sb.apiKey }),
      log,
    );
    const dc = createDiscordAdapter({
      token: discord.token,
      applicationId: discord.applicationId,
      apiBase: discord.apiBase,
      dispatcher: app.dispatcher,
      api: app.api,
      log,
      subscriptions: app.store.subscriptions,
    });
    const tg = createTelegramAdapter({
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      dispatcher: app.dispatcher,
      store: app.store,
      log,
    });
    await dc.start();
    await tg.start();
    const watcher = app.startAlerts([dc.sender, tg.sender], { followupNow: now });
    let closed: Promise<void> | undefined;
    const close = () =>
      (closed ??= (async () => {
        await app.stopAlerts();
        await dc.stop();
        await tg.stop();
        await app.close();
      })());
    return { app, watcher, close };
  };
  const a = await instance();
  const b = await instance();
  t.after(async () => {
    await a.close();
    await b.close();
    await discord.close();
    await telegram.close();
    await sb.close();
  });
  await a.app.store.subscriptions.put(openSubscription('discord', CHANNEL));
  await a.app.store.subscriptions.put(openSubscription('telegram', String(CHAT)));
  const both = async () => {
    await a.watcher.tick().catch(() => undefined);
    await b.watcher.tick();
  };
  await both();
  const tok = sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
  sb.addTweets(1, { token: tok.id, kol: sb.data.kols[0]!.id, tokenScore: 95, kolScore: 95 });
  await both();
  await until(
    () => discord.channelMessages(CHANNEL).length === 1 && telegram.messages(CHAT).length === 1,
    'the alert on both platforms',
  );
  await until(async () => (await a.app.store.outbox.pending()).length === 0, 'an empty outbox after the alerts');
  const discordEdits = () =>
    discord.requests.filter(
      (r) => r.method === 'PATCH' && r.path.includes(`/channels/${CHANNEL}/messages/`) && r.status === 200,
    ).length;
  const telegramEdits = () => telegram.messages(CHAT)[0]!.edits.length;
  // The outbox lives in the shared Redis: any running instance can say whether it is empty.
  const wait = async (n: number, live = b) => {
    await until(() => discordEdits() >= n && telegramEdits() >= n, `edit ${n} on both platforms`);
    await until(async () => (await live.app.store.outbox.pending()).length === 0, `an empty outbox after edit ${n}`);
  };
  clock += HOUR + 60_000;
  await both();
  await wait(1);
  assert.deepEqual([discordEdits(), telegramEdits()], [1, 1], '1h: one edit on each platform');
  // The leader goes away mid-life; the other instance takes over the follow-ups.
  const leader = a.app.leaseStatus() === 'leader' ? a : b;
  const other = leader === a ? b : a;
  await leader.close();
  clock += 5 * HOUR;
  await other.watcher.tick();
  await wait(2, other);
  clock += 18 * HOUR;
  await other.watcher.tick();
  await other.watcher.tick();
  await wait(3, other);
  assert.deepEqual([discordEdits(), telegramEdits()], [3, 3], 'three points, three edits per alert, none twice');
  assert.match(telegram.messages(CHAT)[0]!.text ?? '', /Since alert \(1d\)/);
  assert.equal(discord.channelMessages(CHANNEL).length + telegram.messages(CHAT).length, 2, 'still one message each');
});
