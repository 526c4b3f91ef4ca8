/**
 * `/subscribe` starts a subscription where the watcher's last read saw the feed's head, read from
 * the store: it spends no feed request beyond the budget. Counted at the sandbox, seen in what
 * each chat is sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertHarness, caller, titleOf } from './harness.ts';
import { until } from '../helpers/wait.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };

test('/subscribe reads no feed: the new chat hears what comes after the watcher’s last read, not what came before', async (t) => {
  const h = await alertHarness(t);
  await h.dispatcher.run('subscribe', OPEN, caller('first'));
  await h.cycle();
  const [tokA, tokB] = h.sb.data.tokens.slice(40, 42);
  h.sb.addTweets(1, { token: tokA!.id, tokenScore: 90, kolScore: 90 });
  await h.cycle();
  const reads = h.sb.count('8');
  await h.dispatcher.run('subscribe', OPEN, caller('second'));
  assert.equal(h.sb.count('8'), reads, 'no feed request for /subscribe');
  h.sb.addTweets(1, { token: tokB!.id, tokenScore: 90, kolScore: 90 });
  await h.cycle();
  const to = (chat: string) => h.sent.filter((s) => s.chatId === chat).map((s) => titleOf(s).split(' ')[0]);
  assert.deepEqual(to('first'), [tokA!.symbol, tokB!.symbol]);
  assert.deepEqual(to('second'), [tokB!.symbol], 'only the tweet after the last read');
});

test('a looser newcomer does not take, as new, what the others’ narrower read left out before it subscribed', async (t) => {
  const h = await alertHarness(t);
  // The only subscription wants token scores of 90 and up: the watcher asks the feed for those only.
  await h.dispatcher.run('subscribe', { ...OPEN, token_score: '90' }, caller('strict'));
  await h.cycle();
  const [low, high] = h.sb.data.tokens.slice(50, 52);
  const [w] = h.sb.addTweets(1, { token: low!.id, tokenScore: 40, kolScore: 90 });
  await until(() => Date.now() > w!.tweetedMs, 'the clock past the tweet');
  await h.cycle();
  const reads = h.sb.count('8');
  await h.dispatcher.run('subscribe', OPEN, caller('loose'));
  assert.equal(h.sb.count('8'), reads, 'no feed request for /subscribe');
  h.sb.addTweets(1, { token: high!.id, tokenScore: 95, kolScore: 90 });
  await h.cycle();
  const to = (chat: string) => h.sent.filter((s) => s.chatId === chat).map((s) => titleOf(s).split(' ')[0]);
  assert.deepEqual(to('loose'), [high!.symbol], 'the low-score tweet came before /subscribe');
  assert.deepEqual(to('strict'), [high!.symbol]);
});
