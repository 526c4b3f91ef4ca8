import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TweetListItem } from '../../src/api/index.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { DEFAULT_FILTERS, toSubscribeLine } from '../../src/alerts/filters.ts';
import type { AlertFilters } from '../../src/store/subscriptions.ts';
import { compareIds, isAfter, loosestFilters, tweetFacts, type TweetFacts } from '../../src/alerts/matcher.ts';
import { compile } from '../../src/alerts/subindex.ts';
import type { Subscription } from '../../src/store/subscriptions.ts';

function tweet(p: {
  id: string;
  chain: string;
  tokenScore: number;
  kolScore: number;
  followers: number;
  username: string;
  labels: string[];
  type: string;
  address?: string;
  content?: string;
}): TweetListItem {
  return {
    id: p.id,
    twitter_id: `1${p.id.padStart(18, '0')}`,
    content: p.content ?? 'gm',
    tweeted_at: '2026-11-22T10:00:00.000Z',
    tweet_type: p.type,
    token: {
      id: '1',
      name: 'T',
      symbol: 'T',
      token_address: p.address ?? 'addr',
      icon_url: '',
      chain_id: p.chain,
      token_score: 0,
      score: 0,
      score_v2: 0,
      avg_score: p.tokenScore,
      avg_score_v2: 0,
      change1h: 0,
      change24h: 0,
      sentiment: 0,
    },
    x_user: [
      { username: p.username, follower_count: p.followers, labels: p.labels, statistic: { ranking_score: p.kolScore } },
    ],
  } as unknown as TweetListItem; // only the fields the matcher reads
}

function sub(id: string, f: Partial<AlertFilters>, extra: Partial<Subscription> = {}): Subscription {
  return {
    id,
    platform: 'telegram',
    chatId: id,
    isGroup: true,
    filters: { ...DEFAULT_FILTERS, ...f },
    mutedTokens: [],
    pausedUntil: null,
    startAfter: null,
    disabled: null,
    createdBy: 'u',
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

/** The facts of an ordinary tweet on Solana that every open filter lets through, with `over` changed. */
const openFacts = (over: Partial<Parameters<typeof tweet>[0]> = {}) =>
  tweetFacts(
    tweet({
      id: '1',
      chain: 'solana',
      tokenScore: 50,
      kolScore: 50,
      followers: 10,
      username: 'x',
      labels: [],
      type: 'tweet',
      ...over,
    }),
  )!;

/** The obvious, slow definition the index must agree with. */
function naive(subs: Subscription[], t: TweetFacts, now: number): string[] {
  return subs
    .filter((s) => {
      const f = s.filters;
      return (
        !s.disabled &&
        !(s.pausedUntil !== null && s.pausedUntil > now) &&
        (f.chains.length === 0 || f.chains.includes(t.chain as never)) &&
        t.tokenScore >= f.minTokenScore &&
        t.kolScore! >= f.minKolScore &&
        t.followers! >= f.minFollowers &&
        (f.tweetTypes.length === 0 || f.tweetTypes.includes(t.tweetType)) &&
        (f.labels.length === 0 || f.labels.some((l) => t.labels!.includes(l))) &&
        (f.allowKols.length === 0 || f.allowKols.includes(t.username)) &&
        !f.denyKols.includes(t.username) &&
        !s.mutedTokens.includes(t.tokenKey)
      );
    })
    .map((s) => s.id)
    .sort();
}

test('the compiled index matches exactly what the plain filter definition matches', () => {
  const users = ['alice', 'bob', 'carol'];
  const labels = ['alpha', 'degen', 'nft'];
  const filtersArb = fc.record({
    chains: fc.subarray([...CHAINS]),
    minTokenScore: fc.integer({ min: 0, max: 100 }),
    minKolScore: fc.integer({ min: 0, max: 100 }),
    minFollowers: fc.constantFrom(0, 1000, 10_000, 100_000),
    labels: fc.subarray(labels),
    tweetTypes: fc.subarray(['tweet', 'quote', 'reply']),
    allowKols: fc.subarray(users),
    denyKols: fc.subarray(users),
    cooldownMinutes: fc.constant(0),
  });
  const subArb = fc.record({ f: filtersArb, paused: fc.boolean(), disabled: fc.boolean(), muted: fc.boolean() });
  const tweetArb = fc.record({
    chain: fc.constantFrom(...CHAINS),
    tokenScore: fc.integer({ min: 0, max: 100 }),
    kolScore: fc.integer({ min: 0, max: 100 }),
    followers: fc.integer({ min: 0, max: 200_000 }),
    username: fc.constantFrom(...users),
    labels: fc.subarray(labels),
    type: fc.constantFrom('tweet', 'quote', 'reply'),
  });
  fc.assert(
    fc.property(
      fc.array(subArb, { maxLength: 40 }),
      fc.array(tweetArb, { minLength: 1, maxLength: 10 }),
      (specs, tweets) => {
        const now = 1000;
        const subs = specs.map((s, i) =>
          sub(`s${i}`, s.f, {
            pausedUntil: s.paused ? now + 1 : null,
            disabled: s.disabled ? { reason: 'x', at: 0 } : null,
            mutedTokens: s.muted ? [`${s.f.chains[0] ?? 'solana'}:addr`] : [],
          }),
        );
        const index = compile(subs);
        tweets.forEach((tw, i) => {
          const facts = tweetFacts(tweet({ id: String(i + 1), ...tw }))!;
          assert.deepEqual(
            index
              .match(facts, now)
              .map((m) => m.id)
              .sort(),
            naive(subs, facts, now),
          );
        });
      },
    ),
    { numRuns: 300 },
  );
});

test('the loosest server-side filters never exclude a tweet some subscription wants', () => {
  const subs = [
    sub('a', { chains: ['solana'], minTokenScore: 80, minKolScore: 50, tweetTypes: ['tweet'] }),
    sub('b', { chains: ['base'], minTokenScore: 60, minKolScore: 70, minFollowers: 500 }),
  ];
  assert.deepEqual(loosestFilters(subs), {
    minTokenScore: 60,
    minKolScore: 50,
    minFollowerCount: 500,
    chainId: ['base', 'solana'],
  });
  assert.deepEqual(
    loosestFilters([...subs, sub('c', { minTokenScore: 0, minKolScore: 0, minFollowers: 0 })]),
    {},
    'one open subscription opens the fetch',
  );
});

test('feed positions compare by time, then by id as exact 64-bit strings', () => {
  assert.ok(compareIds('18446744073709551615', '18446744073709551614') > 0);
  assert.ok(compareIds('9', '10') < 0);
  assert.ok(isAfter({ tweetedAt: '2026-01-01T00:00:01Z', id: '1' }, { tweetedAt: '2026-01-01T00:00:00Z', id: '9' }));
  assert.ok(
    isAfter(
      { tweetedAt: '2026-01-01T00:00:00Z', id: '9007199254740993' },
      { tweetedAt: '2026-01-01T00:00:00Z', id: '9007199254740992' },
    ),
  );
});

test('the /subscribe line leaves defaults out and lists the rest', () => {
  assert.equal(toSubscribeLine(DEFAULT_FILTERS), '/subscribe');
  assert.equal(
    toSubscribeLine({ ...DEFAULT_FILTERS, chains: ['sui'], minKolScore: 0, denyKols: ['x'] }),
    '/subscribe chains:sui kol_score:0 except:x',
  );
});

test('more distinct labels than bits still match exactly', () => {
  const subs = Array.from({ length: 40 }, (_, i) =>
    sub(`s${i}`, { minTokenScore: 0, minKolScore: 0, minFollowers: 0, labels: [`label${i}`] }),
  );
  const index = compile(subs);
  for (const i of [0, 31, 32, 39]) {
    const facts = openFacts({ labels: [`label${i}`] });
    assert.deepEqual(
      index.match(facts, 0).map((s) => s.id),
      [`s${i}`],
    );
  }
});

/** Words as a reader would find them: split on anything but letters, digits, `_` and `$`. */
function plainWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_$]+/u)
    .flatMap((w) => w.split(/(?=\$)/))
    .filter((w) => w !== '' && w !== '$');
}

/** A keyword is said when the text has it as a word; `chadb` also matches the ticker `$chadb`. */
function says(text: string, keyword: string): boolean {
  const words = plainWords(text);
  return words.includes(keyword) || (!keyword.startsWith('$') && words.includes(`$${keyword}`));
}

test('keyword lists: the index passes and holds exactly what the plain definition says', () => {
  const vocab = ['moon', 'rug', '$chadb', 'chadb', 'careful', 'dev'];
  const texts = [
    'Dev wallet on $CHADB just moved 13% of supply, careful',
    'CHADB to the moon',
    'gm, nothing to see',
    'rugpull? no: $moon is fine',
    'MOON moon $Rug',
  ];
  const filtersArb = fc.record({
    keywords: fc.subarray(vocab),
    blockKeywords: fc.subarray(vocab),
    allowKols: fc.constantFrom([], ['alice']),
  });
  fc.assert(
    fc.property(
      fc.array(filtersArb, { maxLength: 30 }),
      fc.constantFrom(...texts),
      fc.boolean(),
      (specs, content, alice) => {
        const subs = specs.map((f, i) => sub(`s${i}`, { ...f, minTokenScore: 0, minKolScore: 0, minFollowers: 0 }));
        const facts = openFacts({ username: alice ? 'alice' : 'bob', content });
        const held: Subscription[] = [];
        const got = compile(subs)
          .match(facts, 0, held)
          .map((s) => s.id)
          .sort();
        const wanted = subs.filter((s) => {
          const f = s.filters;
          return (
            (f.allowKols.length === 0 || f.allowKols.includes(facts.username)) &&
            (!f.keywords?.length || f.keywords.some((k) => says(content, k)))
          );
        });
        const blocked = (s: Subscription) => (s.filters.blockKeywords ?? []).some((k) => says(content, k));
        assert.deepEqual(
          got,
          wanted
            .filter((s) => !blocked(s))
            .map((s) => s.id)
            .sort(),
          content,
        );
        assert.deepEqual(
          held.map((s) => s.id).sort(),
          wanted
            .filter(blocked)
            .map((s) => s.id)
            .sort(),
          `held: ${content}`,
        );
      },
    ),
    { numRuns: 300 },
  );
});

test('a keyword in a script written without spaces is found inside the text', () => {
  const subs = [sub('zh', { minTokenScore: 0, minKolScore: 0, minFollowers: 0, blockKeywords: ['跑路'] })];
  const t = (content: string) => openFacts({ content });
  const held: Subscription[] = [];
  assert.deepEqual(compile(subs).match(t('开发者准备跑路了'), 0, held), []);
  assert.deepEqual(
    held.map((s) => s.id),
    ['zh'],
  );
  assert.deepEqual(
    compile(subs)
      .match(t('冲冲冲'), 0)
      .map((s) => s.id),
    ['zh'],
  );
});

test('the /subscribe line writes the market and keyword filters back as typed', () => {
  assert.equal(
    toSubscribeLine({
      ...DEFAULT_FILTERS,
      minMarketCap: 100_000,
      maxAgeDays: 0.25,
      keywords: ['$wif'],
      blockKeywords: ['rug', 'careful'],
    }),
    '/subscribe min_mcap:100000 max_age:6h keywords:$wif block:rug,careful',
  );
  assert.equal(
    toSubscribeLine({ ...DEFAULT_FILTERS, maxAgeDays: 30 / 1440, minLiquidity: 5000 }),
    '/subscribe min_liquidity:5000 max_age:30m',
  );
});
