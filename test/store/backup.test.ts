/**
 * `npm run backup` during a live fan-out, then `npm run restore`: the backup is
 * taken while the bot is part-way through sending one alert to 40 chats (one
 * send held open), the fan-out completes, the bot stops, the backup is
 * restored and a new bot starts on it. Nothing stored is lost, and the only
 * alerts sent again are ones that went out after the backup, no more than the
 * restore's one line counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sender } from '../../src/alerts/delivery.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { testClock } from '../alerts/calls-harness.ts';
import { contents } from '../helpers/populated.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { npmRun } from '../helpers/npm.ts';
import { until } from '../helpers/wait.ts';

const CHATS = Array.from({ length: 40 }, (_, i) => `chat-${i}`);
const BEFORE_BACKUP = 15;

async function bot(url: string, sb: Sandbox, sender: Sender, now: () => number) {
  const app = await createApp(
    loadConfig({ STORE_URL: url, WATCH_CRON: '0 0 1 1 *', KOL_API_BASE_URL: sb.url, KOL_API_KEY: sb.apiKey }),
    silentLogger(),
    { dispatcher: { now } },
  );
  const watcher = app.startAlerts([sender], { followupNow: now, digestSchedule: false });
  return { app, watcher };
}

test('a backup taken during a live fan-out restores with nothing lost; only alerts sent after it go out again', {
  timeout: 120_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-backup-'));
  const sb = await startSandbox();
  t.after(async () => {
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  });
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const clock = testClock();

  // The first bot: its 16th send waits until the backup is taken.
  const first: string[] = [];
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let waiting = false;
  const slow: Sender = {
    platform: 'console',
    async send(chatId) {
      if (first.length === BEFORE_BACKUP) {
        waiting = true;
        await gate;
      }
      first.push(chatId);
      return { kind: 'sent', messageId: String(first.length) };
    },
  };
  const a = await bot(url, sb, slow, clock.now);
  let closedA: Promise<void> | undefined;
  const closeA = () => (closedA ??= a.app.close());
  t.after(() => {
    release();
    return closeA();
  });
  for (const c of CHATS) await a.app.store.subscriptions.put(openSubscription('console', c));
  const hour = new Date(clock.now()).getUTCHours();
  await a.app.store.subscriptions.put({
    ...openSubscription('console', 'quiet'),
    quiet: { from: ((hour + 23) % 24) * 60, to: ((hour + 2) % 24) * 60, tz: 'UTC' },
  });
  await a.watcher.tick(); // the head of the feed becomes the mark
  const tok = sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)[0]!;
  sb.addTweets(1, { token: tok.id, kol: sb.data.kols[0]!.id, tokenScore: 95, kolScore: 95 });
  await a.watcher.tick();
  await until(() => waiting, 'the fan-out reached the held send');

  const file = join(dir, 'during-fanout.sqlite');
  const taken = npmRun('backup', ['--to', file], { STORE_URL: url });
  assert.equal(taken.code, 0, taken.err);
  assert.match(
    taken.out,
    /^backed up sqlite at .* to .*during-fanout\.sqlite \(schema version \d+\): sub \d+, lang \d+, calls \d+,/,
  );
  const subscriptions = (await contents(a.app.store)).subscriptions;
  release();
  await until(async () => first.length === CHATS.length, 'the fan-out completed');
  await until(async () => (await a.app.store.outbox.pending()).length === 1, 'only the held alert left');
  assert.equal(new Set(first).size, CHATS.length, 'each chat once');
  await closeA();

  // Every instance stopped: restore, then a new bot on the restored store.
  const restored = npmRun('restore', [file], { STORE_URL: url });
  assert.equal(restored.code, 0, restored.err);
  const line = restored.out.split('\n');
  assert.equal(line.length, 1, 'one line');
  const queued = Number(/; (\d+) alerts were queued or held at the backup/.exec(line[0]!)?.[1]);
  assert.equal(queued, CHATS.length - BEFORE_BACKUP + 1, 'the sends still to come and the held one');

  const again: string[] = [];
  const b = await bot(
    url,
    sb,
    {
      platform: 'console',
      send: async (chatId) => {
        again.push(chatId);
        return { kind: 'sent', messageId: `b${again.length}` };
      },
    },
    clock.now,
  );
  t.after(() => b.app.close());
  const callChats = async () =>
    new Set((await contents(b.app.store)).calls.map((c) => (c as { chatId: string }).chatId));
  const after = await contents(b.app.store);
  assert.deepEqual(after.subscriptions, subscriptions, 'every subscription');
  const tracked = await callChats();
  for (const c of first.slice(0, BEFORE_BACKUP)) assert.ok(tracked.has(c), `the call of the alert sent to ${c}`);
  assert.equal(after.held, 1, 'the held alert');
  await b.watcher.tick();
  await until(async () => (await b.app.store.outbox.pending()).length === 1, 'delivery idle again');
  // A barrier: a new alert reaches every chat after whatever was resent.
  sb.addTweets(1, { token: tok.id, kol: sb.data.kols[1]!.id, tokenScore: 95, kolScore: 95 });
  const resent = [...again];
  await b.watcher.tick();
  await until(() => again.length >= resent.length + CHATS.length, 'the barrier alert arrived');

  const sentBeforeBackup = new Set(first.slice(0, BEFORE_BACKUP));
  assert.ok(
    resent.every((c) => !sentBeforeBackup.has(c)),
    'nothing sent before the backup goes out again',
  );
  assert.equal(new Set(resent).size, resent.length, 'each at most once');
  assert.ok(
    resent.length <= queued - 1,
    `${resent.length} sent again, at most the ${queued - 1} sent after the backup`,
  );
  assert.ok(resent.length >= CHATS.length - BEFORE_BACKUP - 1, 'the queued ones do go out (the one in flight may not)');
  assert.ok(!again.includes('quiet'), 'the held alert stays held');
  const all = await callChats();
  assert.ok(
    CHATS.every((c) => all.has(c)),
    'in the end every chat has the first alert tracked as a call',
  );
});
