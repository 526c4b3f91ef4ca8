// The poller's backoff after a 409 on a mocked clock: that each retry waits out its backoff is
// shown by moving the clock to just before and just after it, never by measuring a wait. The real
// grammY runner polls; only getUpdates is answered here (409 while a rival polls, then a long poll).
import { afterEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { Bot, GrammyError } from 'grammy';
import { createPoller } from '../../../src/adapters/telegram/poller.ts';
import { createLogger } from '../../../src/log.ts';
import { localLease } from '../../../src/store/lease.ts';

afterEach(() => mock.timers.reset());

/** Lets the runner and the poller react (promises and I/O callbacks; timers stay mocked). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await turn();
}

test('after a 409 the poller polls again only once its backoff has passed, doubling while the rival stays', async () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let rival = true;
  const polls: number[] = [];
  const bot = new Bot('5550001234:AAfake-token-for-poller-tests_0123', {
    botInfo: {
      id: 5550001234,
      is_bot: true,
      first_name: 'Radar',
      username: 'radar_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    },
  });
  bot.api.config.use(async (prev, method, payload, signal) => {
    if (method !== 'getUpdates') return prev(method, payload, signal);
    polls.push(Date.now());
    if (rival) {
      const description = 'Conflict: terminated by other getUpdates request';
      throw new GrammyError(description, { ok: false, error_code: 409, description }, method, payload);
    }
    // A long poll with nothing new: open until the runner stops.
    return new Promise((resolve) =>
      signal?.addEventListener('abort', () => resolve({ ok: true, result: [] } as never), { once: true }),
    );
  });
  const logs: { backoffMs?: number }[] = [];
  const log = createLogger({
    level: 'debug',
    secrets: [],
    destination: { write: (line: string) => void logs.push(JSON.parse(line)) },
  });
  const poller = createPoller({ bot, lease: localLease(), log, allowedUpdates: [], backoffMs: 1000 });
  const start = Date.now();
  await poller.start();
  await settle();
  assert.deepEqual(polls, [start], 'the first poll met the rival');
  assert.equal(poller.role(), 'backoff');

  // Each backoff: nothing at 1 ms before its end, one poll at its end.
  let at = start;
  for (const backoff of [1000, 2000, 4000]) {
    mock.timers.tick(backoff - 1);
    await settle();
    assert.equal(polls.length, polls.indexOf(at) + 1, `no poll within the ${backoff} ms backoff`);
    if (backoff === 4000) rival = false;
    mock.timers.tick(1);
    await settle();
    at += backoff;
    assert.equal(polls.at(-1), at, `polled again once the ${backoff} ms had passed`);
  }
  assert.deepEqual(
    polls.map((t) => t - start),
    [0, 1000, 3000, 7000],
  );
  assert.equal(poller.role(), 'poller', 'the rival gone, it polls');
  assert.equal(poller.polling(), true);
  assert.deepEqual(
    logs.filter((l) => l.backoffMs !== undefined).map((l) => l.backoffMs),
    [2000, 4000],
    'the repeated conflicts log the doubling backoff',
  );
  mock.timers.reset();
  await poller.stop();
});
