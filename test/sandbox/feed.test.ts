// The embedded sandbox's live feed shows a new user the alerts working: with the default filters,
// alert-worthy tweets arrive within a few minutes at the rate the app starts it with.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_FILTERS } from '../../src/alerts/filters.ts';
import { generateStore } from '../../src/sandbox/data.ts';
import { LiveFeed } from '../../src/sandbox/live.ts';

/** The rate the app starts the embedded sandbox's feed with (src/app.ts). */
const EMBEDDED_RATE = 0.2;

test('at the embedded rate, a default subscription has alert-worthy tweets within three minutes', () => {
  const now = Date.UTC(2026, 10, 25, 12);
  mock.timers.enable({ apis: ['setInterval', 'Date'], now });
  try {
    const store = generateStore({ now, tokenCount: 360, kolCount: 160, tweetCount: 2000 });
    const feed = new LiveFeed(store, store.data.seed, () => Date.now());
    const before = store.data.tweets.length;
    feed.start(EMBEDDED_RATE);
    const worthy: number[] = [];
    for (let s = 1; s <= 180; s++) {
      mock.timers.tick(1000);
      for (const t of store.data.tweets.slice(before)) {
        const kol = store.data.kols.find((k) => k.id === t.kolId)!;
        const pass =
          t.tokenScore >= DEFAULT_FILTERS.minTokenScore &&
          t.kolScore >= DEFAULT_FILTERS.minKolScore &&
          kol.follower_count >= DEFAULT_FILTERS.minFollowers &&
          !t.leanAuthor;
        if (pass && !worthy.includes(t.id)) worthy.push(t.id);
      }
    }
    feed.stop();
    const arrived = store.data.tweets.length - before;
    assert.ok(arrived >= 30 && arrived <= 40, `${arrived} tweets in 3 minutes at ${EMBEDDED_RATE}/s`);
    assert.ok(worthy.length >= 2, `${worthy.length} alert-worthy tweets in 3 minutes`);
  } finally {
    mock.timers.reset();
  }
});
