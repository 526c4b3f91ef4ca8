// The pacer alone, on real time with short windows: limits, order, and how a 429 is scoped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { PacedError, Pacer } from '../../../src/adapters/telegram/pacer.ts';

const none = () => undefined;

test('the bot-wide limit holds in every window, counting sends until they complete', async () => {
  const pacer = new Pacer({ globalPerSecond: 5, perChatPerSecond: 1000, timeScale: 0.02 }); // 5 per 20 ms
  const done: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      pacer.run(
        String(i),
        async () => {
          // Not a wait: each send takes a moment, so the pacer must count it until it completes.
          await new Promise((r) => setTimeout(r, 2));
          done.push(performance.now() - t0);
        },
        none,
      ),
    ),
  );
  done.sort((a, b) => a - b);
  for (let i = 5; i < done.length; i++)
    assert.ok(done[i]! - done[i - 5]! >= 20, `send ${i} came ${done[i]! - done[i - 5]!} ms after the 5th before it`);
});

test('a first 429 pauses everyone; a chat limited again pauses only itself', async () => {
  const pacer = new Pacer({ timeScale: 0.01 });
  assert.equal(pacer.limited('1', 2), 'global');
  const t0 = performance.now();
  await pacer.run('2', async () => undefined, none);
  assert.ok(performance.now() - t0 >= 19, 'another chat waited for the global window');
  assert.equal(pacer.limited('1', 50), 'chat');
  const order: string[] = [];
  const t2 = performance.now();
  const limited = pacer.run('1', async () => void order.push('1'), none).then(() => performance.now() - t2);
  await pacer.run('3', async () => void order.push('3'), none);
  assert.deepEqual(order, ['3'], 'others are not held for one chat’s own limit');
  assert.ok((await limited) >= 490, 'the limited chat waits its retry_after');
  assert.deepEqual(order, ['3', '1']);
});

test('a 429 read from a result is recorded before the chat sends again', async () => {
  const pacer = new Pacer({ timeScale: 0.01, perChatPerSecond: 1000 });
  const times: number[] = [];
  let first = true;
  const send = async () => {
    times.push(performance.now());
    const r = first ? { retry: 3 } : { retry: undefined };
    first = false;
    return r;
  };
  await Promise.all([pacer.run('9', send, (r) => r.retry), pacer.run('9', send, (r) => r.retry)]);
  assert.ok(times[1]! - times[0]! >= 29, `second send ${times[1]! - times[0]!} ms after a 3 s (scaled) flood wait`);
});

test('a caller with a bound is told when a group at its minute limit frees, and nothing is sent; others go on', async () => {
  let clock = 0;
  const pacer = new Pacer({ perGroupPerMinute: 3, perChatPerSecond: 1000 }, () => clock);
  const sent: string[] = [];
  const send = (chat: string) => () => Promise.resolve(void sent.push(chat));
  for (let i = 0; i < 3; i++) {
    await pacer.run('-1', send('-1'), none);
    clock += 1_000;
  }
  // Three sends at 0, 1 and 2 s: the fourth may go when the first leaves the minute.
  assert.equal(pacer.readyIn('-1'), 57_000);
  assert.equal(pacer.readyIn('-1', 2), 58_000, 'two more sends need the two oldest gone');
  await assert.rejects(pacer.run('-1', send('-1'), none, { maxChatWaitMs: 1_000 }), (err: unknown) => {
    assert.ok(err instanceof PacedError);
    assert.equal(err.readyInMs, 57_000);
    return true;
  });
  await pacer.run('-2', send('-2'), none, { maxChatWaitMs: 1_000 });
  assert.deepEqual(sent, ['-1', '-1', '-1', '-2'], 'the refused send never went out; another group did at once');
  clock += 57_000;
  assert.equal(pacer.readyIn('-1'), 0);
  await pacer.run('-1', send('-1'), none, { maxChatWaitMs: 1_000 });
  assert.equal(sent.length, 5);
});
