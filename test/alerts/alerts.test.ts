import { after, before, describe, test as nodeTest, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { alertHarness as harness, caller, titleOf } from './harness.ts';
import { REDIS_SKIP, redisAvailable, startRedis, type RedisServer } from '../helpers/redis.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };

/** The same suite on each store backend: SQLite (the default) and Redis (several instances). */
function suite(kind: 'sqlite' | 'redis', storeUrl: () => string | undefined, skip: string | false) {
  let db = 0;
  const alertHarness = (t: TestContext, o: { pageSize?: number } = {}) => {
    const url = storeUrl();
    // A Redis database per test (0-15): tests stay independent without flushing.
    return harness(t, { ...o, ...(url ? { storeUrl: `${url}/${++db}` } : {}) });
  };
  const test = (name: string, fn: (t: TestContext) => Promise<void>) => nodeTest(`${kind}: ${name}`, { skip }, fn);

  test('a fresh start and a new subscription send nothing old; new matching tweets arrive once, in order', async (t) => {
    const h = await alertHarness(t);
    const sub = await h.dispatcher.run('subscribe', OPEN, caller('chat-a'));
    assert.equal(sub.kind, 'card');
    await h.cycle();
    assert.equal(h.sent.length, 0, 'nothing from history');

    const tokens = h.sb.data.tokens.slice(0, 5);
    const kol = h.sb.data.kols[3]!;
    const added = tokens.map((tok) => h.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 90, kolScore: 80 })[0]!);
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
    await h.dispatcher.run('subscribe', { token_score: '80', kol_score: '70', followers: '0', cooldown: '0' }, caller('strict'));
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
    assert.match(JSON.stringify(strictAlert.kind === 'card' ? strictAlert.description : ''), /token score 95 >= 80, KOL score 90 >= 70/);
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
    assert.deepEqual(h.sent.map((s) => titleOf(s).split(' ')[0]), tokens.map((tok) => tok.symbol));
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
    assert.equal(titleOf(h.sent[0]!), `${tok.symbol} shilled by 3 KOLs: @${k1!.username}, @${k2!.username}, @${k3!.username}`);
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
    h.behaviour.set('dead', () => (attempts++, { kind: 'gone', reason: 'bot was kicked' }));
    const kol = h.sb.data.kols[0]!;
    for (const tok of h.sb.data.tokens.slice(0, 3)) h.sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
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
    h.behaviour.set('-100', () => ({ kind: 'gone', reason: 'group chat was upgraded to a supergroup chat', migrateTo: '-1009' }));
    h.sb.addTweets(1, { token: h.sb.data.tokens[0]!.id, kol: h.sb.data.kols[0]!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.deepEqual(h.sent.map((s) => s.chatId), ['-1009'], 'the alert went to the new id');
    const moved = await h.store.subscriptions.get('console:-1009');
    assert.equal(moved?.filters.minTokenScore, 5, 'settings kept');
    const old = await h.store.subscriptions.get('console:-100');
    assert.equal(old?.movedTo, '-1009', 'the old id only points at the new one');
    assert.ok(old?.disabled, 'and matches nothing itself');
    // Already moved by the adapter (service message) before an alert for the old id is sent: still delivered.
    await h.store.outbox.enqueue('late', [{ id: 'late:1', subId: 'console:-100', platform: 'console', chatId: '-100', isGroup: true, content: { kind: 'notice', text: 'late' }, createdAt: 0, state: 'pending', attempts: 0, notBefore: 0 }]);
    await h.cycle();
    assert.deepEqual(h.sent.map((s) => s.chatId), ['-1009', '-1009']);
  });

  test('only admins change subscriptions; settings read back as the exact /subscribe line', async (t) => {
    const h = await alertHarness(t);
    const denied = await h.dispatcher.run('subscribe', OPEN, caller('g', false));
    assert.equal(denied.kind, 'error');
    assert.equal(await h.store.subscriptions.get('console:g'), undefined, 'nothing stored');
    await h.dispatcher.text('/subscribe chains:sol,base token_score:80 kol_score:65 followers:20k cooldown:30 except:@Foo', caller('g'));
    const shown = await h.dispatcher.text('/alerts', caller('g', false));
    assert.match(JSON.stringify(shown), /\/subscribe chains:solana,base token_score:80 kol_score:65 followers:20000 except:foo cooldown:30/);
    const bad = await h.dispatcher.text('/subscribe token_score:150', caller('g'));
    assert.equal(bad?.kind, 'error');
    assert.match(JSON.stringify(bad), /token_score must be between 0 and 100/);
    assert.equal((await h.store.subscriptions.get('console:g'))?.filters.minTokenScore, 80, 'a bad value changes nothing');
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

describe('alerts on SQLite', () => suite('sqlite', () => undefined, false));

describe('alerts on Redis', () => {
  const available = redisAvailable();
  if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);
  let server: RedisServer | undefined;
  before(async () => {
    if (available) server = await startRedis();
  });
  after(() => server?.stop());
  suite('redis', () => server?.url, available ? false : REDIS_SKIP);
});

nodeTest('an entry written but never indexed (a crash in between) is found again when an instance becomes leader', async () => {
  const { openStore } = await import('../../src/store/index.ts');
  const store = await openStore('memory:');
  const entry = { id: 'orphan:1', subId: 'console:x', platform: 'console' as const, chatId: 'x', isGroup: false, content: { kind: 'notice' as const, text: 'hi' }, createdAt: 0, state: 'pending' as const, attempts: 0, notBefore: 0 };
  await store.outbox.update(entry); // the entry alone, as after a crash before its batch was indexed
  assert.deepEqual(await store.outbox.pending(), []);
  assert.equal(await store.outbox.recover(), 1);
  assert.deepEqual((await store.outbox.pending()).map((e) => e.id), ['orphan:1']);
  assert.equal(await store.outbox.recover(), 0, 'found once');
  await store.close();
});
