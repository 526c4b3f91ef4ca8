// "Most shilled" of a digest is of its period: the counts the watcher kept per hour,
// equal to what the feed gave it in that period; a period the watcher did not see
// whole falls back to operation 2's ranking and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDigest } from '../../src/alerts/digest/build.ts';
import { periodShills, recordShills, TOKENS_KEPT } from '../../src/alerts/shills.ts';
import { formats } from '../../src/i18n/format.ts';
import { translator } from '../../src/i18n/index.ts';
import { silentLogger } from '../../src/log.ts';
import type { TweetListItem } from '../../src/api/index.ts';
import { openStore } from '../../src/store/index.ts';
import { alertHarness, caller } from '../alerts/harness.ts';

const HOUR = 3_600_000;
const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };

test('the digest counts of a period equal what the watcher was fed in that period', async (t) => {
  const start = Math.floor(Date.now() / HOUR) * HOUR;
  let clock = start + 60_000;
  const h = await alertHarness(t, { now: () => clock });
  await h.dispatcher.run('subscribe', OPEN, caller('d'));
  await h.cycle();
  const [a, b, c, late] = h.sb.data.tokens.slice(40, 44);
  const kol = h.sb.data.kols[2]!.id;
  const fed: Record<number, [typeof a, number][]> = {
    1: [
      [a, 3],
      [b, 2],
    ],
    5: [[c, 4]],
    20: [[a, 2]],
    24: [[late, 9]],
  };
  for (let hour = 0; hour <= 24; hour++) {
    clock = start + hour * HOUR + 60_000;
    for (const [token, n] of fed[hour] ?? [])
      h.sb.addTweets(n, { token: token!.id, kol, tokenScore: 90, kolScore: 90 });
    await h.cycle();
  }
  const period = { key: 'daily:x', from: start, at: start + 24 * HOUR };
  const sub = (await h.store.subscriptions.get('console:d'))!;
  const deps = { api: h.api, log: silentLogger(), state: h.store.watch };
  const view = await buildDigest(deps, sub, period, translator('en'), false, formats('en'));
  const field = view.fields!.find((f) => f.name.startsWith('Most shilled'))!;
  assert.equal(field.name, 'Most shilled tokens this period (tweets the watcher saw)');
  assert.deepEqual(String(field.value).split('\n'), [
    `${a!.symbol} · ${a!.chain_id} · 5 tweets`,
    `${c!.symbol} · ${c!.chain_id} · 4 tweets`,
    `${b!.symbol} · ${b!.chain_id} · 2 tweets`,
  ]);
  // A period that starts before the watcher first read the feed: the upstream's ranking, said so.
  const before = { key: 'daily:y', from: start - 24 * HOUR, at: start };
  const fallback = await buildDigest(deps, sub, before, translator('en'), false, formats('en'));
  assert.ok(
    fallback.fields!.some((f) =>
      /the analytics service’s mention ranking: the watcher did not run all period/.test(f.name),
    ),
  );
});

test('the hourly counts are bounded and a repeated batch is counted once', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  const tweet = (i: number) =>
    ({ token: { chain_id: 'solana', token_address: `addr${i}`, symbol: `T${i}` } }) as unknown as TweetListItem;
  const now = 10 * HOUR;
  await recordShills(
    store.watch,
    Array.from({ length: TOKENS_KEPT + 50 }, (_, i) => tweet(i)),
    'b1',
    now,
  );
  await recordShills(store.watch, [tweet(7), tweet(7)], 'b2', now);
  await recordShills(store.watch, [tweet(7), tweet(7)], 'b2', now);
  const p = await periodShills(store.watch, now - HOUR + 1, now + 1);
  assert.equal(p.tokens.length, TOKENS_KEPT);
  assert.equal(p.tokens[0]!.symbol, 'T7');
  assert.equal(p.tokens[0]!.n, 3, 'one from b1, two from b2 once');
});
