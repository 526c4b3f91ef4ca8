import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CardView } from '../../src/domain/view.ts';
import { asCard, asError, harness } from './harness.ts';

const h = await harness();
after(() => h.close());

const { tweets, kols, tokens } = h.sandbox.data;
const byTwitterId = new Map(tweets.map((t) => [t.twitter_id, t]));
const kolById = new Map(kols.map((k) => [k.id, k]));
const tokenById = new Map(tokens.map((t) => [t.id, t]));

/** The sandbox tweets behind a tweet card, through the links to X. */
function shown(card: CardView) {
  return (card.fields ?? []).map((f) => {
    const link = [...(f.value as readonly unknown[])].find(
      (s): s is { url: string } => typeof s === 'object' && s !== null && 'url' in s,
    );
    const id = /\/status\/(\d+)$/.exec(link?.url ?? '')?.[1];
    const tweet = id ? byTwitterId.get(id) : undefined;
    assert.ok(tweet, `no sandbox tweet behind ${link?.url}`);
    return tweet;
  });
}

test('the feed filters by chain, tweet type, KOL score and followers', async () => {
  const base = shown(asCard(await h.send('/tweets chains:base limit:10')));
  assert.equal(base.length, 10);
  assert.ok(base.every((t) => tokenById.get(t.tokenIds[0]!)!.chain_id === 'base'));
  const replies = asCard(await h.send('/tweets types:reply limit:10'));
  assert.ok(shown(replies).every((t) => t.tweet_type === 'reply'));
  assert.ok(replies.fields!.every((f) => f.name.endsWith('· reply')));
  // A bar most tweets miss: the 80th percentile of KOL scores.
  const bar = Math.floor([...tweets].map((t) => t.kolScore).sort((a, b) => a - b)[Math.floor(tweets.length * 0.8)]!);
  const scored = shown(asCard(await h.send(`/tweets min_kol_score:${bar} min_followers:10k limit:10`)));
  assert.equal(scored.length, 10);
  for (const t of scored) {
    assert.ok(t.kolScore >= bar, `kol score ${t.kolScore} below ${bar}`);
    assert.ok(kolById.get(t.kolId)!.follower_count >= 10_000);
  }
});

test('the feed is newest first and Next carries on where the page ended; Previous goes back', async () => {
  const first = asCard(await h.send('/tweets limit:3'));
  const newest = [...tweets].sort((a, b) => b.tweetedMs - a.tweetedMs || b.id - a.id).slice(0, 6);
  assert.deepEqual(
    shown(first).map((t) => t.id),
    newest.slice(0, 3).map((t) => t.id),
  );
  const second = asCard(await h.press(first, 'Next'));
  assert.deepEqual(
    shown(second).map((t) => t.id),
    newest.slice(3, 6).map((t) => t.id),
  );
  const back = asCard(await h.press(second, 'Previous'));
  assert.deepEqual(
    shown(back).map((t) => t.id),
    newest.slice(0, 3).map((t) => t.id),
  );
  const sorted = shown(asCard(await h.send('/tweets sort:followers limit:5'))).map(
    (t) => kolById.get(t.kolId)!.follower_count,
  );
  assert.ok(sorted.every((f, i) => i === 0 || sorted[i - 1]! >= f));
});

test('/tweets <chain> <address> lists the tweets about that token', async () => {
  const token = tokens.find((t) => t.chain_id === 'sui' && tweets.filter((x) => x.tokenIds.includes(t.id)).length > 6)!;
  const card = asCard(await h.send(`/tweets sui ${token.address} limit:4`));
  assert.equal(card.title, `Tweets about $${token.symbol} on sui`);
  const list = shown(card);
  assert.equal(list.length, 4);
  assert.ok(list.every((t) => t.tokenIds.includes(token.id)));
  const expected = tweets
    .filter((t) => t.tokenIds.includes(token.id))
    .sort((a, b) => b.tweetedMs - a.tweetedMs || b.id - a.id);
  assert.deepEqual(
    list.map((t) => t.id),
    expected.slice(0, 4).map((t) => t.id),
  );
  const next = shown(asCard(await h.press(card, 'Next')));
  assert.deepEqual(
    next.map((t) => t.id),
    expected.slice(4, 8).map((t) => t.id),
  );
  const ranked = shown(asCard(await h.send(`/tweets sui ${token.address} sort:ranking`))).map(
    (t) => kolById.get(t.kolId)!.stat.ranking_score,
  );
  assert.ok(ranked.every((r, i) => i === 0 || ranked[i - 1]! >= r));
});

test('options that do not fit the chosen view are explained', async () => {
  const token = tokens.find((t) => t.chain_id === 'solana')!;
  assert.match(asError(await h.send(`/tweets solana ${token.address} types:reply`)).message, /^types filters the feed/);
  assert.match(asError(await h.send('/tweets sort:ranking')).message, /^The feed sorts by newest/);
  assert.match(asError(await h.send('/tweets chains:solana,eth')).message, /Unknown chain 'eth'/);
  const empty = asCard(await h.send('/tweets solana 11111111111111111111111111111111'));
  assert.match(String(empty.description), /^No tweets about/);
});
