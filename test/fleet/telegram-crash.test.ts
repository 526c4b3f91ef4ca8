/**
 * Real bot processes on one redis-server, killed while commands are in
 * flight. The upstream hangs the /kols table so the commands are held exactly
 * when the kill comes (counted at the sandbox, no timing); it answers again
 * once the holder is dead. Each command must then be answered by another
 * instance, once: a second answer to the same update would show in the chat
 * before the barrier (a later /start in the same chat).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Sandbox } from '../../src/sandbox/server.ts';
import type { TelegramFake } from '../fakes/telegram/index.ts';
import { greetingBarrier, startBot, telegramFleet, webhookEnv, type BotProcess } from '../helpers/fleet.ts';
import { freePort, REDIS_SKIP, redisAvailable } from '../helpers/redis.ts';
import { until } from '../helpers/wait.ts';

const TOKEN = '7000000015:AAFleetTokenForTheCrashTakeoverTests';
const skip = redisAvailable() ? false : REDIS_SKIP;

/** Requests for the /kols table the sandbox holds open now. */
const hanging = (sb: Sandbox) => sb.requests.filter((r) => r.operation === 'kolTable' && r.finished === 0).length;

/**
 * The chat's answers, after a barrier: /start sent after them is answered, so any repeat would show
 * before its greeting (waited for by its text: a repeat arriving first does not pass for it).
 */
async function answersAfterBarrier(fake: TelegramFake, chat: number, send?: (chat: number) => unknown) {
  await greetingBarrier(fake, [chat], send);
  return fake.messages(chat).map((m) => m.text ?? '');
}

test('SIGKILL of the Telegram poller with three slow commands in flight: each answered once after the takeover', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const { sb, fake, env } = await telegramFleet(t, TOKEN);
  const bots = await Promise.all(['a', 'b', 'c'].map((n) => startBot(t, n, env)));
  await Promise.all(bots.map((b) => b.ready()));
  const role = async (b: BotProcess) =>
    b.exited ? 'gone' : ((await b.readyz()).roles?.['telegram'] as { poller?: string } | undefined)?.poller;
  await until(async () => (await Promise.all(bots.map(role))).includes('poller'), 'one poller');
  const poller = bots[(await Promise.all(bots.map(role))).indexOf('poller')]!;

  sb.setFaults({ hangRate: 1, operations: ['kolTable'] });
  const chats = [3001, 3002, 3003];
  const say = (chat: number, text: string) =>
    fake.sendText({ chat: { id: chat, type: 'private' }, from: { id: chat, first_name: 'K' }, text });
  // Three different tables: the same one asked three times would be one upstream call.
  for (const [i, c] of chats.entries()) say(c, ['/kols', '/kols sort:winrate', '/kols sort:followers'][i]!);
  await until(() => hanging(sb) === 3, 'three commands in flight');
  assert.equal(await poller.kill('SIGKILL'), null, 'killed, not exited');
  sb.clearFaults();

  // A takeover waits out the dead poller's lease: a longer safety net than the default.
  await until(() => chats.every((c) => fake.messages(c).length >= 1), 'every command answered', 60_000);
  for (const c of chats) {
    const texts = await answersAfterBarrier(fake, c, () => say(c, '/start'));
    assert.equal(texts.length, 2, `chat ${c}: the command answered once, then the barrier: ${texts.length} answers`);
    assert.doesNotMatch(texts[0]!, /slow|try again|went wrong/i, `chat ${c}: a real answer`);
  }
  const takeovers = bots
    .filter((b) => b !== poller)
    .map((b) => b.logs())
    .join('')
    .match(/taking over an update/g);
  assert.ok(takeovers && takeovers.length >= 1, 'the survivors said they took over');
});

test('Telegram webhook: a retry after the instance died mid-answer is answered, once', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const { sb, fake, env } = await telegramFleet(t, TOKEN);
  const secret = 'crash_hook_secret';
  const ports = [await freePort(), await freePort()];
  const [a, b] = await Promise.all(
    ports.map((port, i) => startBot(t, `w${i}`, { ...env, ...webhookEnv(port, secret) })),
  );
  await Promise.all([a!.ready(), b!.ready()]);
  const chat = 4242;
  let nextId = 900;
  const update = (text: string) => ({
    update_id: nextId++,
    message: {
      message_id: nextId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chat, type: 'private', first_name: 'W' },
      from: { id: chat, is_bot: false, first_name: 'W' },
      text,
      entities: [{ type: 'bot_command', offset: 0, length: text.length }],
    },
  });
  const deliver = (port: number, body: unknown) =>
    fetch(`http://127.0.0.1:${port}/tg/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify(body),
    }).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status;
      },
      () => 'failed' as const,
    );

  sb.setFaults({ hangRate: 1, operations: ['kolTable'] });
  const slow = update('/kols');
  const first = deliver(ports[0]!, slow);
  await until(() => hanging(sb) === 1, 'the command in flight');
  await a!.kill('SIGKILL');
  assert.equal(await first, 'failed', 'Telegram saw the delivery fail, so it retries');
  sb.clearFaults();
  assert.equal(await deliver(ports[1]!, slow), 200, 'the retry is accepted');
  await until(() => fake.messages(chat).length >= 1, 'the answer', 60_000);
  const texts = await answersAfterBarrier(fake, chat, () => deliver(ports[1]!, update('/start')));
  assert.equal(texts.length, 2, `the command answered once, then the barrier: ${texts.length} answers`);
  assert.doesNotMatch(texts[0]!, /slow|try again|went wrong/i);
  assert.equal(await b!.kill('SIGTERM'), 0);
});
