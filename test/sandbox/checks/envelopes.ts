import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { enc, ok } from '../helpers.ts';
import {
  ANALYTICS,
  KOL_PROJECT,
  KOL_SCORE,
  KOL_TABLE,
  MINDMAP,
  MOMENTUM,
  SUMMARY,
  TOKEN_SUMMARY,
  TWEET_BY_TOKEN,
  TWEET_LIST,
  TWEET_LIST_MINIMAL,
  WIN_RATE,
  arrayOf,
  check,
} from '../shapes.ts';

/** envelopes and records match the spec field by field */
export async function checkEnvelopes(t: TestContext, sb: Sandbox): Promise<void> {
  const { tokens, kols, tweets } = sb.data;
  const perKol = new Map<number, number>();
  for (const x of tweets) perKol.set(x.kolId, (perKol.get(x.kolId) ?? 0) + 1);
  const busiestKol = [...kols].sort((a, b) => (perKol.get(b.id) ?? 0) - (perKol.get(a.id) ?? 0))[0]!;
  const hotToken = tokens.find((x) => x.id === tweets.at(-1)!.tokenIds[0])!;
  const tokPath = `${hotToken.chain_id}/${enc(hotToken.address)}`;
  const kolId = busiestKol.twitter_id;

  await t.test('4.1 token mindmap', async () => {
    const b = await ok(sb, `/v2/tokens/${tokPath}/mindmap`, { timeFrame: 72 });
    check(b, MINDMAP);
    assert.equal(b.nodes[0].id, hotToken.id, 'the token itself is the first node');
    assert.ok(b.nodes.length > 1, 'a busy token has neighbours');
    for (const e of b.edges) assert.ok(String(e.target) in b.tokens && String(e.source) in b.tokens);
  });

  await t.test('4.2 token analytics', async () => {
    const b = await ok(sb, '/v2/tokens/analytics');
    check(b, { items: arrayOf(ANALYTICS), total: 'int', new_token_count24h: 'int' });
    assert.equal(b.items.length, 20);
    assert.equal(b.total, tokens.length);
  });

  await t.test('4.3 KOL projects', async () => {
    const b = await ok(sb, '/v2/x-users/projects');
    check(b, { items: arrayOf(KOL_PROJECT), next_cursor: 'str' });
    assert.equal(b.items.length, 10);
  });

  await t.test('4.4 KOL token momentum', async () => {
    const b = await ok(sb, `/v2/x-users/${kolId}/tokens`);
    check(b, { items: arrayOf(MOMENTUM), total: 'int', summary: SUMMARY });
    assert.ok(b.items.length > 0 && b.total === b.items.length);
  });

  await t.test('4.5 win-rate table', async () => {
    const b = await ok(sb, '/v2/x-users/win-rate');
    check(b, { items: arrayOf(WIN_RATE), total: 'int' });
    assert.equal(b.items.length, 10);
    for (const it of b.items) assert.equal(it.x_user_id, it.x_user.id);
  });

  await t.test('4.6 KOL score', async () => {
    check(await ok(sb, `/v2/x-users/${kolId}/score`), KOL_SCORE);
  });

  await t.test('4.7 tweets by token', async () => {
    const b = await ok(sb, `/v2/tweets/token/${tokPath}`);
    check(b, { items: arrayOf(TWEET_BY_TOKEN), next_cursor: 'str' });
    for (const it of b.items) {
      assert.ok(
        it.highlights.some((h: any) => h.token_id === hotToken.id && h.token.token_address === hotToken.address),
      );
      assert.equal(it.x_user.id, it.x_user_id);
      assert.equal(it.x_user.statistic.x_user_id, it.x_user_id);
    }
  });

  await t.test('4.8 tweets', async () => {
    const b = await ok(sb, '/v2/tweets');
    check(b, { items: arrayOf(TWEET_LIST), next_cursor: 'str' });
    for (const it of b.items) {
      assert.equal(it.x_user.length, 1);
      assert.deepEqual(it.token, it.tokens[0]);
      assert.deepEqual(
        it.highlights.map((h: any) => h.token_id),
        it.tokens.map((x: any) => x.id),
      );
      const kol = kols.find((k) => k.id === it.x_user[0].id)!;
      assert.equal(it.x_user[0].twitter_id, kol.twitter_id);
    }
  });

  await t.test(
    '4.8 tweets with spec-minimal authors (authors: minimal, mix); op 7 still names each author in full',
    async () => {
      try {
        sb.setAuthors('minimal');
        const lean = await ok(sb, '/v2/tweets', { limit: 6 });
        check(lean, { items: arrayOf(TWEET_LIST_MINIMAL()), next_cursor: 'str' });
        sb.setAuthors('mix');
        const mixed = await ok(sb, '/v2/tweets', { limit: 6 });
        for (const it of mixed.items) check(it, it.id % 2 === 1 ? TWEET_LIST_MINIMAL() : TWEET_LIST, `tweet ${it.id}`);
        const first = lean.items[0];
        const full = await ok(sb, `/v2/tweets/token/${first.token.chain_id}/${enc(first.token.token_address)}`, {
          limit: 30,
        });
        const same = full.items.find((x: any) => x.id === first.id);
        assert.equal(same.x_user.username, first.x_user[0].username);
        assert.equal(typeof same.x_user.statistic.ranking_score, 'number');
      } finally {
        sb.setAuthors('full');
      }
    },
  );

  await t.test('4.9 KOL table', async () => {
    const b = await ok(sb, '/v2/x-users/analytics', { limit: 7, offset: 3 });
    check(b, { items: arrayOf(KOL_TABLE), total: 'int', meta: { limit: 'int', offset: 'int' } });
    assert.deepEqual(b.meta, { limit: 7, offset: 3 });
  });

  await t.test('4.10 KOL mindmap', async () => {
    const b = await ok(sb, `/v2/x-users/${kolId}/mindmap`);
    check(b, { items: arrayOf(TOKEN_SUMMARY), total: 'int' });
    assert.ok(b.total >= b.items.length && b.items.length > 0);
  });
}

/** generated data looks like a real market */
export async function checkMarket(t: TestContext, sb: Sandbox): Promise<void> {
  const { tokens, kols, tweets, edge } = sb.data;
  assert.ok(tokens.length >= 300 && kols.length >= 150 && tweets.length >= 5000);
  const formats: Record<string, RegExp> = {
    solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
    bsc: /^0x[0-9a-f]{40}$/,
    base: /^0x[0-9a-f]{40}$/,
    sui: /^0x[0-9a-f]{64}::[a-z0-9_]+::[A-Z0-9_]+$/,
    aptos: /^0x[0-9a-f]{64}::[a-z0-9_]+::[A-Z0-9_]+$/,
  };
  for (const chain of Object.keys(formats)) assert.ok(tokens.filter((x) => x.chain_id === chain).length >= 50, chain);
  for (const tok of tokens) assert.match(tok.address, formats[tok.chain_id]!, `${tok.chain_id} ${tok.address}`);
  assert.equal(new Set(tokens.map((x) => `${x.chain_id}:${x.address}`)).size, tokens.length);
  for (const k of kols) assert.match(k.twitter_id, /^\d{19}$/);
  assert.equal(new Set(kols.map((k) => k.username.toLowerCase())).size, kols.length);
  const labels = new Set(kols.flatMap((k) => k.labels));
  for (const l of ['alpha', 'degen', 'memecoin', 'nft', 'defi', 'trader', 'influencer']) assert.ok(labels.has(l), l);
  assert.deepEqual(new Set(tweets.map((x) => x.tweet_type)), new Set(['tweet', 'reply', 'quote', 'retweet']));
  for (let i = 1; i < tweets.length; i++) {
    assert.ok(
      tweets[i]!.id > tweets[i - 1]!.id && tweets[i]!.tweetedMs >= tweets[i - 1]!.tweetedMs,
      'ids grow with time',
    );
  }

  const all = await ok(sb, '/v2/tokens/analytics', { limit: 100, sortField: 'market_cap', sortOrder: 'ASC' });
  assert.equal(all.items[0].marketcap, 0, 'some tokens have no market cap');
  const caps = tokens.map((x) => x.marketcap).sort((a, b) => a - b);
  const top: number = (await ok(sb, '/v2/tokens/analytics', { limit: 1, sortField: 'market_cap' })).items[0].marketcap;
  assert.equal(top, caps.at(-1));
  assert.ok(top > 1000 * caps[Math.floor(caps.length / 2)]!, 'market caps have a long tail');
  const text = JSON.stringify(all);
  assert.doesNotMatch(text, /\d\.\d*0000000\d|9999999\d/, 'no float noise');

  const kol = kols.find((k) => tweets.some((x) => x.kolId === k.id))!;
  const momentum = await ok(sb, `/v2/x-users/${kol.twitter_id}/tokens`);
  const prices: string[] = momentum.items.flatMap((x: any) =>
    Object.entries(x)
      .filter(([k]) => k.startsWith('price_'))
      .map(([, v]) => v),
  );
  for (const p of prices) assert.match(p, /^\d+\.\d+$/);
  const allPrices: string[] = [];
  for (const k of kols.slice(0, 40)) {
    for (const it of (await ok(sb, `/v2/x-users/${k.twitter_id}/tokens`)).items) allPrices.push(it.price_init);
  }
  assert.ok(
    allPrices.some((p) => /^0\.0{6,}[1-9]/.test(p)),
    'tiny prices appear as plain decimals',
  );

  await t.test('awkward records survive the round trip unchanged', async () => {
    const cjk = await ok(sb, '/v2/tokens/analytics', { tokenAddress: edge.cjkToken.address });
    assert.equal(cjk.items[0].token.name, edge.cjkToken.name);
    assert.match(edge.cjkToken.name, /\p{Script=Han}/u);
    assert.match(edge.cjkToken.name, /\p{Extended_Pictographic}/u);
    const html = await ok(sb, `/v2/tokens/${edge.htmlToken.chain_id}/${enc(edge.htmlToken.address)}/mindmap`, {
      timeFrame: 720,
    });
    const served = html.tokens[String(edge.htmlToken.id)];
    assert.equal(served.name, edge.htmlToken.name);
    for (const ch of ['<b>', '&', '"', "'"])
      assert.ok(served.name.includes(ch) && (ch === '<b>' || served.symbol.includes(ch)), ch);
    const rtl = await ok(sb, '/v2/x-users/analytics', { search: edge.rtlKol.username });
    assert.equal(rtl.items[0].display_name, edge.rtlKol.display_name);
    assert.match(edge.rtlKol.display_name, /\p{Script=Arabic}/u);
    assert.ok(edge.rtlKol.display_name.includes('@everyone'));
    const long = edge.longTweet;
    assert.equal(long.content.length, 5000);
    const tok = tokens.find((x) => x.id === long.tokenIds[0])!;
    let found: any;
    let cursor: string | undefined;
    while (!found) {
      const page = await ok(sb, `/v2/tweets/token/${tok.chain_id}/${enc(tok.address)}`, { limit: 30, cursor });
      found = page.items.find((x: any) => x.id === long.id);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    assert.equal(found?.content, long.content);
  });
}
