/**
 * The real bot process started while Telegram cannot be reached: nothing
 * listens (refused), or the host does not resolve. As with the store: the first
 * failed attempt is logged at once naming the host and the reason (the first
 * attempt is bounded at 1.5 s, so this is the first thing said), reminders
 * follow, and once PLATFORM_CONNECT_TIMEOUT is spent one line says what to
 * check and the process exits 1. A SIGTERM during the wait ends it at once, 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../../src/sandbox/server.ts';
import { startBot } from '../helpers/fleet.ts';
import { until } from '../helpers/wait.ts';
import { freePort } from '../helpers/redis.ts';

const TOKEN = '7000000016:AAUnreachableTelegramAtStartTest';
const lines = (logs: string) =>
  logs
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; attempt?: number; reason?: string });

for (const [why, root, reason] of [
  ['refused', async () => `http://127.0.0.1:${await freePort()}`, /connection refused.*ECONNREFUSED/],
  ['no such host', async () => 'http://telegram-api.invalid', /ENOTFOUND|EAI_AGAIN/],
] as const) {
  test(`Telegram unreachable at start (${why}): said at once with host and reason, then one line and exit 1`, async (t) => {
    const sb = await startSandbox({ live: false });
    t.after(() => sb.close());
    const apiRoot = await root();
    const host = new URL(apiRoot).host;
    const bot = await startBot(t, 'unreachable', {
      KOL_API_BASE_URL: sb.url,
      KOL_API_KEY: sb.apiKey,
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: apiRoot,
      STORE_URL: 'memory:',
      PLATFORM_CONNECT_TIMEOUT: '4s',
    });
    const code = await new Promise<number | null>((r) => bot.child.once('exit', (c) => r(c)));
    assert.equal(code, 1);
    const said = lines(bot.logs()).filter((l) => l.level >= 40);
    assert.ok(said.length >= 2, bot.logs());
    const first = said[0]!;
    assert.equal(first.attempt, 1, 'the first failed attempt is the first thing said');
    assert.ok(first.msg.includes(`cannot connect to Telegram (${host})`), first.msg);
    assert.match(first.msg, reason);
    const last = said.at(-1)!;
    assert.match(last.msg, new RegExp(`^kolradar could not start: cannot connect to Telegram \\(${host}\\) after`));
    assert.match(last.msg, /Check the network/);
    assert.equal(said.filter((l) => l.msg.startsWith('kolradar could not start')).length, 1, 'one closing line');
    assert.doesNotMatch(bot.logs(), /AAUnreachable/, 'no token in the log');
  });
}

test('Telegram unreachable at start: a SIGTERM during the wait ends it at once with status 0', async (t) => {
  const sb = await startSandbox({ live: false });
  t.after(() => sb.close());
  const bot = await startBot(t, 'unreachable', {
    KOL_API_BASE_URL: sb.url,
    KOL_API_KEY: sb.apiKey,
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: `http://127.0.0.1:${await freePort()}`,
    STORE_URL: 'memory:',
    PLATFORM_CONNECT_TIMEOUT: '600s',
  });
  await until(() => bot.logs().includes('cannot connect to Telegram'), 'the first failure said');
  assert.equal(await bot.kill('SIGTERM'), 0);
  assert.match(bot.logs(), /stopped while starting/);
  assert.doesNotMatch(bot.logs(), /could not start/);
});
