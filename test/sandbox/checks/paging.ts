import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { enc, ok, walkCursor, walkOffset } from '../helpers.ts';

const noRepeats = (ids: number[], label: string) =>
  assert.equal(new Set(ids).size, ids.length, `${label}: repeated items`);

/** paging walks every record once */
export async function checkPaging(t: TestContext, sb: Sandbox): Promise<void> {
  const { tokens, kols, tweets } = sb.data;

  await t.test('offset paging (4.2, 4.5, 4.9, 4.10) covers total without gaps or repeats', async () => {
    const kol = kols.find((k) => new Set(tweets.filter((x) => x.kolId === k.id).flatMap((x) => x.tokenIds)).size > 12)!;
    const cases: Array<[string, number, (x: any) => number, number]> = [
      ['/v2/tokens/analytics', 37, (x) => x.token.id, tokens.length],
      ['/v2/x-users/win-rate', 13, (x) => x.x_user_id, -1],
      ['/v2/x-users/analytics', 29, (x) => x.id, kols.length],
      [`/v2/x-users/${kol.twitter_id}/mindmap`, 5, (x) => x.id, -1],
    ];
    for (const [path, limit, idOf, expected] of cases) {
      const { items, total } = await walkOffset(sb, path, {}, limit);
      noRepeats(items.map(idOf), path);
      assert.equal(items.length, total, path);
      if (expected >= 0) assert.equal(total, expected, path);
      const beyond = await ok(sb, path, { offset: total + 5 });
      assert.deepEqual(beyond.items, []);
      assert.equal(beyond.total, total);
    }
  });

  await t.test('cursor paging (4.3, 4.7, 4.8) reaches a null next_cursor with every record once', async () => {
    const projects = await walkCursor(sb, '/v2/x-users/projects', { limit: 7 });
    noRepeats(
      projects.map((x) => x.id),
      'projects',
    );
    assert.equal(projects.length, kols.length);
    for (let i = 1; i < projects.length; i++)
      assert.ok(projects[i - 1].smart_follower_count >= projects[i].smart_follower_count);

    const tok = tokens.find((x) => tweets.filter((tw) => tw.tokenIds.includes(x.id)).length > 40)!;
    const byToken = await walkCursor(sb, `/v2/tweets/token/${tok.chain_id}/${enc(tok.address)}`, { limit: 9 });
    assert.deepEqual(
      byToken.map((x) => x.id),
      tweets
        .filter((x) => x.tokenIds.includes(tok.id))
        .map((x) => x.id)
        .reverse(),
    );

    const chainOf = new Map(tokens.map((k) => [k.id, k.chain_id]));
    const feed = await walkCursor(sb, '/v2/tweets', { limit: 30, chainId: 'aptos', tweetTypes: ['tweet', 'reply'] });
    const expected = tweets.filter(
      (x) => chainOf.get(x.tokenIds[0]!) === 'aptos' && ['tweet', 'reply'].includes(x.tweet_type),
    );
    assert.deepEqual(
      feed.map((x) => x.id),
      expected.map((x) => x.id).reverse(),
    );
  });

  await t.test('the feed cursor is stable while tweets arrive at the head', async () => {
    const sui = tokens.find((x) => x.chain_id === 'sui')!;
    const chainOf = new Map(tokens.map((k) => [k.id, k.chain_id]));
    const before = tweets
      .filter((x) => chainOf.get(x.tokenIds[0]!) === 'sui')
      .map((x) => x.id)
      .reverse();
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      const body = await ok(sb, '/v2/tweets', { limit: 30, cursor, chainId: 'sui' });
      seen.push(...body.items.map((x: any) => x.id));
      if (page % 5 === 0) sb.addTweets(7, { token: sui.id });
      if (!body.next_cursor) break;
      cursor = body.next_cursor;
    }
    // Everything that existed at the first page shows once, in order, and nothing added later slips in.
    assert.deepEqual(seen, before);
    assert.ok(tweets.length > before.length, 'tweets were added during the walk');
  });

  await t.test('a score-sorted walk neither repeats nor skips while tweets arrive', async () => {
    const snapshot = new Set(tweets.filter((x) => x.tweet_type === 'reply').map((x) => x.id));
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      const body = await ok(sb, '/v2/tweets', {
        limit: 30,
        cursor,
        sortField: 'kolScore',
        sortOrder: 'asc',
        tweetTypes: 'reply',
      });
      seen.push(...body.items.map((x: any) => x.id));
      if (page % 4 === 0) sb.addTweets(5, { tweet_type: 'reply' });
      if (!body.next_cursor) break;
      cursor = body.next_cursor;
    }
    noRepeats(seen, 'kolScore walk');
    const seenSet = new Set(seen);
    for (const id of snapshot) assert.ok(seenSet.has(id), `tweet ${id} skipped`);
  });
}
