/**
 * Digests end to end with an injected clock, the live sandbox, the real
 * discord.js and grammY against both platform fakes, on SQLite and Redis:
 * posted once per local day across a daylight-saving change and a restart;
 * a digest missed while the bot was down is posted once, late.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bothPlatforms } from '../helpers/platforms.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { REDIS_SKIP, redisAvailable, startRedis, type RedisServer } from '../helpers/redis.ts';
import type { Caller } from '../../src/core/command.ts';
import type { Call } from '../../src/store/calls.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';

const CHANNEL = '830000000000000171';
const CHAT = 7300001;

const admin = (platform: 'discord' | 'telegram', chatId: string): Caller => ({
  platform,
  userId: 'u1',
  chatId,
  chatType: 'group',
  canManage: async () => true,
});

function suite(kind: string, storeUrl: (t: TestContext) => Promise<string>, skip: string | false) {
  test(`${kind}: a daily digest posts once per Berlin day through the spring-forward change, once after a restart, and once late after downtime`, {
    skip,
    timeout: 120_000,
  }, async (t) => {
    const url = await storeUrl(t);
    let clock = Date.parse('2026-03-28T07:58:00Z'); // 08:58 in Berlin (UTC+1)
    const bot = await bothPlatforms(t, {
      channels: [CHANNEL],
      guildId: '930000000000000171',
      telegramToken: '7000000018:AAFakeTokenForTheDigestTest_0123456',
      storeUrl: url,
      now: () => clock,
    });
    const { discord, telegram } = bot;
    const start = async () => {
      const w = bot.app.startAlerts([bot.dc.sender, bot.tg.sender], { digestNow: () => clock, digestSchedule: false });
      await w.tick(); // takes the lease
      return bot.app.digests!;
    };
    await bot.app.store.subscriptions.put(openSubscription('discord', CHANNEL));
    await bot.app.store.subscriptions.put(openSubscription('telegram', String(CHAT)));
    let digests = await start();
    for (const [p, c] of [
      ['discord', CHANNEL],
      ['telegram', String(CHAT)],
    ] as const) {
      const r = await bot.app.dispatcher.text('/digest daily at:09:00 tz:Europe/Berlin', admin(p, c));
      assert.match(JSON.stringify(r), /09:00 \(Europe\/Berlin\)/);
    }
    const counts = () => [discord.channelMessages(CHANNEL).length, telegram.messages(CHAT).length];
    const waitFor = async (n: number) => {
      await until(() => counts().every((c) => c >= n), `digest ${n} in the channel and the chat`);
      assert.deepEqual(counts(), [n, n]);
    };

    assert.equal((await digests.check()).length, 0, 'set at 08:58: nothing owed yet');
    clock = Date.parse('2026-03-28T08:00:05Z'); // 09:00 in Berlin
    assert.equal((await digests.check()).length, 2);
    assert.equal((await digests.check()).length, 0, 'the same minute again: nothing');
    await waitFor(1);
    const tg = telegram.messages(CHAT)[0]!;
    assert.match(tg.text ?? '', /Daily digest/);
    assert.match(tg.text ?? '', /Most shilled tokens/);
    assert.match(tg.text ?? '', /Best win rates/);
    assert.match(tg.text ?? '', /Calls in this chat/);
    assert.doesNotMatch(tg.text ?? '', /Posted late/);

    // Sunday 29 March: clocks jump to summer time; 09:00 is now 07:00 UTC.
    clock = Date.parse('2026-03-29T06:59:00Z');
    assert.equal((await digests.check()).length, 0, '08:59 summer time');
    clock = Date.parse('2026-03-29T07:00:10Z');
    assert.equal((await digests.check()).length, 2, '09:00 summer time');
    await waitFor(2);

    // A restart on the same store: nothing is posted twice.
    await bot.app.stopAlerts();
    digests = await start();
    assert.equal((await digests.check()).length, 0);

    // Down from Monday morning until Wednesday noon: the 30th and 31st are missed; one late digest, once.
    await bot.app.stopAlerts();
    clock = Date.parse('2026-04-01T10:00:00Z');
    digests = await start();
    const late = await digests.check();
    assert.equal(late.length, 2);
    assert.equal((await digests.check()).length, 0);
    await waitFor(3);
    const lateText = telegram.messages(CHAT)[2]!.text ?? '';
    assert.match(lateText, /Posted late/);
    assert.match(lateText, /2026-04-01 09:00/);
    // The 30th and the 31st will not come: the late one says so.
    assert.match(lateText, /2 earlier digests were skipped while the bot was offline/);
    assert.match(JSON.stringify(discord.channelMessages(CHANNEL)[2]!.embeds), /Posted late/);
    // The barrier: an empty outbox. A digest is marked sent once the platform took it, so a second send comes before.
    await nothingMoreAfter(
      () => counts().reduce((a, b) => a + b, 0),
      () => until(async () => (await bot.app.store.outbox.pending()).length === 0, 'nothing left in the outbox'),
      'no digest twice',
    );
    assert.deepEqual(counts(), [3, 3], 'never twice');
    assert.equal(discord.violations.length + telegram.violations.length, 0);
  });

  test(`${kind}: /digest answers bad input with an example, members may not set it, /digest now posts one through the same path`, {
    skip,
    timeout: 60_000,
  }, async (t) => {
    const url = await storeUrl(t);
    const bot = await bothPlatforms(t, {
      channels: [CHANNEL],
      guildId: '930000000000000172',
      telegramToken: '7000000019:AAFakeTokenForTheDigestTest_0123456',
      storeUrl: url,
    });
    await bot.app.store.subscriptions.put(openSubscription('telegram', String(CHAT)));
    const w = bot.app.startAlerts([bot.dc.sender, bot.tg.sender], { digestSchedule: false });
    await w.tick();
    const say = async (text: string, canManage = true) =>
      JSON.stringify(
        await bot.app.dispatcher.text(text, { ...admin('telegram', String(CHAT)), canManage: async () => canManage }),
      );
    assert.match(await say('/digest daily tz:Mars/Olympus'), /Mars\/Olympus.*IANA.*Europe\/Berlin/);
    assert.match(await say('/digest daily at:25:00'), /25:00.*09:00/);
    assert.match(await say('/digest weekly day:someday'), /someday.*mon, tue/);
    assert.match(await say('/digest daily', false), /Only admins/);
    assert.match(
      await say('/digest weekly day:fri at:18:30 tz:America/New_York'),
      /Friday at 18:30 \(America\/New_York\)/,
    );
    assert.equal((await bot.app.store.subscriptions.get(`telegram:${CHAT}`))!.digest!.day, 5);
    // Two calls alerted here in the last week: one tripled at its peak, one halved.
    const now = Date.now();
    const call = (id: string, symbol: string, peak: number, last: number): Call => ({
      id,
      subId: `telegram:${CHAT}`,
      platform: 'telegram',
      chatId: String(CHAT),
      messageId: '1',
      token: { chain: 'solana', address: `${symbol}addr`, symbol, name: symbol },
      kols: ['alpha_kol'],
      tweetIds: ['1'],
      at: now - 3_600_000,
      marketCap: 1_000_000,
      liquidity: null,
      points: [],
      next: 0,
      samples: [{ at: now - 60_000, marketCap: last }],
      peak,
      content: {} as Call['content'],
    });
    await bot.app.store.calls.record(call('c1', 'PUMPA', 3_000_000, 2_000_000));
    await bot.app.store.calls.record(call('c2', 'RUGGB', 1_000_000, 500_000));
    assert.match(await say('/digest now'), /on its way/);
    await until(() => bot.telegram.messages(CHAT).length >= 1, 'the digest in the chat');
    assert.equal(bot.telegram.messages(CHAT).length, 1);
    const m = bot.telegram.messages(CHAT)[0]!;
    assert.match(m.text ?? '', /Weekly digest/);
    // Figures computed here from the two calls: 1 of 2 reached 2x, the best peaked at 3x.
    assert.match(m.text ?? '', /2 calls · hit rate 50(\.0)?% · best PUMPA 3\.00x/);
    assert.equal(m.isCaption, true, 'with one picture: the calls chart');
    assert.match(await say('/digest off'), /off/);
    assert.equal((await bot.app.store.subscriptions.get(`telegram:${CHAT}`))!.digest, null);
  });
}

let dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});
describe('digests on SQLite', () =>
  suite(
    'SQLite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'kolradar-digest-'));
      dirs.push(dir);
      return `sqlite:${join(dir, 'state.sqlite')}`;
    },
    false,
  ));

const available = redisAvailable();
if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);
describe('digests on Redis', () => {
  let server: RedisServer | undefined;
  let db = 0;
  before(async () => {
    if (available) server = await startRedis();
  });
  after(() => server?.stop());
  suite('Redis', async () => `${server!.url}/${++db}`, available ? false : REDIS_SKIP);
});
