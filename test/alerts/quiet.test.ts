/**
 * Quiet hours with an injected clock, on SQLite and Redis: matching alerts are
 * held durably (across a restart) and one summary lists them all when the
 * quiet hours end; pause still keeps nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alertHarness, caller, titleOf } from './harness.ts';
import { REDIS_SKIP, redisAvailable, startRedis, type RedisServer } from '../helpers/redis.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };
const text = (v: unknown) => JSON.stringify(v);

function suite(storeUrl: () => string | undefined, skip: string | false) {
  let db = 0;
  const url = () => {
    const u = storeUrl();
    return u ? { storeUrl: `${u}/${++db}` } : {};
  };

  test('alerts during quiet hours arrive as one summary when they end, after a restart too; nothing before or after is held', {
    skip,
  }, async (t) => {
    // 21:30 UTC is 22:30 in Berlin in November (UTC+1).
    let clock = Date.parse('2026-11-23T21:30:00Z');
    const h = await alertHarness(t, { ...url(), now: () => clock });
    await h.dispatcher.run('subscribe', OPEN, caller('q'));
    const set = await h.dispatcher.text('/alerts quiet 23:00-07:00 tz:Europe/Berlin', caller('q'));
    assert.match(text(set), /23:00-07:00 \(Europe\/Berlin\)/);
    assert.match(
      text(await h.dispatcher.text('/alerts', caller('q'))),
      /"name":"Quiet hours","value":"23:00-07:00 \(Europe\/Berlin\)"/,
      '/alerts shows them',
    );
    await h.cycle();
    const [k1, k2, k3] = h.sb.data.kols;
    const tokens = h.sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol)).slice(0, 4);
    h.sb.addTweets(1, { token: tokens[0]!.id, kol: k1!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 1, 'before quiet hours: sent at once');

    clock = Date.parse('2026-11-23T22:30:00Z'); // 23:30 in Berlin
    h.sb.addTweets(1, { token: tokens[1]!.id, kol: k1!.id, tokenScore: 90, kolScore: 90 });
    h.sb.addTweets(1, { token: tokens[2]!.id, kol: k2!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    clock = Date.parse('2026-11-24T02:00:00Z');
    h.sb.addTweets(1, { token: tokens[3]!.id, kol: k3!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 1, 'held during quiet hours');
    await h.restart();
    await h.cycle();
    assert.equal(h.sent.length, 1, 'still held after a restart');

    clock = Date.parse('2026-11-24T06:00:30Z'); // 07:00 in Berlin: quiet hours end
    await h.cycle();
    assert.equal(h.sent.length, 2, 'one summary');
    const summary = text(h.sent[1]!.view);
    assert.match(titleOf(h.sent[1]!), /^3 alerts during quiet hours/);
    for (const tok of tokens.slice(1)) assert.ok(summary.includes(`"b":"${tok.symbol}"`), `${tok.symbol} listed`);
    for (const k of [k1, k2, k3]) assert.ok(summary.includes(`@${k!.username}`), `@${k!.username} named`);
    assert.match(summary, /23:30/, 'the time, in the quiet hours’ zone');
    assert.match(summary, /03:00/);
    // With the market caps now (operation 2): how far each token moved since its alert.
    assert.equal(summary.match(/\d+\.\d\dx since then/g)?.length, 3, summary);
    await h.cycle();
    assert.equal(h.sent.length, 2, 'exactly one summary');
    assert.equal((await h.store.outbox.pending()).length, 0);

    h.sb.addTweets(1, { token: tokens[0]!.id, kol: k2!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    assert.equal(h.sent.length, 3);
    assert.match(titleOf(h.sent[2]!), /shilled by/, 'after quiet hours: an ordinary alert at once');
  });

  test('pause still keeps nothing: alerts paused during quiet hours are not summarised; bad input gets an example', {
    skip,
  }, async (t) => {
    let clock = Date.parse('2026-07-01T23:30:00Z');
    const h = await alertHarness(t, { ...url(), now: () => clock });
    await h.dispatcher.run('subscribe', OPEN, caller('p'));
    await h.dispatcher.text('/alerts quiet 23:00-07:00', caller('p'));
    await h.cycle();
    h.sb.addTweets(1, { token: h.sb.data.tokens[0]!.id, kol: h.sb.data.kols[0]!.id, tokenScore: 90, kolScore: 90 });
    await h.cycle();
    const paused = await h.dispatcher.text('/alerts pause', caller('p'));
    assert.match(JSON.stringify(paused), /arrive meanwhile are dropped, not kept/, 'the pause says what it drops');
    await h.cycle();
    const resumed = await h.dispatcher.text('/alerts resume', caller('p'));
    assert.match(JSON.stringify(resumed), /arrived while paused were not kept/, 'and so does its end');
    clock = Date.parse('2026-07-02T07:30:00Z');
    await h.cycle();
    assert.equal(h.sent.length, 0, 'nothing kept through the pause');

    const bad = await h.dispatcher.text('/alerts quiet 25:00-07:00', caller('p'));
    assert.match(text(bad), /23:00-07:00/);
    const zone = await h.dispatcher.text('/alerts quiet 23:00-07:00 tz:Mars/Olympus', caller('p'));
    assert.match(text(zone), /Mars\/Olympus.*Europe\/Berlin/);
    const member = await h.dispatcher.text('/alerts quiet off', caller('p', false));
    assert.match(text(member), /Only admins/);
    const off = await h.dispatcher.text('/alerts quiet off', caller('p'));
    assert.match(text(off), /Quiet hours are off/);
    assert.equal((await h.store.subscriptions.get('console:p'))!.quiet, null);
  });
}

const available = redisAvailable();
if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);
describe('quiet hours on SQLite', () => suite(() => undefined, false));
describe('quiet hours on Redis', () => {
  let server: RedisServer | undefined;
  before(async () => {
    if (available) server = await startRedis();
  });
  after(() => server?.stop());
  suite(() => server?.url, available ? false : REDIS_SKIP);
});
