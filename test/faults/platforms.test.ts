/**
 * The platform fault matrix during a fan-out, with the real discord.js and
 * grammY against the fakes: 429 storms, 5xx, 403 on a fifth of destinations,
 * a dropped gateway connection. Every healthy destination gets every alert
 * exactly once, every dead one is disabled after one try, and nothing is sent
 * inside a 429 window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bothPlatforms } from '../helpers/platforms.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { until } from '../helpers/wait.ts';

const SCALE = 0.1;
const ALERTS = 3;

test('fan-out under 429 storms, 5xx, 403 on a fifth of destinations and a gateway drop', {
  timeout: 120_000,
}, async (t) => {
  const channels = Array.from({ length: 10 }, (_, i) => `81000000000000${String(i).padStart(4, '0')}`);
  const chats = Array.from({ length: 10 }, (_, i) => 6_000_000 + i);
  const { discord, telegram, app, dc, tg } = await bothPlatforms(t, {
    channels,
    guildId: '910000000000000001',
    telegramToken: '7000000004:AAFakeTokenForThePlatformFaults_012',
    timeScale: SCALE,
  });
  // Server channels (not DMs, whose Missing Access is retried for a day before it ends them).
  for (const c of channels) await app.store.subscriptions.put({ ...openSubscription('discord', c), isGroup: true });
  for (const c of chats) await app.store.subscriptions.put(openSubscription('telegram', String(c)));
  const watcher = app.startAlerts([dc.sender, tg.sender]);
  await watcher.tick(); // the mark: the head of the feed

  // A fifth of each platform's destinations are gone; one channel has a passing 5xx.
  discord.failChannel(channels[0]!, { status: 403, code: 50001 });
  discord.failChannel(channels[1]!, { status: 403, code: 50013 });
  discord.failChannel(channels[2]!, { status: 502, times: 2 });
  telegram.failChat(chats[0]!, 'blocked');
  telegram.failChat(chats[1]!, 'kicked');
  // 429 storms on both platforms while the fan-out runs.
  // (Per channel, as Discord's buckets are: a 429 for one channel says nothing about another.)
  for (const c of channels.slice(3, 6)) discord.force429(`/channels/${c}/messages`, { count: 2, retryAfterMs: 300 });
  for (const c of chats.slice(3, 6)) telegram.force429({ count: 2, retryAfter: 1, chatId: c });

  const sb = app.sandbox!;
  const tokens = sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol)).slice(0, ALERTS);
  for (const tok of tokens) sb.addTweets(1, { token: tok.id, kol: sb.data.kols[1]!.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  discord.dropConnection(); // the gateway drops mid fan-out; REST sends go on, the client resumes

  const healthyDc = channels.slice(2);
  const healthyTg = chats.slice(2);
  const done = () =>
    healthyDc.every((c) => discord.channelMessages(c).length >= ALERTS) &&
    healthyTg.every((c) => telegram.messages(c).length >= ALERTS);
  // Storms and retry_after windows to sit out: the old loop's longer safety net.
  await until(done, 'every alert at every healthy destination', 60_000);

  for (const c of healthyDc) assert.equal(discord.channelMessages(c).length, ALERTS, `Discord ${c}: each alert once`);
  for (const c of healthyTg) assert.equal(telegram.messages(c).length, ALERTS, `Telegram ${c}: each alert once`);
  for (const id of [
    `discord:${channels[0]}`,
    `discord:${channels[1]}`,
    `telegram:${chats[0]}`,
    `telegram:${chats[1]}`,
  ]) {
    const s = await app.store.subscriptions.get(id);
    assert.ok(s?.disabled, `${id} disabled`);
  }
  // Attempts that reached the channel (a 429 answer is the storm, not the channel).
  const tries = (path: string) =>
    discord.requests.filter((r) => r.method === 'POST' && r.path.includes(path) && r.status !== 429).length;
  assert.equal(tries(channels[0]!), 1, 'a dead channel is tried once');
  assert.match(
    (await app.store.subscriptions.get(`discord:${channels[1]}`))!.disabled!.reason,
    /permission/i,
    'the reason names the missing permission',
  );
  assert.equal(discord.violations.length, 0, 'no Discord request inside a 429 window');
  assert.equal(telegram.violations.length, 0, 'no Telegram send inside a 429 window');
  assert.ok(
    discord.requests.some((r) => r.status === 429) && telegram.requests.some((r) => r.status === 429),
    'the storms happened',
  );
  // The gateway came back: the bot still answers a slash command.
  const h = await discord.sendCommand({ name: 'help', channelId: channels[5]!, guildId: '910000000000000001' });
  await h.waitFor('original');
});
