import assert from 'node:assert/strict';
import { generateStore } from '../../../src/sandbox/data.ts';
import { LiveFeed } from '../../../src/sandbox/live.ts';
import type { Sandbox } from '../../../src/sandbox/server.ts';

const snapshot = (d: Sandbox['data']) =>
  JSON.stringify({ tokens: d.tokens, kols: d.kols, tweets: d.tweets, shills: d.shills });

/** Same seed and anchor, same data (also for appended tweets); another seed, other data. `sb` must be untouched. */
export function checkDeterminism(sb: Sandbox, seed: number, now: number): void {
  const twin = generateStore({ seed, now });
  assert.equal(snapshot(twin.data), snapshot(sb.data));
  const clock = () => now + 60_000;
  const appended = new LiveFeed(twin, seed, clock).add(20).map((x) => [x.kolId, x.tokenIds, x.content]);
  assert.deepEqual(
    sb.addTweets(20).map((x) => [x.kolId, x.tokenIds, x.content]),
    appended,
    'appended tweets follow the seed',
  );

  const small = { tokenCount: 60, kolCount: 30, tweetCount: 400 };
  const a = generateStore({ seed: 11, now, ...small });
  const b = generateStore({ seed: 12, now, ...small });
  assert.notEqual(snapshot(a.data), snapshot(b.data));
  assert.notEqual(a.data.tokens[0]!.address, b.data.tokens[0]!.address);
  // Without a fixed anchor only timestamps move: identities stay.
  const c = generateStore({ seed: 11, ...small });
  assert.deepEqual(
    c.data.tokens.map((x) => x.address),
    a.data.tokens.map((x) => x.address),
  );
  assert.deepEqual(
    c.data.kols.map((x) => x.twitter_id),
    a.data.kols.map((x) => x.twitter_id),
  );
  assert.deepEqual(
    c.data.tweets.map((x) => x.content),
    a.data.tweets.map((x) => x.content),
  );
}

/** Typical requests take well under a millisecond of server time. */
