/**
 * The real bot process, SIGKILLed at random points of a fan-out 20 times and
 * restarted on the same SQLite state, posting through the real discord.js and
 * grammY to the platform fakes: nothing is lost; on Discord (nonce) nothing is
 * duplicated; on Telegram only a send in flight at a kill can repeat: one the
 * fake accepted during the life that ended, for an alert that life's outbox
 * still had marked as in flight (sent, not yet recorded as accepted).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/store/index.ts';
import { startDiscordFake } from '../fakes/discord/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const KILLS = 20;
const ALERTS = 6;

import { setTimeout as sleep } from 'node:timers/promises';

test('SIGKILL at random points of a fan-out, 20 times: nothing lost, no Discord duplicate, Telegram repeats bounded', {
  timeout: 240_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-crash-'));
  const sb = await startSandbox();
  const channels = Array.from({ length: 8 }, (_, i) => `80000000000000${String(i).padStart(4, '0')}`);
  const chats = Array.from({ length: 8 }, (_, i) => String(5_000_000 + i));
  const discord = await startDiscordFake({
    guilds: [{ id: '900000000000000001', channels: channels.map((id) => ({ id })) }],
  });
  const telegram = await startTelegramFake({
    token: '7000000002:AAFakeTokenForTheCrashTest_0123456789',
    knownChatsOnly: false,
  });
  const storeUrl = `sqlite:${join(dir, 'state.sqlite')}`;
  let child: ChildProcess | undefined;
  t.after(async () => {
    child?.kill('SIGKILL');
    await discord.close();
    await telegram.close();
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  });

  const seed = await openStore(storeUrl);
  for (const c of channels) await seed.subscriptions.put(openSubscription('discord', c));
  for (const c of chats) await seed.subscriptions.put(openSubscription('telegram', c));
  await seed.close();

  const env = {
    PATH: process.env.PATH ?? '',
    KOL_API_BASE_URL: sb.url,
    KOL_API_KEY: sb.apiKey,
    DISCORD_TOKEN: discord.token,
    DISCORD_APPLICATION_ID: discord.applicationId,
    DISCORD_API_BASE: discord.apiBase,
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    STORE_URL: storeUrl,
    WATCH_CRON: '* * * * * *',
    LOG_LEVEL: 'info',
  };
  let ready = false;
  const start = () => {
    ready = false;
    const c = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    c.stderr!.on('data', (d: Buffer) => (ready ||= d.toString().includes('"msg":"ready"')));
    return c;
  };
  const exited = (c: ChildProcess) =>
    new Promise<number | null>((r) =>
      c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code)),
    );

  // First life: the watcher takes the head of the feed as its mark; then the burst arrives.
  child = start();
  const t0 = Date.now();
  while (sb.count('tweets') < 1 && Date.now() - t0 < 20_000) await sleep(50);
  assert.ok(sb.count('tweets') >= 1, 'the first tick read the feed head');
  await sleep(300);
  const tokens = sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol)).slice(0, ALERTS);
  for (const tok of tokens) sb.addTweets(1, { token: tok.id, kol: sb.data.kols[0]!.id, tokenScore: 95, kolScore: 95 });

  const expected = ALERTS * (channels.length + chats.length);
  const deliveredDiscord = () => channels.reduce((n, c) => n + discord.channelMessages(c).length, 0);
  const deliveredTelegramDistinct = () =>
    chats.reduce((n, c) => n + new Set(telegram.messages(Number(c)).map((m) => m.text)).size, 0);
  const atKill: number[] = [];
  /**
   * Per Telegram chat, summed over kills: sends that may repeat. A repeat needs
   * a send the fake accepted in the life that just ended (counted by the fake)
   * whose entry that life left marked in flight (read from its outbox).
   */
  const atRisk = new Map<string, number>();
  const acceptedBefore = new Map<string, number>();
  const countAtRisk = async () => {
    // Requests the dead process had already written are still read and answered: let them land in this life.
    await new Promise((r) => setImmediate(r));
    while (telegram.requests.some((r) => r.method === 'sendMessage' && r.status === 0 && r.description === undefined))
      await sleep(5);
    const inLife = new Map<string, string[]>();
    for (const c of chats) {
      const texts = telegram.messages(Number(c)).map((m) => m.text ?? '');
      inLife.set(c, texts.slice(acceptedBefore.get(c) ?? 0));
      acceptedBefore.set(c, texts.length);
    }
    const store = await openStore(storeUrl);
    try {
      for (const e of await store.outbox.pending()) {
        if (e.platform !== 'telegram' || e.state !== 'inflight' || e.content.kind !== 'alert') continue;
        const symbol = new RegExp(`(^|[^A-Za-z0-9])${e.content.token.symbol}([^A-Za-z0-9]|$)`);
        if (inLife.get(e.chatId)?.some((text) => symbol.test(text)))
          atRisk.set(e.chatId, (atRisk.get(e.chatId) ?? 0) + 1);
      }
    } finally {
      await store.close();
    }
  };
  let rng = 7;
  const random = () => {
    rng = (rng * 48271) % 2147483647;
    return rng / 2147483647;
  };
  for (let k = 0; k < KILLS; k++) {
    if (k % 4 === 3) {
      await sleep(Math.floor(random() * 500)); // during start-up
    } else {
      // Somewhere in the fan-out: after the process is ready, however loaded the machine is.
      const t2 = Date.now();
      while (!ready && Date.now() - t2 < 20_000) await sleep(20);
      await sleep(Math.floor(random() * 1200));
    }
    child.kill('SIGKILL');
    await exited(child);
    atKill.push(deliveredDiscord() + deliveredTelegramDistinct());
    await countAtRisk();
    child = start();
  }
  t.diagnostic(`delivered at each kill (of ${expected}): ${atKill.join(' ')}`);
  assert.ok(
    atKill.some((n) => n > 0 && n < expected),
    'some kills landed in the middle of the fan-out',
  );
  // Last life: let it finish the fan-out, then stop it cleanly.
  const t1 = Date.now();
  while ((!ready || deliveredDiscord() + deliveredTelegramDistinct() < expected) && Date.now() - t1 < 60_000)
    await sleep(200);
  child.kill('SIGTERM');
  assert.equal(await exited(child), 0, 'SIGTERM exits 0');

  for (const c of channels) {
    const msgs = discord.channelMessages(c);
    const titles = msgs.map((m) => String((m.embeds?.[0] as { title?: string } | undefined)?.title ?? ''));
    assert.equal(msgs.length, ALERTS, `Discord ${c}: each alert exactly once (${titles.join(' | ')})`);
    assert.deepEqual(new Set(titles.map((x) => x.split(' ')[0])), new Set(tokens.map((x) => x.symbol)));
  }
  let duplicates = 0;
  for (const c of chats) {
    const texts = telegram.messages(Number(c)).map((m) => m.text);
    const distinct = new Set(texts);
    assert.equal(distinct.size, ALERTS, `Telegram ${c}: every alert arrived`);
    const repeats = texts.length - distinct.size;
    assert.ok(
      repeats <= (atRisk.get(c) ?? 0),
      `Telegram ${c}: ${repeats} repeats, only ${atRisk.get(c) ?? 0} sends in flight at the kills`,
    );
    duplicates += repeats;
  }
  const risk = [...atRisk.values()].reduce((a, b) => a + b, 0);
  t.diagnostic(`Telegram duplicates after ${KILLS} kills: ${duplicates}; sends in flight at the kills: ${risk}`);
});
