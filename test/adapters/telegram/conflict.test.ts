// A poller outside the fleet (another deployment with the same token) makes Telegram answer 409.
// The bot says so once, with what to do, and backs off instead of fighting it; once the other
// poller is gone it polls again and answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Api } from 'grammy';
import { eventually, rig } from './helpers.ts';

test('a rival poller: 409 logged once with what to do, polling backs off, then resumes when the rival stops', {
  timeout: 60_000,
}, async (t) => {
  const r = await rig(t);
  const { fake } = r;
  const polls = () => fake.requests.filter((q) => q.method === 'getUpdates').length;
  const rival = new Api(fake.token, { apiRoot: fake.apiRoot });
  let rivalCalls = 0;
  let rivalRunning = true;
  // The rival does not back off: every 409 it gets, it polls again at once.
  const rivalLoop = (async () => {
    while (rivalRunning) {
      rivalCalls++;
      await rival.getUpdates({ timeout: 1 }).catch(() => {});
    }
  })();
  // Each 409 the bot meets is logged: the first with what to do, the next ones at debug level.
  const hint = (l: string) => l.includes('409 Conflict: another process polls with this bot token');
  const conflicts = () =>
    r.logs
      .filter((l) => hint(l) || l.includes('409 again; still backing off'))
      .map((l) => JSON.parse(l) as { backoffMs?: number });
  // The first conflict and two more, each after a backoff (1 s, then 2 s).
  await eventually(() => conflicts().length >= 3, 'the bot to meet the rival three times');
  const botPolls = polls() - rivalCalls;
  rivalRunning = false;
  await rivalLoop;

  t.diagnostic(`during three conflicts: the bot polled ${botPolls} times, the rival ${rivalCalls}`);
  const hints = r.logs.filter(hint);
  assert.equal(hints.length, 1, 'the conflict is logged once');
  assert.match(hints[0]!, /STORE_URL=redis/, 'the log says what to do');
  const [, second, third] = conflicts();
  // The bot's own account of its backoff; that it waits each one out before polling again is shown on
  // a mocked clock in poller.test.ts. Here: it does not fight the rival, one poll per conflict.
  assert.deepEqual([second!.backoffMs, third!.backoffMs], [2000, 4000], 'the backoff doubles');
  assert.ok(botPolls <= 4, `one poll per conflict (and one in flight): ${botPolls} (rival: ${rivalCalls})`);
  assert.equal(r.adapter.isReady(), true);

  fake.sendText({ chat: { id: 77, type: 'private' }, text: '/help' });
  const reply = await fake.waitForMessage(77);
  assert.ok(reply.text, 'polling resumed and the command was answered');
});

test('a webhook left set from an earlier deployment is removed when polling starts', { timeout: 30_000 }, async (t) => {
  const r = await rig(t, { start: false });
  await new Api(r.fake.token, { apiRoot: r.fake.apiRoot }).setWebhook('https://old.example.test/hook');
  await r.adapter.start();
  const reply = await r.ask({ id: 78, type: 'private' }, '/help');
  assert.ok(reply.text);
  assert.equal(r.fake.requests.filter((q) => q.method === 'getUpdates' && q.status === 409).length, 0);
});
