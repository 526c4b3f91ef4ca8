/**
 * Follow-ups are durable and single: a crash between "queued" and "saved" gives
 * exactly one edit after the restart, and a leader change gives no double
 * edit. On SQLite and on Redis.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFollowups } from '../../src/alerts/calls/followups.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { callsHarness, testClock } from './calls-harness.ts';

const HOUR = 3_600_000;
const available = redisAvailable();
if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);

const stores = [
  {
    name: 'SQLite',
    skip: false as const,
    url: async (t: import('node:test').TestContext) => {
      const dir = await mkdtemp(join(tmpdir(), 'kolradar-calls-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      return `sqlite:${join(dir, 'state.sqlite')}`;
    },
  },
  {
    name: 'Redis',
    skip: available ? (false as const) : REDIS_SKIP,
    url: async (t: import('node:test').TestContext) => (await startRedis(t)).url,
  },
];

for (const s of stores) {
  test(`${s.name}: a crash between "due" and "edited" gives exactly one edit after the restart`, {
    skip: s.skip,
  }, async (t) => {
    const url = await s.url(t);
    const clock = testClock();
    const sb = await startSandbox({ market: { clock: clock.now } });
    t.after(() => sb.close());
    const first = await callsHarness(t, { storeUrl: url, sandbox: sb, clock, destinations: 3 });
    first.shill();
    await first.cycle();
    assert.equal(first.sent.length, 3);
    clock.advance(HOUR + 60_000);
    // The leader's round queues the edits, then dies before it records the calls' progress.
    const dying = createFollowups({
      calls: first.app.store.calls,
      outbox: first.app.store.outbox,
      api: first.app.api,
      lease: {
        fenced: async () => {
          throw new Error('killed');
        },
      },
      log: silentLogger(),
      perMinute: 100,
      now: clock.now,
    });
    await assert.rejects(dying.round(), /killed/);
    assert.equal(
      (await first.app.store.outbox.pending()).filter((e) => e.content.kind === 'followup').length,
      3,
      'the edits are due in the store',
    );
    assert.equal(first.edits.length, 0, 'none sent yet');
    await first.close();

    // A new process on the same store: its round finds the edits already queued, and sends each once.
    const second = await callsHarness(t, { storeUrl: url, sandbox: sb, clock, destinations: 3, subscribe: false });
    await second.cycle();
    assert.equal(second.edits.length, 3, 'each alert edited exactly once');
    assert.deepEqual(new Set(second.edits.map((e) => e.chatId)), new Set(second.chats));
    assert.deepEqual(
      second.edits.map((e) => e.messageId).sort(),
      first.sent.map((x) => x.messageId).sort(),
      'the alerts the first life sent',
    );
    await second.cycle();
    assert.equal(second.edits.length, 3, 'nothing repeats on the next tick');
    const calls = await Promise.all(second.chats.map((c) => second.app.store.calls.list(`console:${c}`, 0)));
    for (const [call] of calls) assert.equal(call!.samples.length, 1, 'one sample per point');
  });
}

test('Redis: a leader change gives no double edit', { skip: available ? false : REDIS_SKIP }, async (t) => {
  const redis = await startRedis(t);
  const clock = testClock();
  const sb = await startSandbox({ market: { clock: clock.now } });
  t.after(() => sb.close());
  const a = await callsHarness(t, { storeUrl: redis.url, sandbox: sb, clock, destinations: 4 });
  const b = await callsHarness(t, { storeUrl: redis.url, sandbox: sb, clock, destinations: 4, subscribe: false });
  a.shill();
  await a.cycle();
  await b.cycle();
  assert.equal(a.sent.length + b.sent.length, 4, 'one instance sent the alerts');
  assert.equal(a.sent.length, 4, 'the first to tick leads');
  clock.advance(HOUR + 60_000);
  await a.cycle();
  await b.cycle();
  assert.equal(a.edits.length, 4, '1h: the leader edits');
  assert.equal(b.edits.length, 0, 'the follower does not');
  // The leader goes away; the other takes over for the next points.
  await a.close();
  clock.advance(5 * HOUR);
  await b.cycle();
  await b.cycle();
  clock.advance(18 * HOUR);
  await b.cycle();
  assert.equal(b.edits.length, 8, '6h and 24h: the new leader edits each alert once per point');
  const perChat = new Map<string, number>();
  for (const e of [...a.edits, ...b.edits]) perChat.set(e.chatId, (perChat.get(e.chatId) ?? 0) + 1);
  assert.deepEqual([...perChat.values()], [3, 3, 3, 3], 'three points, three edits per alert, no double');
});
