/**
 * The real bot process, SIGKILLed at random points of a fan-out 20 times (one
 * of them mid-fan-out by construction, as soon as a send arrived) and
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
import { CHILD_PATIENCE_MS } from '../helpers/child-bot.ts';
import { feedTicks } from '../helpers/pipeline.ts';
import { until } from '../helpers/wait.ts';

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
  /** This life's log, whole: a line may come split across two chunks. */
  let logs = '';
  const start = () => {
    ready = false;
    logs = '';
    const c = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    c.stderr!.on('data', (d: Buffer) => {
      logs += d.toString();
      ready ||= logs.includes('"msg":"ready"');
    });
    return c;
  };
  /** Waits for this life's "ready"; fails with its log when it never comes. */
  const readyNow = () =>
    until(() => ready, 'the bot ready', CHILD_PATIENCE_MS).catch((err: Error) =>
      assert.fail(`${err.message} (exit ${child?.exitCode ?? child?.signalCode ?? 'none yet'}):\n${logs.slice(-4000)}`),
    );
  const exited = (c: ChildProcess) =>
    new Promise<number | null>((r) =>
      c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code)),
    );

  // First life: the watcher takes the head of the feed as its mark; then the burst arrives.
  child = start();
  // Ticks never overlap: once the second one reads, the first has stored the head as its mark.
  await until(() => feedTicks(sb) >= 2, 'the first tick stored the feed head', CHILD_PATIENCE_MS);
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
    await until(
      () => !telegram.requests.some((r) => r.method === 'sendMessage' && r.status === 0 && r.description === undefined),
      'the sends the dead process had written answered',
    );
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
  const delivered = () => deliveredDiscord() + deliveredTelegramDistinct();
  /** Kills that came while a fan-out was under way: some alerts delivered, not all, read at the kill. */
  let midFanOut = 0;
  for (let k = 0; k < KILLS; k++) {
    if (k % 4 === 3) {
      await sleep(Math.floor(random() * 500)); // a random moment of start-up: the scenario, not a wait
    } else {
      await readyNow();
      const sofar = delivered();
      if (midFanOut === 0 && sofar < expected) {
        // No kill has landed mid-fan-out yet: this one does by construction, once this life's next send arrived.
        await until(() => delivered() > sofar, 'a send of this life', CHILD_PATIENCE_MS);
      } else {
        await sleep(Math.floor(random() * 1200)); // a random moment of the fan-out: the scenario, not a wait
      }
    }
    const now = delivered();
    child.kill('SIGKILL');
    if (now > 0 && now < expected) midFanOut++;
    await exited(child);
    atKill.push(delivered());
    await countAtRisk();
    child = start();
  }
  t.diagnostic(`delivered after each kill (of ${expected}): ${atKill.join(' ')}; kills mid-fan-out: ${midFanOut}`);
  assert.ok(midFanOut >= 1, 'a kill landed in the middle of the fan-out');
  // Last life: let it finish the fan-out, then stop it cleanly.
  await readyNow();
  await until(() => delivered() >= expected, 'the last life finished the fan-out', CHILD_PATIENCE_MS);
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
