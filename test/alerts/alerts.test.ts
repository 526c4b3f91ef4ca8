import { after, before, describe, test as nodeTest, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { alertHarness as harness, caller, titleOf } from './harness.ts';
import { REDIS_SKIP, redisAvailable, startRedis, type RedisServer } from '../helpers/redis.ts';
import type { AuthorShape } from '../../src/sandbox/server.ts';
import { usd } from '../../src/i18n/english.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };

const text = (v: unknown) => JSON.stringify(v);

/**
 * The same suite on each store backend, SQLite (the default) and Redis (several
 * instances), and on each shape of feed author the sandbox serves: full records,
 * spec-minimal ones (id and username only) and a mix.
 */
function suite(
  kind: 'sqlite' | 'redis',
  storeUrl: () => string | undefined,
  skip: string | false,
  authors: AuthorShape,
) {
  let db = 0;
  const alertHarness = (t: TestContext, o: { pageSize?: number; authors?: AuthorShape } = {}) => {
    const url = storeUrl();
    // A Redis database per test (0-15): tests stay independent without flushing.
    return harness(t, { authors, ...o, ...(url ? { storeUrl: `${url}/${++db}` } : {}) });
  };
  const test = (name: string, fn: (t: TestContext) => Promise<void>) =>
    nodeTest(`${kind}, ${authors} authors: ${name}`, { skip }, fn);

  test('the default /subscribe alerts every qualifying tweet, each fact from a documented field; at most one lookup per new token', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', {}, caller('d'));
    await h.cycle();
    const big = h.sb.data.kols.filter((k) => k.follower_count >= 10_000);
    const small = h.sb.data.kols.find((k) => k.follower_count < 5_000)!;
    const tokens = h.sb.data.tokens.slice(30, 36);
    const want = [
      h.sb.addTweets(1, { token: tokens[0]!.id, kol: big[0]!.id, tokenScore: 90, kolScore: 80 })[0]!,
      h.sb.addTweets(1, { token: tokens[1]!.id, kol: big[1]!.id, tokenScore: 71, kolScore: 61 })[0]!,
    ];
    h.sb.addTweets(1, { token: tokens[2]!.id, kol: big[2]!.id, tokenScore: 90, kolScore: 40 }); // KOL score too low
    h.sb.addTweets(1, { token: tokens[3]!.id, kol: small.id, tokenScore: 90, kolScore: 90 }); // too few followers
    want.push(h.sb.addTweets(1, { token: tokens[4]!.id, kol: big[3]!.id, tokenScore: 95, kolScore: 99 })[0]!);
    const before = h.sb.count('tweetsByToken');
    await h.cycle();
    assert.deepEqual(
      h.sent.map((s) => titleOf(s).split(' ')[0]),
      [tokens[0]!.symbol, tokens[1]!.symbol, tokens[4]!.symbol],
      'every qualifying tweet, and only those',
    );
    const kolOf = (id: number) => h.sb.data.kols.find((k) => k.id === id)!;
    const card = h.sent[1]!.view;
    assert.match(
      text(card),
      new RegExp(
        `KOL score 61 >= 60, ${kolOf(want[1]!.kolId).follower_count.toLocaleString('en-US')} followers >= 10,000`,
      ),
    );
    const lookups = h.sb.count('tweetsByToken') - before;
    assert.ok(lookups <= 5, `at most one lookup per new token (${lookups})`);
    if (authors === 'full') assert.equal(lookups, 0, 'full authors need no lookup');
    const tick = h.ticks.at(-1)!;
    assert.equal(tick.held, 0, 'nothing held back');
    assert.equal(tick.lookup.requests, lookups);

    // The same authors again within the cache lifetime: no lookup at all.
    h.sb.addTweets(1, { token: tokens[5]!.id, kol: big[0]!.id, tokenScore: 90, kolScore: 80 });
    const again = h.sb.count('tweetsByToken');
    await h.cycle();
    assert.equal(h.sb.count('tweetsByToken'), again, 'known authors come from the cache');
    assert.equal(h.sent.length, 4);
  });

  test('an author fact no source gives is unknown, not 0: the tweet is held back, counted and named in /alerts', async (t) => {
    const h = await alertHarness(t, { authors: authors === 'full' ? 'minimal' : authors });
    await h.dispatcher.run('subscribe', {}, caller('u'));
    await h.dispatcher.run('subscribe', OPEN, caller('open'));
    await h.cycle();
    h.sb.setFaults({ errorRate: 1, operations: ['tweetsByToken'] });
    const big = h.sb.data.kols.filter((k) => k.follower_count >= 10_000);
    // Odd ids are the minimal ones in a mix: make sure both tweets are.
    while ((h.sb.data.tweets.at(-1)!.id + 1) % 2 === 0)
      h.sb.addTweets(1, { token: h.sb.data.tokens[60]!.id, tokenScore: 1, kolScore: 1 });
    await h.cycle();
    const openBefore = h.sent.filter((s) => s.chatId === 'open').length;
    h.sb.addTweets(1, { token: h.sb.data.tokens[40]!.id, kol: big[0]!.id, tokenScore: 90, kolScore: 90 });
    h.sb.addTweets(1, { token: h.sb.data.tokens[41]!.id, tokenScore: 1, kolScore: 1 });
    h.sb.addTweets(1, { token: h.sb.data.tokens[42]!.id, kol: big[1]!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.filter((s) => s.chatId === 'u').length, 0, 'no alert on a guessed 0 or a guessed pass');
    const open = h.sent.filter((s) => s.chatId === 'open').slice(openBefore);
    assert.equal(open.length, 3, 'a channel with no KOL or follower minimum still hears every tweet');
    assert.match(text(open.at(-1)!.view), /KOL score unknown/);
    assert.ok(h.ticks.at(-1)!.lookup.unknown >= 2);
    const shown = await h.dispatcher.run('alerts', {}, caller('u'));
    assert.match(text(shown), /2 tweets held back in the last 24 h/);
    const other = await h.dispatcher.run('alerts', {}, caller('open'));
    assert.match(text(other), /0 tweets held back/);
    h.sb.clearFaults();
  });

  test('an alert shows market cap and liquidity at alert time: one analytics request per token, shared by every channel', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', OPEN, caller('m1'));
    await h.dispatcher.run('subscribe', OPEN, caller('m2'));
    await h.cycle();
    const tok = h.sb.data.tokens[12]!;
    const before = h.sb.count('tokenAnalytics');
    h.sb.addTweets(1, { token: tok.id, kol: h.sb.data.kols[5]!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 2);
    assert.equal(h.sb.count('tokenAnalytics') - before, 1, 'one request for both channels');
    for (const s of h.sent)
      assert.ok(text(s.view).includes(`${usd(tok.marketcap)} / ${usd(tok.liquidity)}`), 'market cap / liquidity shown');
  });

  test('/alerts test says it is a sample and, per filter, whether the sample passes (<, never a false >=)', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', {}, caller('s'));
    await h.cycle();
    const kol = h.sb.data.kols.find((k) => k.follower_count >= 10_000)!;
    h.sb.addTweets(1, { token: h.sb.data.tokens[3]!.id, kol: kol.id, tokenScore: 34.4, kolScore: 80 });
    await h.dispatcher.text('/alerts test', caller('s'));
    await h.cycle();
    const fail = text(h.sent.at(-1)!.view);
    assert.match(
      fail,
      /Sample tweet; it would NOT alert here: token score 34.4 < 70, KOL score 80 >= 60, [\d,]+ followers >= 10,000/,
    );
    assert.doesNotMatch(fail, /34.4 >= 70/);
    h.sb.addTweets(1, { token: h.sb.data.tokens[4]!.id, kol: kol.id, tokenScore: 88, kolScore: 59.5 });
    await h.dispatcher.text('/alerts test', caller('s'));
    await h.cycle();
    assert.match(text(h.sent.at(-1)!.view), /it would NOT alert here: token score 88 >= 70, KOL score 59.5 < 60/);
    h.sb.addTweets(1, { token: h.sb.data.tokens[5]!.id, kol: kol.id, tokenScore: 88, kolScore: 75 });
    await h.dispatcher.text('/alerts test', caller('s'));
    await h.cycle();
    const tests = h.sent.filter((s) => titleOf(s).startsWith('[TEST]'));
    assert.equal(tests.length, 3);
    assert.match(
      text(tests.at(-1)!.view),
      /Sample tweet; it passes this chat’s filters: token score 88 >= 70, KOL score 75 >= 60/,
    );
  });

  test('a fresh start and a new subscription send nothing old; new matching tweets arrive once, in order', async (t) => {
    const h = await alertHarness(t);
    const sub = await h.dispatcher.run('subscribe', OPEN, caller('chat-a'));
    assert.equal(sub.kind, 'card');
    await h.cycle();
    assert.equal(h.sent.length, 0, 'nothing from history');

    const tokens = h.sb.data.tokens.slice(0, 5);
    const kol = h.sb.data.kols[3]!;
    const added = tokens.map(
      (tok) => h.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 90, kolScore: 80 })[0]!,
    );
    await h.cycle();
    assert.deepEqual(
      h.sent.map((s) => titleOf(s)),
      tokens.map((tok) => `${tok.symbol} shilled by ${kol.display_name} (@${kol.username})`),
      'one alert per tweet, oldest first',
    );
    assert.ok(added.length === 5);
    await h.cycle();
    assert.equal(h.sent.length, 5, 'a quiet tick sends nothing more');
  });

  test('filters decide: a low-score tweet reaches only the channel that accepts it', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', OPEN, caller('loose'));
    await h.dispatcher.run(
      'subscribe',
      { token_score: '80', kol_score: '70', followers: '0', cooldown: '0' },
      caller('strict'),
    );
    await h.cycle();
    const [a, b] = h.sb.data.tokens;
    h.sb.addTweets(1, { token: a!.id, kol: h.sb.data.kols[0]!.id, tokenScore: 50, kolScore: 50 });
    h.sb.addTweets(1, { token: b!.id, kol: h.sb.data.kols[0]!.id, tokenScore: 95, kolScore: 90 });
    await h.cycle();
    const to = (chat: string) => h.sent.filter((s) => s.chatId === chat).map((s) => titleOf(s).split(' ')[0]);
    assert.deepEqual(to('loose'), [a!.symbol, b!.symbol]);
    assert.deepEqual(to('strict'), [b!.symbol]);
    const strictAlert = h.sent.find((s) => s.chatId === 'strict')!.view;
    assert.equal(strictAlert.kind, 'card');
    assert.match(
      JSON.stringify(strictAlert.kind === 'card' ? strictAlert.description : ''),
      /token score 95 >= 80, KOL score 90 >= 70/,
    );
  });

  test('a 250-tweet burst between two ticks with 30-tweet pages: all 250 delivered, in order', async (t) => {
    const h = await alertHarness(t, { pageSize: 30 });
    await h.dispatcher.run('subscribe', OPEN, caller('burst'));
    await h.cycle();
    const kol = h.sb.data.kols[1]!;
    const tokens = h.sb.data.tokens.slice(0, 250);
    for (const tok of tokens) h.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    const r = await h.cycle();
    assert.equal(r.fetched, 250);
    assert.deepEqual(
      h.sent.map((s) => titleOf(s).split(' ')[0]),
      tokens.map((tok) => tok.symbol),
    );
  });

  test('several KOLs shilling one token within the cooldown become one alert naming them all, edited as more come', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', { ...OPEN, cooldown: '60' }, caller('c'));
    await h.cycle();
    const tok = h.sb.data.tokens[7]!;
    const [k1, k2, k3] = h.sb.data.kols;
    h.sb.addTweets(1, { token: tok.id, kol: k1!.id, tokenScore: 90, kolScore: 90 });
    h.sb.addTweets(1, { token: tok.id, kol: k2!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 1);
    assert.equal(titleOf(h.sent[0]!), `${tok.symbol} shilled by 2 KOLs: @${k1!.username}, @${k2!.username}`);
    h.sb.addTweets(1, { token: tok.id, kol: k3!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 1, 'still cooling down: no second message');
    assert.equal(h.edits.length, 1, 'the first alert is edited instead');
    assert.equal(
      titleOf(h.sent[0]!),
      `${tok.symbol} shilled by 3 KOLs: @${k1!.username}, @${k2!.username}, @${k3!.username}`,
    );
    h.sb.addTweets(1, { token: tok.id, kol: k2!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.edits.length, 1, 'a KOL already named changes nothing');
  });

  test('a restart resends nothing; a store outage delays alerts and loses none', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', OPEN, caller('r'));
    await h.cycle();
    const kol = h.sb.data.kols[2]!;
    h.sb.addTweets(1, { token: h.sb.data.tokens[0]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 1);
    await h.restart();
    await h.cycle();
    assert.equal(h.sent.length, 1, 'no duplicate after restart');

    h.store.setFailing(true);
    h.sb.addTweets(1, { token: h.sb.data.tokens[1]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await assert.rejects(h.cycle(), /store/);
    h.sb.addTweets(1, { token: h.sb.data.tokens[2]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await assert.rejects(h.cycle(), /store/);
    h.store.setFailing(false);
    await h.cycle();
    assert.deepEqual(
      h.sent.map((s) => titleOf(s).split(' ')[0]),
      [0, 1, 2].map((i) => h.sb.data.tokens[i]!.symbol),
      'both tweets from the outage arrive, once each',
    );
  });

  test('a dead destination is disabled after its first permanent failure; others keep receiving', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', OPEN, caller('dead'));
    await h.dispatcher.run('subscribe', OPEN, caller('alive'));
    await h.cycle();
    let attempts = 0;
    h.behaviour.set('dead', () => {
      attempts++;
      return { kind: 'gone', reason: 'bot was kicked' };
    });
    const kol = h.sb.data.kols[0]!;
    for (const tok of h.sb.data.tokens.slice(0, 3))
      h.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(attempts, 1, 'one attempt, then the destination is dropped');
    assert.equal(h.sent.filter((s) => s.chatId === 'alive').length, 3);
    const shown = await h.dispatcher.run('alerts', {}, caller('dead'));
    assert.match(JSON.stringify(shown), /Stopped: bot was kicked/);
    h.sb.addTweets(1, { token: h.sb.data.tokens[4]!.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(attempts, 1, 'a disabled subscription is not tried again');
  });

  test('a group upgraded to a supergroup keeps its settings, and a queued alert follows it', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', { ...OPEN, token_score: '5' }, caller('-100'));
    await h.cycle();
    h.behaviour.set('-100', () => ({
      kind: 'gone',
      reason: 'group chat was upgraded to a supergroup chat',
      migrateTo: '-1009',
    }));
    h.sb.addTweets(1, { token: h.sb.data.tokens[0]!.id, kol: h.sb.data.kols[0]!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.deepEqual(
      h.sent.map((s) => s.chatId),
      ['-1009'],
      'the alert went to the new id',
    );
    const moved = await h.store.subscriptions.get('console:-1009');
    assert.equal(moved?.filters.minTokenScore, 5, 'settings kept');
    const old = await h.store.subscriptions.get('console:-100');
    assert.equal(old?.movedTo, '-1009', 'the old id only points at the new one');
    assert.ok(old?.disabled, 'and matches nothing itself');
    // Already moved by the adapter (service message) before an alert for the old id is sent: still delivered.
    await h.store.outbox.enqueue('late', [
      {
        id: 'late:1',
        subId: 'console:-100',
        platform: 'console',
        chatId: '-100',
        isGroup: true,
        content: { kind: 'notice', text: 'late' },
        createdAt: 0,
        state: 'pending',
        attempts: 0,
        notBefore: 0,
      },
    ]);
    await h.cycle();
    assert.deepEqual(
      h.sent.map((s) => s.chatId),
      ['-1009', '-1009'],
    );
  });

  test('only admins change subscriptions; settings read back as the exact /subscribe line', async (t) => {
    const h = await alertHarness(t);
    const denied = await h.dispatcher.run('subscribe', OPEN, caller('g', false));
    assert.equal(denied.kind, 'error');
    assert.equal(await h.store.subscriptions.get('console:g'), undefined, 'nothing stored');
    await h.dispatcher.text(
      '/subscribe chains:sol,base token_score:80 kol_score:65 followers:20k cooldown:30 except:@Foo',
      caller('g'),
    );
    const shown = await h.dispatcher.text('/alerts', caller('g', false));
    assert.match(
      JSON.stringify(shown),
      /\/subscribe chains:solana,base token_score:80 kol_score:65 followers:20000 except:foo cooldown:30/,
    );
    const bad = await h.dispatcher.text('/subscribe token_score:150', caller('g'));
    assert.equal(bad?.kind, 'error');
    assert.match(JSON.stringify(bad), /token_score must be between 0 and 100/);
    assert.equal(
      (await h.store.subscriptions.get('console:g'))?.filters.minTokenScore,
      80,
      'a bad value changes nothing',
    );
    const pause = await h.dispatcher.text('/alerts pause 2h', caller('g', false));
    assert.equal(pause?.kind, 'error', 'non-admin cannot pause');
  });

  test('paused subscriptions hear nothing until resumed; /alerts test sends a sample through delivery', async (t) => {
    const h = await alertHarness(t);
    await h.dispatcher.run('subscribe', OPEN, caller('p'));
    await h.cycle();
    await h.dispatcher.text('/alerts pause', caller('p'));
    h.sb.addTweets(1, { token: h.sb.data.tokens[0]!.id, kol: h.sb.data.kols[0]!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 0);
    await h.dispatcher.text('/alerts resume', caller('p'));
    h.sb.addTweets(1, { token: h.sb.data.tokens[1]!.id, kol: h.sb.data.kols[0]!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 1);
    await h.dispatcher.text('/alerts test', caller('p'));
    await h.cycle();
    assert.equal(h.sent.length, 2);
    assert.match(titleOf(h.sent[1]!), /^\[TEST\] /);
  });
}

const available = redisAvailable();
if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);
for (const authors of ['full', 'minimal', 'mix'] as const) {
  describe(`alerts on SQLite, ${authors} feed authors`, () => suite('sqlite', () => undefined, false, authors));

  describe(`alerts on Redis, ${authors} feed authors`, () => {
    // A server per author shape: each suite numbers its databases from 1.
    let server: RedisServer | undefined;
    before(async () => {
      if (available) server = await startRedis();
    });
    after(() => server?.stop());
    suite('redis', () => server?.url, available ? false : REDIS_SKIP, authors);
  });
}

nodeTest(
  'an entry written but never indexed (a crash in between) is found again when an instance becomes leader',
  async () => {
    const { openStore } = await import('../../src/store/index.ts');
    const store = await openStore('memory:');
    const entry = {
      id: 'orphan:1',
      subId: 'console:x',
      platform: 'console' as const,
      chatId: 'x',
      isGroup: false,
      content: { kind: 'notice' as const, text: 'hi' },
      createdAt: 0,
      state: 'pending' as const,
      attempts: 0,
      notBefore: 0,
    };
    await store.outbox.update(entry); // the entry alone, as after a crash before its batch was indexed
    assert.deepEqual(await store.outbox.pending(), []);
    assert.equal(await store.outbox.recover(), 1);
    assert.deepEqual(
      (await store.outbox.pending()).map((e) => e.id),
      ['orphan:1'],
    );
    assert.equal(await store.outbox.recover(), 0, 'found once');
    await store.close();
  },
);
