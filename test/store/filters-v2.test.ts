// Schema version 2 (market and keyword filters, alert links): a store version 1 wrote
// opens with every subscription as it was, alerting exactly as before, and takes the new filters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { tweetFacts } from '../../src/alerts/matcher.ts';
import { compile } from '../../src/alerts/subindex.ts';
import { hasMarketFilters } from '../../src/alerts/rules.ts';
import type { TweetListItem } from '../../src/api/index.ts';
import { readSnapshot, seedVersion } from '../helpers/schema.ts';

test('version 1 -> 2: every subscription keeps its filters, has no market or keyword filter, and matches as before', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v2-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const before = (await seedVersion(url, 1))
    .filter((r) => r.key.startsWith('sub::') && !r.key.endsWith('_version'))
    .map((r) => (r.value as { value: { id: string; filters: unknown } }).value);
  assert.ok(before.length >= 4, 'the version-1 snapshot has subscriptions');
  const store = await openStore(url);
  t.after(() => store.close());
  assert.equal(store.schema.found, 1);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  assert.ok(SCHEMA_VERSION >= 2);
  const subs = await store.subscriptions.all();
  for (const old of before) {
    const now = subs.find((s) => s.id === old.id)!;
    assert.deepEqual({ ...now.filters }, old.filters, `${old.id} unchanged`);
    assert.equal(hasMarketFilters(now.filters), false);
    assert.equal(now.filters.keywords, undefined);
    assert.equal(now.filters.blockKeywords, undefined);
  }
  // A tweet every open subscription wants still reaches each of them, warning words and all.
  const tweet = {
    id: '9',
    twitter_id: '19',
    content: 'Dev wallet on $CHADB just moved 13% of supply, careful',
    tweeted_at: new Date().toISOString(),
    tweet_type: 'tweet',
    token: { token_address: 'addr', chain_id: 'solana', avg_score: 99, name: 'C', symbol: 'C' },
    x_user: [{ username: 'x', follower_count: 1e6, labels: [], statistic: { ranking_score: 99 } }],
  } as unknown as TweetListItem;
  const held: unknown[] = [];
  const live = subs.filter((s) => !s.disabled && s.pausedUntil === null);
  assert.equal(compile(subs).match(tweetFacts(tweet)!, Date.now(), held as never).length, live.length);
  assert.equal(held.length, 0);
});

test('the version-2 snapshot is what this code writes', async () => {
  const rows = await readSnapshot(SCHEMA_VERSION);
  assert.ok(
    rows.some(
      (r) => r.key === 'meta::schema' && (r.value as { value: { version: number } }).value.version === SCHEMA_VERSION,
    ),
  );
});
