import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TweetListItem } from '../../src/api/index.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { DEFAULT_FILTERS } from '../../src/alerts/filters.ts';
import { loosestFilters, tweetFacts } from '../../src/alerts/matcher.ts';
import { compile } from '../../src/alerts/subindex.ts';
import type { Subscription } from '../../src/store/subscriptions.ts';

const users = ['alice', 'bob', 'carol'];
const labels = ['alpha', 'degen', 'nft'];
const words = ['moon', 'rug', '$wif', '跑路'];
const NOW = 1_800_000_000_000;

// Thresholds mostly from a few values, as real subscriptions keep the defaults: many share a cell.
const specArb = fc.record({
  chains: fc.oneof(
    { arbitrary: fc.constant([]), weight: 3 },
    { arbitrary: fc.subarray([...CHAINS.slice(0, 3)]), weight: 1 },
  ),
  minTokenScore: fc.oneof(
    { arbitrary: fc.constantFrom(50, 50.5, 70), weight: 6 },
    { arbitrary: fc.double({ min: 0, max: 100, noNaN: true }), weight: 1 },
  ),
  minKolScore: fc.oneof(
    { arbitrary: fc.constantFrom(60, 65), weight: 6 },
    { arbitrary: fc.integer({ min: 0, max: 100 }), weight: 1 },
  ),
  minFollowers: fc.constantFrom(0, 1000, 10_000),
  labels: fc.subarray(labels),
  tweetTypes: fc.subarray(['tweet', 'quote', 'reply']),
  allowKols: fc.subarray(users),
  denyKols: fc.subarray(users),
  keywords: fc.subarray(words),
  blockKeywords: fc.subarray(words),
  paused: fc.constantFrom(null, NOW - 1, NOW + 1),
  disabled: fc.boolean(),
  muted: fc.boolean(),
  start: fc.constantFrom(null, '2026-11-22T09:00:00.000Z', '2026-11-22T10:00:00.000Z', '2026-11-22T11:00:00.000Z'),
});
type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

function subOf(id: string, s: Spec): Subscription {
  const { paused, disabled, muted, start, ...f } = s;
  return {
    id,
    platform: 'telegram',
    chatId: id,
    isGroup: true,
    filters: { ...DEFAULT_FILTERS, ...f },
    mutedTokens: muted ? [`${f.chains[0] ?? CHAINS[0]}:addr`] : [],
    pausedUntil: paused,
    startAfter: start ? { tweetedAt: start, id: '5' } : null,
    disabled: disabled ? { reason: 'gone', at: 0 } : null,
    createdBy: 'u',
    createdAt: 0,
    updatedAt: 0,
  };
}

const tweetArb = fc.record({
  id: fc.constantFrom('4', '5', '6'),
  chain: fc.constantFrom(...CHAINS.slice(0, 3)),
  tokenScore: fc.oneof(fc.constantFrom(50, 50.5, 80), fc.double({ min: 0, max: 100, noNaN: true })),
  kolScore: fc.option(fc.oneof(fc.constantFrom(62, 70), fc.integer({ min: 0, max: 100 }))),
  followers: fc.option(fc.integer({ min: 0, max: 20_000 })),
  username: fc.constantFrom(...users),
  labels: fc.option(fc.subarray(labels)),
  type: fc.constantFrom('tweet', 'quote', 'reply'),
  content: fc.constantFrom('gm', 'to the moon', '$WIF rug?', '开发者准备跑路了'),
});

function factsOf(t: typeof tweetArb extends fc.Arbitrary<infer T> ? T : never) {
  const tweet = {
    id: t.id,
    content: t.content,
    tweeted_at: '2026-11-22T10:00:00.000Z',
    tweet_type: t.type,
    token: { token_address: 'addr', chain_id: t.chain, avg_score: t.tokenScore },
    x_user: [{ username: t.username }],
  } as unknown as TweetListItem; // only the fields the matcher reads
  return tweetFacts(tweet, {
    kolScore: t.kolScore,
    followers: t.followers,
    labels: t.labels,
    username: t.username,
    displayName: null,
  })!;
}

/** What an index answers for a tweet: the ids it matches and the ids it holds, each sorted. */
function answer(index: ReturnType<typeof compile>, facts: ReturnType<typeof factsOf>) {
  const held: Subscription[] = [];
  const got = index.match(facts, NOW, held).map((s) => s.id);
  return { got: got.sort(), held: held.map((s) => s.id).sort() };
}

const opArb = fc.oneof(
  fc.record({ put: fc.integer({ min: 0, max: 15 }), spec: specArb }),
  fc.record({ remove: fc.integer({ min: 0, max: 15 }) }),
);

test('an index changed one subscription at a time matches exactly what a full recompile matches', () => {
  fc.assert(
    fc.property(
      fc.array(specArb, { maxLength: 12 }),
      fc.array(opArb, { minLength: 1, maxLength: 30 }),
      fc.array(tweetArb, { minLength: 1, maxLength: 6 }),
      (start, ops, tweets) => {
        const model = new Map(start.map((s, i) => [`s${i}`, subOf(`s${i}`, s)]));
        const index = compile(model.values());
        for (const op of ops) {
          if ('put' in op) {
            const s = subOf(`s${op.put}`, op.spec);
            model.set(s.id, s);
            index.put(s);
          } else {
            const id = `s${op.remove}`;
            assert.equal(index.remove(id), model.has(id) && !model.get(id)!.disabled);
            model.delete(id);
          }
        }
        const full = compile(model.values());
        const live = [...model.values()].filter((s) => !s.disabled);
        assert.equal(index.size, live.length);
        assert.deepEqual([...index.live()].map((s) => s.id).sort(), live.map((s) => s.id).sort());
        assert.deepEqual(index.loosest(), loosestFilters(live));
        for (const t of tweets) {
          const facts = factsOf(t);
          assert.deepEqual(answer(index, facts), answer(full, facts), JSON.stringify(t));
        }
      },
    ),
    { numRuns: 800 },
  );
});

test('a subscription changed in place is matched by its new filters only, once', () => {
  const base: Spec = {
    chains: [],
    minTokenScore: 0,
    minKolScore: 0,
    minFollowers: 0,
    labels: [],
    tweetTypes: [],
    allowKols: [],
    denyKols: [],
    keywords: [],
    blockKeywords: [],
    paused: null,
    disabled: false,
    muted: false,
    start: null,
  };
  const index = compile([subOf('a', base), subOf('b', base)]);
  const facts = factsOf({
    id: '6',
    chain: CHAINS[0]!,
    tokenScore: 50,
    kolScore: 50,
    followers: 100,
    username: 'alice',
    labels: [],
    type: 'tweet',
    content: 'gm',
  });
  assert.deepEqual(answer(index, facts).got, ['a', 'b']);
  index.put(subOf('a', { ...base, minTokenScore: 60 }));
  assert.deepEqual(answer(index, facts).got, ['b']);
  index.put(subOf('a', { ...base, chains: [CHAINS[0]!, CHAINS[1]!] }));
  index.put(subOf('a', { ...base, chains: [CHAINS[0]!, CHAINS[1]!] }));
  assert.deepEqual(answer(index, facts).got, ['a', 'b']);
  index.put(subOf('b', { ...base, disabled: true }));
  assert.deepEqual(answer(index, facts).got, ['a']);
  assert.equal(index.size, 1);
});
