/**
 * A whole session of the real bot process with known secrets: commands on both
 * platforms, user mistakes, upstream faults, a refused destination, on a Redis
 * store reached with a user and password. No secret may appear in any log line,
 * any reply, or any error the platforms received.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/server.ts';
import { startDiscordFake } from '../fakes/discord/index.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { until } from '../helpers/wait.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const API_KEY = 'kolradar-secret-api-key-6f1d2c';
const TG_TOKEN = '7000000003:AASecretTelegramTokenValue_9x8y7z';
const STORE_USER = 'kolradar-store-user-4e1';
const STORE_PASSWORD = 'store-Pass:w0rd/with@signs';
const redis = redisAvailable();
if (!redis)
  process.stderr.write(`NOTICE: ${REDIS_SKIP}; the secrets session runs on memory:, without store credentials\n`);

test('a whole session leaks no secret into logs, replies or errors', { timeout: 120_000 }, async (t) => {
  const sb = await startSandbox({ apiKey: API_KEY });
  const discord = await startDiscordFake({
    token: 'Secret.Discord.Token-abcdef123456',
    guilds: [{ id: '900000000000000009', channels: [{ id: '800000000000000009' }] }],
  });
  const telegram = await startTelegramFake({ token: TG_TOKEN });
  t.after(async () => {
    await discord.close();
    await telegram.close();
    await sb.close();
  });
  const secrets = [API_KEY, discord.token, TG_TOKEN, TG_TOKEN.split(':')[1]!, encodeURIComponent(TG_TOKEN)];
  let storeUrl = 'memory:';
  if (redis) {
    const server = await startRedis(t, {
      args: ['--user', STORE_USER, 'on', `>${STORE_PASSWORD}`, '~*', '&*', '+@all', '--user', 'default', 'off'],
    });
    storeUrl = `redis://${STORE_USER}:${encodeURIComponent(STORE_PASSWORD)}@${new URL(server.url).host}`;
    secrets.push(STORE_USER, STORE_PASSWORD, encodeURIComponent(STORE_PASSWORD));
  }
  let logs = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      KOL_API_BASE_URL: sb.url,
      KOL_API_KEY: API_KEY,
      DISCORD_TOKEN: discord.token,
      DISCORD_APPLICATION_ID: discord.applicationId,
      DISCORD_API_BASE: discord.apiBase,
      TELEGRAM_BOT_TOKEN: TG_TOKEN,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      STORE_URL: storeUrl,
      LOG_LEVEL: 'trace',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (logs += d.toString()));
  child.stderr.on('data', (d: Buffer) => (logs += d.toString()));
  await until(() => logs.includes('"msg":"ready"'), 'the bot process to log ready');

  const token = sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  const user = { id: '700000000000000001', username: 'alice' };
  const slash = async (name: string, options: { name: string; type: number; value: string | number }[]) => {
    const h = await discord.sendCommand({
      name,
      options,
      channelId: '800000000000000009',
      guildId: '900000000000000009',
      user,
    });
    // Answered: a reply with content, or a private follow-up.
    await h.waitFor(
      (x) =>
        x.followups.length > 0 ||
        (x.original !== undefined && (x.original.flags & 128) === 0 && x.original.shown.some(Boolean)),
    );
    return h;
  };
  const chat = { id: 4242, type: 'private' as const };
  const say = async (text: string) => {
    // Answered: one more finished send to the chat (accepted or refused, as for a blocked chat).
    const answered = () =>
      telegram.requests.filter(
        (r) =>
          /^send/.test(r.method) && String(r.chat_id) === '4242' && (r.status !== 0 || r.description !== undefined),
      ).length;
    const before = answered();
    telegram.sendText({ chat, from: { id: 4242, first_name: 'Bob' }, text });
    await until(() => answered() > before, `an answer to ${text}`);
  };
  await slash('token', [
    { name: 'chain', type: 3, value: 'solana' },
    { name: 'address', type: 3, value: token.address },
  ]);
  await slash('token', [
    { name: 'chain', type: 3, value: 'solana' },
    { name: 'address', type: 3, value: 'not-an-address' },
  ]);
  await say(`/token solana ${token.address}`);
  await say('/kols sort:nonsense');
  sb.setFaults({ burst5xx: 20 });
  await slash('kols', []);
  await say('/kols');
  sb.clearFaults();
  telegram.failChat(4242, 'blocked');
  await say('/help');
  telegram.clearFailures();
  await say('/subscribe token_score:80');
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));

  const replies = JSON.stringify([
    discord.requests,
    discord.channelMessages('800000000000000009'),
    telegram.messages(4242),
  ]);
  assert.ok(telegram.messages(4242).length >= 3, 'the session produced Telegram replies');
  assert.ok(logs.split('\n').length > 10, 'the session produced log lines');
  for (const s of secrets) {
    assert.ok(!logs.includes(s), `a log line contains a secret (${s.slice(0, 6)}…)`);
    assert.ok(!replies.includes(s), `a reply or request record contains a secret (${s.slice(0, 6)}…)`);
  }
});
