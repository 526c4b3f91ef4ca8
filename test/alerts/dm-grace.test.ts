/**
 * A destination answer that may be spurious (a Discord DM's Missing Access, seen by
 * user-installed apps) is retried for its grace period on an injected clock, its
 * alert kept, and only then ends the subscription; the Discord sender gives that
 * grace to a DM's 50001 alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiscordAPIError } from 'discord.js';
import { alertHarness, caller } from './harness.ts';
import { DM_MISSING_ACCESS_GRACE_MS, mapSendError } from '../../src/adapters/discord/sender.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };
const HOUR = 3_600_000;

const missingAccess = () =>
  new DiscordAPIError(
    { code: 50001, message: 'Missing Access' },
    50001,
    403,
    'POST',
    'https://x/channels/1/messages',
    {},
  );

test('the Discord sender gives a DM’s 50001 a day of retries, and a channel’s 50001 none', () => {
  const dm = mapSendError(missingAccess(), true);
  assert.equal(dm.kind, 'gone');
  assert.equal(dm.kind === 'gone' && dm.graceMs, DM_MISSING_ACCESS_GRACE_MS);
  assert.equal(DM_MISSING_ACCESS_GRACE_MS, 24 * HOUR);
  const channel = mapSendError(missingAccess(), false);
  assert.deepEqual(channel.kind === 'gone' && channel.graceMs, undefined);
});

test('a refusal with a grace period keeps the subscription and its alert until the alert is a day old, then ends it once', async (t) => {
  let clock = Date.parse('2026-11-20T12:00:00Z');
  const h = await alertHarness(t, { now: () => clock });
  await h.dispatcher.run('subscribe', OPEN, caller('me', true, 'private'));
  await h.cycle();
  let refusals = 0;
  h.behaviour.set('me', () => {
    refusals++;
    return { kind: 'gone', reason: 'Missing Access in a DM', graceMs: 24 * HOUR, retryMs: 30 * 60_000 };
  });
  h.sb.addTweets(1, { token: h.sb.data.tokens[7]!.id, kol: h.sb.data.kols[3]!.id, tokenScore: 90, kolScore: 90 });
  await h.cycle();
  assert.equal(refusals, 1);
  for (const hours of [11, 22]) {
    clock += 11 * HOUR;
    await h.cycle();
    const sub = await h.store.subscriptions.get('console:me');
    assert.equal(sub?.disabled, null, `still on after ${hours} h`);
  }
  assert.equal(refusals, 3, 'retried as the hours passed');
  h.behaviour.delete('me');
  clock += HOUR / 2;
  await h.cycle();
  assert.equal(h.sent.length, 1, 'once it clears, the kept alert arrives');
  // A second alert refused for more than a day ends the subscription.
  h.behaviour.set('me', () => ({ kind: 'gone', reason: 'Missing Access in a DM', graceMs: 24 * HOUR, retryMs: HOUR }));
  h.sb.addTweets(1, { token: h.sb.data.tokens[8]!.id, kol: h.sb.data.kols[3]!.id, tokenScore: 90, kolScore: 90 });
  await h.cycle();
  clock += 25 * HOUR;
  await h.cycle();
  const ended = await h.store.subscriptions.get('console:me');
  assert.match(ended?.disabled?.reason ?? '', /Missing Access/);
});
