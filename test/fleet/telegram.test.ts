/**
 * Three real bot processes on one redis-server, Telegram side. Polling: the
 * fake answers a second concurrent getUpdates with 409 as Telegram does, so
 * "no 409 at all" shows that exactly one instance polled at a time; a
 * SIGKILLed poller is replaced once its lease lapses; no update is lost or
 * answered twice. Webhook: three instances behind a round-robin proxy; every
 * update is answered once, a repeated delivery of one update_id too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TelegramFake } from '../fakes/telegram/index.ts';
import {
  greetingBarrier,
  isGreeting,
  roundRobin,
  startBot,
  telegramFleet,
  webhookEnv,
  type BotProcess,
} from '../helpers/fleet.ts';
import { freePort, REDIS_SKIP, redisAvailable } from '../helpers/redis.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';
import { openStore } from '../../src/store/index.ts';

const TOKEN = '7000000014:AAFleetTokenForTheSeveralInstancesTest';
const skip = redisAvailable() ? false : REDIS_SKIP;

const pollerOf = async (bots: BotProcess[]) => {
  const roles = await Promise.all(
    bots.map(async (b) =>
      b.exited ? 'gone' : ((await b.readyz()).roles?.['telegram'] as { poller?: string } | undefined)?.poller,
    ),
  );
  return roles;
};

/**
 * Whether every one of `updates` is marked done in the fleet's update claims. Asked as a claim:
 * an update already claimed is never taken by asking ('busy' or 'done' comes back).
 */
async function allDone(storeUrl: string, updates: readonly number[]): Promise<boolean> {
  const store = await openStore(storeUrl);
  const claims = store.claims(`telegram:${TOKEN.split(':')[0]}`, 'the test, looking');
  try {
    return (await claims.take(updates.map((u) => ({ key: String(u) })))).every((r) => r === 'done');
  } finally {
    claims.close();
    await store.close();
  }
}

/** A chat's answers, the barrier's greeting left out. */
const answers = (fake: TelegramFake, c: number) => fake.messages(c).filter((m) => !isGreeting(m)).length;

/** Every chat got exactly one answer, shown after a barrier in each: a repeat would have come before it. */
async function answeredOnce(fake: TelegramFake, chats: number[], barrier: () => Promise<void>): Promise<void> {
  await nothingMoreAfter(() => chats.reduce((n, c) => n + answers(fake, c), 0), barrier, 'no update answered twice');
  for (const c of chats)
    assert.equal(
      answers(fake, c),
      1,
      `chat ${c}: ${answers(fake, c)} answers: ${fake
        .messages(c)
        .map((m) => JSON.stringify((m.text ?? '').slice(0, 80)))
        .join(', ')}`,
    );
}

test('Telegram polling, three instances on Redis: one poller at a time, takeover after SIGKILL, each update answered once', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const { fake, env } = await telegramFleet(t, TOKEN);
  const bots = await Promise.all(['a', 'b', 'c'].map((n) => startBot(t, n, env)));
  await Promise.all(bots.map((b) => b.ready()));
  await until(async () => (await pollerOf(bots)).filter((r) => r === 'poller').length === 1, 'one poller');
  const roles = await pollerOf(bots);
  assert.deepEqual([...roles].sort(), ['poller', 'standby', 'standby']);
  // The same roles on /metrics: one telegram_poller and one watcher_leader across the fleet.
  const scrape = await Promise.all(
    bots.map(async (b) => (await fetch(`http://127.0.0.1:${b.opsPort}/metrics`)).text()),
  );
  const holders = (role: string) => scrape.filter((m) => m.includes(`kolradar_role{role="${role}"} 1`)).length;
  assert.equal(holders('telegram_poller'), 1);
  await until(
    async () => (await Promise.all(bots.map((b) => b.readyz()))).filter((z) => z.watcher === 'leader').length === 1,
    'a watcher leader',
  );
  assert.equal(scrape.filter((m) => m.includes('kolradar_role{role="telegram_poller"} 0')).length, 2);

  let chat = 1000;
  const updates: number[] = [];
  const burst = async (n: number) => {
    const chats = Array.from({ length: n }, () => ++chat);
    for (const c of chats) {
      const u = fake.sendText({ chat: { id: c, type: 'private' }, from: { id: c, first_name: 'U' }, text: '/help' });
      updates.push(u!.update_id);
    }
    // A takeover waits out the dead poller's lease (15 s): a longer safety net than the default.
    await until(() => chats.every((c) => fake.messages(c).length >= 1), `${n} answers`, 60_000);
    return chats;
  };
  const first = await burst(30);

  // The poller dies without a word; its lease lapses and a standby takes over. Killed between an
  // answer and marking its update done, it would have the answer repeated by design (store/claims.ts,
  // at least once; telegram-crash.test.ts kills mid-answer): it dies once every update is marked done.
  await until(() => allDone(env['STORE_URL']!, updates), 'every update of the burst marked done');
  const poller = bots[roles.indexOf('poller')]!;
  await poller.kill('SIGKILL');
  const killedAt = Date.now();
  const second = await burst(15);
  t.diagnostic(`answers resumed ${Date.now() - killedAt} ms after the SIGKILL (lease lifetime 15 s)`);
  const after = await pollerOf(bots);
  assert.equal(after.filter((r) => r === 'poller').length, 1, `one poller after the kill: ${after.join(',')}`);

  // A clean stop gives the lease up at once.
  const next = bots[after.indexOf('poller')]!;
  assert.equal(await next.kill('SIGTERM'), 0);
  const third = await burst(10);
  const last = await pollerOf(bots);
  assert.equal(last.filter((r) => r === 'poller').length, 1, `the last instance polls: ${last.join(',')}`);

  const all = [...first, ...second, ...third];
  await answeredOnce(fake, all, () => greetingBarrier(fake, all));
  const conflicts = fake.requests.filter((q) => q.method === 'getUpdates' && q.status === 409);
  assert.equal(conflicts.length, 0, 'no getUpdates overlapped another (Telegram would have answered 409)');
});

test('Telegram webhook, three instances behind a round-robin proxy: every update answered once, a repeated update_id too', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const { fake, env } = await telegramFleet(t, TOKEN);
  const secret = 'fleet_hook_secret';
  const ports = [await freePort(), await freePort(), await freePort()];
  const bots = await Promise.all(ports.map((port, i) => startBot(t, `w${i}`, { ...env, ...webhookEnv(port, secret) })));
  await Promise.all(bots.map((b) => b.ready()));
  for (const b of bots) assert.deepEqual((await b.readyz()).roles?.['telegram'], { mode: 'webhook' });
  const lb = await roundRobin(t, ports);

  const update = (id: number, chat = 2000 + id, text = '/help') => ({
    update_id: id,
    message: {
      message_id: id,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chat, type: 'private', first_name: 'W' },
      from: { id: chat, is_bot: false, first_name: 'W' },
      text,
      entities: [{ type: 'bot_command', offset: 0, length: text.length }],
    },
  });
  const deliver = async (id: number, chat?: number, text?: string) => {
    const res = await fetch(`${lb.url}/tg/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify(update(id, chat, text)),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const ids = Array.from({ length: 30 }, (_, i) => 500 + i);
  const statuses = await Promise.all(ids.map((id) => deliver(id)));
  assert.ok(
    statuses.every((s) => s === 200),
    statuses.join(','),
  );
  // Telegram retries a delivery it thinks failed: the same update_id again, here to the other two instances.
  assert.equal(await deliver(505), 200);
  assert.equal(await deliver(505), 200);
  const chats = ids.map((id) => 2000 + id);
  await until(() => chats.every((c) => fake.messages(c).length >= 1), 'every answer');
  // The barrier: /start in every chat through the proxy, sent once every earlier delivery was answered (handled) with 200.
  await answeredOnce(fake, chats, () => greetingBarrier(fake, chats, (c) => deliver(c - 2000 + 100, c, '/start')));
  assert.ok(
    lb.forwarded.every((n) => n >= 10),
    `the proxy spread the updates: ${lb.forwarded.join(',')}`,
  );
  const skipped = bots.map((b) => (b.logs().match(/update already handled/g) ?? []).length).reduce((a, b) => a + b, 0);
  assert.equal(skipped, 2, 'the two repeats were recognised');
  for (const b of bots) assert.equal(await b.kill('SIGTERM'), 0);
});
