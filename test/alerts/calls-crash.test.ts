/**
 * The real bot process SIGKILLed between "due" and "edited": the follow-up
 * edits are queued in the store and the platforms refuse them for now (a
 * Discord 503, a Telegram 429) when the process dies. After the restart each
 * alert is edited exactly once, on both platforms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/store/index.ts';
import { startDiscordFake } from '../fakes/discord/index.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { childEnv, exited, startReadyChild } from '../helpers/child-bot.ts';
import { moreTicks, outboxDrained } from '../helpers/pipeline.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';

const CHILD = fileURLToPath(new URL('./calls-child.ts', import.meta.url));
const HOUR = 3_600_000;
const CHANNELS = ['832000000000000001', '832000000000000002'];
const CHATS = [7300001, 7300002];

test('SIGKILL between "due" and "edited": exactly one edit per alert after the restart', {
  timeout: 180_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-calls-crash-'));
  let clock = Date.now();
  const sb = await startSandbox({ market: { clock: () => clock } });
  const discord = await startDiscordFake({
    guilds: [{ id: '932000000000000001', channels: CHANNELS.map((id) => ({ id })) }],
  });
  const telegram = await startTelegramFake({
    token: '7000000014:AAFakeTokenForTheCallsCrash_0123456',
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
  for (const c of CHANNELS) await seed.subscriptions.put(openSubscription('discord', c));
  for (const c of CHATS) await seed.subscriptions.put(openSubscription('telegram', String(c)));
  await seed.close();
  const env = childEnv(sb, storeUrl, discord, telegram);
  const start = (at: number) => startReadyChild(CHILD, [String(at), JSON.stringify(env)]);

  // Life 1: the watcher takes the head, then a KOL shills; one alert per chat.
  child = await start(clock);
  await until(() => sb.count('tweets') >= 1, 'the first tick read the feed head');
  const tok = sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
  sb.addTweets(1, { token: tok.id, kol: sb.data.kols[0]!.id, tokenScore: 95, kolScore: 95 });
  await until(
    () =>
      CHANNELS.every((c) => discord.channelMessages(c).length === 1) &&
      CHATS.every((c) => telegram.messages(c).length === 1),
    'one alert in each channel and chat',
  );
  // Read from the store the bot writes: every alert recorded as a call (it is, before the alert is marked sent).
  const recorded = async () => {
    const s = await openStore(storeUrl);
    try {
      const ids = [...CHANNELS.map((c) => `discord:${c}`), ...CHATS.map((c) => `telegram:${c}`)];
      return (await Promise.all(ids.map((id) => s.calls.list(id, 0)))).every((l) => l.length === 1);
    } finally {
      await s.close();
    }
  };
  await until(recorded, 'each alert recorded as a call');
  child.kill('SIGKILL');
  await exited(child);

  // Life 2, an hour later: the follow-ups come due, the platforms refuse the edits for now, and the process dies.
  for (const c of CHANNELS) discord.failChannel(c, { status: 503 });
  for (const c of CHATS) telegram.failChat(c, 'server_error');
  clock += HOUR + 60_000;
  child = await start(clock);
  const tried = () =>
    CHANNELS.every((c) =>
      discord.requests.some((r) => r.method === 'PATCH' && r.path.includes(`/channels/${c}/messages/`)),
    ) &&
    CHATS.every((c) =>
      telegram.requests.some((r) => r.method === 'editMessageText' && String(r.chat_id) === String(c)),
    );
  await until(tried, 'the due edits attempted');
  child.kill('SIGKILL');
  await exited(child);
  const okEdits = () => ({
    discord: CHANNELS.map(
      (c) =>
        discord.requests.filter(
          (r) => r.method === 'PATCH' && r.path.includes(`/channels/${c}/messages/`) && r.status === 200,
        ).length,
    ),
    telegram: CHATS.map((c) => telegram.messages(c)[0]!.edits.length),
  });
  assert.deepEqual(okEdits(), { discord: [0, 0], telegram: [0, 0] }, 'nothing edited before the kill');

  // Life 3: the platforms answer again; each alert is edited once, and stays so.
  for (const c of CHANNELS) discord.failChannel(c, null);
  telegram.clearFailures();
  clock += 2 * 60_000;
  child = await start(clock);
  await until(
    () => okEdits().discord.every((n) => n >= 1) && okEdits().telegram.every((n) => n >= 1),
    'each alert edited',
  );
  // The barrier: three more ticks, each with its follow-up round, and an empty outbox; a second edit would be sent by then.
  const edits = () => [...okEdits().discord, ...okEdits().telegram].reduce((a, b) => a + b, 0);
  await nothingMoreAfter(
    edits,
    async () => {
      await moreTicks(sb, 3);
      await until(() => outboxDrained(storeUrl), 'nothing left in the outbox');
    },
    'no second edit of an alert',
  );
  assert.deepEqual(okEdits(), { discord: [1, 1], telegram: [1, 1] }, 'exactly one edit per alert');
  for (const c of CHATS) assert.match(telegram.messages(c)[0]!.text ?? '', /Since alert \(1h\)/);
  child.kill('SIGTERM');
  await exited(child);
});
