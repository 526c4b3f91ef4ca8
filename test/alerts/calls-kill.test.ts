/**
 * The real bot process SIGKILLed a few milliseconds after a follow-up round's
 * market answer (between "edit queued" and "sample saved", or just after), on
 * SQLite and on Redis: after the restart the point shows in the alert, and a
 * token with no point due is not asked about again.
 */
import { test } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/store/index.ts';
import { startDiscordFake } from '../fakes/discord/index.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { CHILD_PATIENCE_MS, childEnv, exited, startReadyChild } from '../helpers/child-bot.ts';
import { moreTicks } from '../helpers/pipeline.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';
import { REDIS_SKIP, redisAvailable, runOutLeases, startRedis } from '../helpers/redis.ts';

const CHILD = fileURLToPath(new URL('./calls-child.ts', import.meta.url));
const HOUR = 3_600_000;
const CHATS = [7400001, 7400002];
const available = redisAvailable();

for (const kind of ['SQLite', 'Redis'] as const)
  test(`${kind}: SIGKILL a few ms after a round's market answer: every point shows after the restart, and no token is asked about with no point due`, {
    timeout: 300_000,
    skip: kind === 'Redis' && !available ? REDIS_SKIP : false,
  }, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'kolradar-calls-kill-'));
    let clock = Date.now();
    const sb = await startSandbox({ market: { clock: () => clock } });
    const discord = await startDiscordFake({ guilds: [{ id: '933000000000000001', channels: [] }] });
    const telegram = await startTelegramFake({
      token: '7000000015:AAFakeTokenForTheCallsKill_01234567',
      knownChatsOnly: false,
    });
    const storeUrl = kind === 'Redis' ? (await startRedis(t)).url : `sqlite:${join(dir, 'state.sqlite')}`;
    let child: ChildProcess | undefined;
    t.after(async () => {
      child?.kill('SIGKILL');
      await discord.close();
      await telegram.close();
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    });
    const seed = await openStore(storeUrl);
    for (const c of CHATS) await seed.subscriptions.put(openSubscription('telegram', String(c)));
    await seed.close();
    const env = childEnv(sb, storeUrl, discord, telegram);
    const start = (at: number) => startReadyChild(CHILD, [String(at), JSON.stringify(env)]);
    const marketAnswers = () => sb.count('2');

    // Life 1: an alert in each chat, recorded as a call.
    child = await start(clock);
    await until(() => sb.count('tweets') >= 1, 'the first tick read the feed head', CHILD_PATIENCE_MS);
    const tok = sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
    sb.addTweets(1, { token: tok.id, kol: sb.data.kols[0]!.id, tokenScore: 95, kolScore: 95 });
    await until(() => CHATS.every((c) => telegram.messages(c).length === 1), 'alerts arrived', CHILD_PATIENCE_MS);
    // One reader for the whole wait: the condition is checked every few milliseconds.
    const reader = await openStore(storeUrl);
    try {
      const recorded = async () =>
        (await Promise.all(CHATS.map((c) => reader.calls.list(`telegram:${c}`, 0)))).every((l) => l.length === 1);
      await until(recorded, 'each alert is a call', CHILD_PATIENCE_MS);
    } finally {
      await reader.close();
    }
    child.kill('SIGKILL');
    await exited(child);
    if (kind === 'Redis') await runOutLeases(storeUrl);

    // Life 2, an hour later: killed a few milliseconds after the round's market answer.
    clock += HOUR + 60_000;
    const before = marketAnswers();
    child = await start(clock);
    await until(() => marketAnswers() > before, 'the round asked the market', CHILD_PATIENCE_MS);
    await sleep(3); // a few ms after the answer: the kill's moment, the scenario, not a wait
    child.kill('SIGKILL');
    await exited(child);
    if (kind === 'Redis') await runOutLeases(storeUrl);

    // Life 3: the 1h point shows in every followed message, and stays the only request until the next point.
    clock += 60_000;
    child = await start(clock);
    const shown = () => CHATS.every((c) => /Since alert \(1h\)/.test(telegram.messages(c)[0]!.text ?? ''));
    await until(shown, 'the 1h point in every alert', CHILD_PATIENCE_MS);
    // Three more ticks, each with its follow-up round, with no point due: no market request among them.
    await nothingMoreAfter(
      marketAnswers,
      () => moreTicks(sb, 3, CHILD_PATIENCE_MS),
      'no token asked about with no point due',
    );
    child.kill('SIGTERM');
    await exited(child);
  });
