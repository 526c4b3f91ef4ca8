/**
 * Three instances on one Redis, each its own process, the leader SIGKILLed at
 * the scheduled minute between writing the digest and sending it: the digest
 * is posted exactly once, by the instance that takes over. The instances read
 * one upstream (one sandbox), as a real fleet reads one API: each with a
 * sandbox of its own would see the seeded feed anchored at its own start
 * second, and a successor started a second later would find the "same" tweets
 * newer than the mark the leader left, and alert them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';
import { openStore } from '../../src/store/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { moreTicks, outboxDrained } from '../helpers/pipeline.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';

const INSTANCE = fileURLToPath(new URL('./instance.ts', import.meta.url));
const CHAT = 7400001;
const TOKEN = '7000000020:AAFakeTokenForTheFleetDigest_012345';
const available = redisAvailable();

test('three instances, leader SIGKILLed at the scheduled minute after writing the digest: posted once (Berlin, the day clocks go back)', {
  skip: available ? false : REDIS_SKIP,
  timeout: 90_000,
}, async (t) => {
  const redis = await startRedis(t);
  const telegram = await startTelegramFake({ token: TOKEN, knownChatsOnly: false });
  t.after(() => telegram.close());
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-fleet-digest-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `${redis.url}/1`;
  const store = await openStore(url);
  // 25 October 2026: Berlin goes back to UTC+1 at 03:00; 09:00 is 08:00 UTC.
  const scheduled = Date.parse('2026-10-25T08:00:00Z');
  await store.subscriptions.put({
    ...openSubscription('telegram', String(CHAT)),
    digest: { period: 'daily', at: 9 * 60, tz: 'Europe/Berlin', day: 1, since: scheduled - 60_000 },
  });
  await store.close();
  const flag = join(dir, 'killed');
  const children = [0, 1, 2].map(() => {
    const child = spawn(process.execPath, [INSTANCE], {
      env: {
        PATH: process.env.PATH ?? '',
        STORE_URL: url,
        API_URL: sandbox.url,
        API_KEY: sandbox.apiKey,
        TG_ROOT: telegram.apiRoot,
        TG_TOKEN: TOKEN,
        CLOCK_START: String(scheduled - 4000),
        KILL_FLAG: flag,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let logs = '';
    child.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
    t.after(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
    return { child, logs: () => logs };
  });
  // Bot processes, one killed and one taking over after its lease: a longer safety net than the default.
  await until(() => telegram.messages(CHAT).length >= 1, 'the digest posted', 40_000).catch((err: Error) =>
    assert.fail(`${err.message}: ${children.map((c) => c.logs()).join('\n')}`),
  );
  assert.ok(
    existsSync(flag),
    `the leader was killed after writing the digest: ${children.map((c) => c.logs()).join('\n')}`,
  );
  const killed = Number(readFileSync(flag, 'utf8'));
  assert.equal(children.filter((c) => c.child.signalCode === 'SIGKILL').length, 1);
  assert.equal(children.find((c) => c.child.pid === killed)!.child.signalCode, 'SIGKILL');
  assert.equal(telegram.messages(CHAT).length, 1, 'posted by the instance that took over');
  assert.match(telegram.messages(CHAT)[0]!.text ?? '', /Daily digest/);
  assert.match(telegram.messages(CHAT)[0]!.text ?? '', /2026-10-25 09:00/);
  // The survivors keep checking: three more ticks of the leader (each with its check) and an empty outbox, never a second one.
  await nothingMoreAfter(
    () => telegram.messages(CHAT).length,
    async () => {
      await moreTicks(sandbox, 3, 40_000);
      await until(() => outboxDrained(url), 'nothing left in the outbox');
    },
    'no second digest',
  );
  assert.equal(telegram.messages(CHAT).length, 1);
  assert.equal(telegram.violations.length, 0);
});
