// The pacer alone, on a mocked clock (mock.timers; the pacer reads Date.now): limits, order, and
// how a 429 is scoped, each time read off a clock the test moves, exact on any machine.
import { afterEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { PacedError, Pacer } from '../../../src/adapters/telegram/pacer.ts';
import { onMockedClock } from '../../helpers/clock.ts';

const none = () => undefined;
const mocked = () => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
afterEach(() => mock.timers.reset());

test('the bot-wide limit holds in every window, counting sends until they complete', async () => {
  mocked();
  const pacer = new Pacer({ globalPerSecond: 5, perChatPerSecond: 1000, timeScale: 0.02 }, () => Date.now()); // 5 per 20 ms
  const done: number[] = [];
  await onMockedClock(
    Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pacer.run(
          String(i),
          async () => {
            // Not a wait: each send takes a moment (mocked), so the pacer must count it until it completes.
            await new Promise((r) => setTimeout(r, 2));
            done.push(Date.now());
          },
          none,
        ),
      ),
    ),
  );
  assert.equal(done.length, 20);
  done.sort((a, b) => a - b);
  for (let i = 5; i < done.length; i++)
    assert.ok(done[i]! - done[i - 5]! >= 20, `send ${i} came ${done[i]! - done[i - 5]!} ms after the 5th before it`);
});

test('a first 429 pauses everyone; a chat limited again pauses only itself', async () => {
  mocked();
  const pacer = new Pacer({ timeScale: 0.01 }, () => Date.now());
  assert.equal(pacer.limited('1', 2), 'global');
  const t0 = Date.now();
  await onMockedClock(pacer.run('2', async () => undefined, none));
  assert.ok(Date.now() - t0 >= 20, 'another chat waited for the global window');
  assert.equal(pacer.limited('1', 50), 'chat');
  const order: string[] = [];
  const t2 = Date.now();
  const limited = pacer.run('1', async () => void order.push('1'), none).then(() => Date.now() - t2);
  await onMockedClock(pacer.run('3', async () => void order.push('3'), none));
  assert.deepEqual(order, ['3'], 'others are not held for one chat’s own limit');
  assert.ok((await onMockedClock(limited)) >= 500, 'the limited chat waits its retry_after');
  assert.deepEqual(order, ['3', '1']);
});

test('a 429 read from a result is recorded before the chat sends again', async () => {
  mocked();
  const pacer = new Pacer({ timeScale: 0.01, perChatPerSecond: 1000 }, () => Date.now());
  const times: number[] = [];
  let first = true;
  const send = async () => {
    times.push(Date.now());
    const r = first ? { retry: 3 } : { retry: undefined };
    first = false;
    return r;
  };
  await onMockedClock(Promise.all([pacer.run('9', send, (r) => r.retry), pacer.run('9', send, (r) => r.retry)]));
  assert.ok(times[1]! - times[0]! >= 30, `second send ${times[1]! - times[0]!} ms after a 3 s (scaled) flood wait`);
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
