// A poller outside the fleet (another deployment with the same token) makes Telegram answer 409.
// The bot says so once, with what to do, and backs off instead of fighting it; once the other
// poller is gone it polls again and answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Api } from 'grammy';
import { rig } from './helpers.ts';

import { setTimeout as sleep } from 'node:timers/promises';

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
  await sleep(4000);
  const botPolls = polls() - rivalCalls;
  rivalRunning = false;
  await rivalLoop;

  t.diagnostic(`during 4 s of conflict: the bot polled ${botPolls} times, the rival ${rivalCalls}`);
  const hints = r.logs.filter((l) => l.includes('409 Conflict: another process polls with this bot token'));
  assert.equal(hints.length, 1, 'the conflict is logged once');
  assert.match(hints[0]!, /STORE_URL=redis/, 'the log says what to do');
  // Spinning would be hundreds of calls in 4 s; a doubling backoff from 1 s makes a handful.
  assert.ok(botPolls <= 6, `the bot polled ${botPolls} times during the conflict (rival: ${rivalCalls})`);
  assert.equal(r.adapter.isReady(), true);

  fake.sendText({ chat: { id: 77, type: 'private' }, text: '/help' });
  const reply = await fake.waitForMessage(77, undefined, 20_000);
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
