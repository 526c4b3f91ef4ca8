import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { enc, get, ok } from '../helpers.ts';

/** live feed, appended tweets, request log and Move addresses */
export async function checkLiveAndLog(t: TestContext, sb: Sandbox): Promise<void> {
  await t.test('the request log records what was asked, never the key', async () => {
    sb.resetRequests();
    const tok = sb.data.tokens.find((x) => x.chain_id === 'sui')!;
    await get(sb, '/v2/tweets', { labels: ['alpha', 'degen'], chainId: ['sui', 'base'], limit: 5 });
    await get(sb, `/v2/tweets/token/sui/${enc(tok.address)}`, { limit: 2 });
    await get(sb, '/v2/x-users/analytics', undefined, {});
    await get(sb, '/v2/unknown?x=1');
    const [a, b, c, d] = sb.requests;
    assert.equal(a!.operation, 'tweets');
    assert.equal(a!.method, 'GET');
    assert.equal(a!.path, '/v2/tweets');
    assert.equal(a!.rawQuery, 'labels=alpha&labels=degen&chainId=sui&chainId=base&limit=5');
    assert.deepEqual(a!.query, { labels: ['alpha', 'degen'], chainId: ['sui', 'base'], limit: ['5'] });
    assert.equal(a!.hasKey, true);
    assert.equal(a!.status, 200);
    assert.equal(b!.operation, 'tweetsByToken');
    assert.equal(b!.path, `/v2/tweets/token/sui/${enc(tok.address)}`, 'path kept raw');
    assert.equal(c!.operation, 'kolTable');
    assert.equal(c!.hasKey, false);
    assert.equal(c!.status, 401);
    assert.equal(d!.operation, 'unknown');
    assert.equal(d!.status, 404);
    assert.ok(!JSON.stringify(sb.requests).includes(sb.apiKey), 'the key is never logged');
    assert.equal(sb.count(), 4);
    assert.equal(sb.count('tweets'), 1);
    assert.equal(sb.count('8'), 1);
    assert.equal(sb.count('kolScore'), 0);
    sb.resetRequests();
    assert.equal(sb.requests.length, 0);
    assert.equal(sb.count(), 0);
    await get(sb, '/v2/tweets');
    assert.equal(sb.count('tweets'), 1);
  });

  await t.test('addTweets appends bursts and tweets with chosen properties', async () => {
    const lastId = sb.data.tweets.at(-1)!.id;
    const burst = sb.addTweets(250);
    assert.equal(burst.length, 250);
    assert.ok(burst.every((x, i) => x.id === lastId + 1 + i));
    const page = await ok(sb, '/v2/tweets', { limit: 30 });
    assert.deepEqual(
      page.items.map((x: any) => x.id),
      burst
        .slice(-30)
        .map((x) => x.id)
        .reverse(),
    );

    const token = sb.data.tokens.find((x) => x.chain_id === 'base')!;
    const kol = sb.data.kols.find((k) => k.labels.includes('alpha'))!;
    const [match] = sb.addTweets(1, {
      token: token.address,
      kol: kol.username,
      tokenScore: 99.5,
      kolScore: 97.25,
      tweet_type: 'quote',
      content: 'custom $X',
    });
    sb.addTweets(1, { token: token.id, kol: kol.twitter_id, tokenScore: 10, kolScore: 97.25 });
    const res = await ok(sb, '/v2/tweets', { minTokenScore: 99, minKolScore: 97, limit: 30 });
    assert.deepEqual(
      res.items.map((x: any) => x.id),
      [match!.id],
    );
    const it = res.items[0];
    assert.equal(it.token.avg_score, 99.5);
    assert.equal(it.token.token_address, token.address);
    assert.equal(it.x_user[0].username, kol.username);
    assert.equal(it.x_user[0].statistic.ranking_score, 97.25);
    assert.equal(it.tweet_type, 'quote');
    assert.equal(it.content, 'custom $X');
    const byToken = await ok(sb, `/v2/tweets/token/base/${enc(token.address.toUpperCase().replace('0X', '0x'))}`, {
      limit: 2,
    });
    assert.equal(byToken.items[1].id, match!.id, 'EVM addresses match in any case');
    assert.throws(() => sb.addTweets(1, { kol: 'nobody_at_all' }));
    assert.throws(() => sb.addTweets(1, { token: 'not-an-address' }));
  });

  await t.test('Move addresses with "::" round-trip through path parameters', async () => {
    for (const chain of ['sui', 'aptos'] as const) {
      const tok = sb.data.tokens.find(
        (x) => x.chain_id === chain && sb.data.tweets.some((tw) => tw.tokenIds.includes(x.id)),
      )!;
      assert.ok(tok.address.includes('::'));
      for (const addr of [enc(tok.address), tok.address]) {
        const mm = await ok(sb, `/v2/tokens/${chain}/${addr}/mindmap`, { timeFrame: 720 });
        assert.equal(mm.tokens[String(tok.id)].address, tok.address);
        const tw = await ok(sb, `/v2/tweets/token/${chain}/${addr}`, { limit: 1 });
        assert.equal(tw.items.length, 1);
        assert.ok(tw.items[0].highlights.some((h: any) => h.token.token_address === tok.address));
      }
    }
    assert.equal((await get(sb, '/v2/tokens/sui/%E0%A4%A/mindmap')).status, 400, 'broken percent-encoding');
  });

  await t.test('live mode keeps the feed moving', async (st) => {
    const head = (await ok(sb, '/v2/tweets', { limit: 1 })).items[0];
    // The feed's timer and clock, mocked: 400 ms pass at once and exactly.
    st.mock.timers.enable({ apis: ['setInterval', 'Date'], now: Date.now() });
    const started = Date.now();
    const before = sb.data.tweets.length;
    sb.setLive({ tweetsPerSecond: 40 });
    st.mock.timers.tick(400);
    const fresh = sb.data.tweets.slice(before);
    assert.equal(fresh.length, 16, '400 ms at 40/s');
    for (const x of fresh)
      assert.ok(x.tweetedMs > started && x.tweetedMs <= Date.now(), 'stamped with the clock of their moment');
    sb.setLive(false);
    st.mock.timers.tick(1_000);
    assert.equal(sb.data.tweets.length, before + 16, 'setLive(false) stops it');
    st.mock.timers.reset();
    const after = (await ok(sb, '/v2/tweets', { limit: 30 })).items;
    assert.ok(after[0].id > head.id, 'new tweets at the head');
    assert.deepEqual(
      after
        .slice(0, 16)
        .map((x: any) => x.id)
        .sort(),
      fresh.map((x) => x.id).sort(),
    );
  });
}
