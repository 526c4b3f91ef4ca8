import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callsHarness, textOf } from './calls-harness.ts';
import { usd } from '../../src/i18n/english.ts';
import { multiple } from '../../src/views/cards/callLine.ts';
import { formats } from '../../src/i18n/format.ts';
import { nextDue } from '../../src/store/calls.ts';

const HOUR = 3_600_000;
const en = formats('en');

test('an alert becomes a call per destination, followed up in place at 1h, 6h and 24h with the market caps the sandbox served', async (t) => {
  const h = await callsHarness(t);
  const tok = h.shill();
  const ops2 = h.sb.count('2');
  await h.cycle();
  assert.equal(h.sent.length, 3, 'one alert per destination');
  assert.equal(h.sb.count('2') - ops2, 1, 'one market lookup for the token, shared by every destination');
  const atAlert = tok.marketcap;
  for (const chat of h.chats) {
    const [call] = await h.app.store.calls.list(`console:${chat}`, 0);
    assert.ok(call, `${chat}: a call was recorded`);
    assert.equal(call.marketCap, atAlert, 'market cap at alert time');
    assert.equal(call.token.symbol, tok.symbol);
    assert.equal(call.messageId, h.sent.find((s) => s.chatId === chat)!.messageId);
  }
  let peak = atAlert;
  const lines: string[] = [];
  for (const [i, point] of [1, 6, 24].entries()) {
    h.advance((point - (i === 0 ? 0 : [1, 6, 24][i - 1]!)) * HOUR + 60_000);
    const before = h.sb.count('2');
    await h.cycle();
    assert.equal(h.sb.count('2') - before, 1, `${point}h: one request for the token, however many destinations`);
    const served = tok.marketcap;
    peak = Math.max(peak, served);
    lines.push(
      `Since alert (${point === 24 ? '1d' : `${point}h`}): ${multiple(served / atAlert, en)} · mcap ${usd(atAlert)} → ${usd(served)}`,
    );
    const round = h.edits.slice(-3);
    assert.equal(h.edits.length, 3 * (i + 1), `${point}h: each alert edited once`);
    assert.deepEqual(new Set(round.map((e) => e.chatId)), new Set(h.chats));
    for (const e of round) {
      const text = textOf(e.view);
      // Each point's line stays as later points come, in order: 1h, then 6h, then 1d.
      const at = lines.map((l) => text.indexOf(l));
      assert.ok(
        at.every((x, k) => x >= 0 && (k === 0 || x > at[k - 1]!)),
        `${point}h: every line so far, in order: ${text}`,
      );
      assert.ok(text.includes(`${usd(atAlert)} → ${usd(served)}`), `${point}h: the market caps served: ${text}`);
      assert.ok(text.includes(`): ${multiple(served / atAlert, en)} ·`), text);
      assert.ok(text.includes(`Highest sampled since the alert: ${multiple(peak / atAlert, en)} (${usd(peak)})`), text);
      assert.ok(text.includes(`${tok.symbol} shilled by`), 'the alert itself is unchanged above the line');
    }
  }
  h.advance(48 * HOUR);
  const before = h.sb.count('2');
  await h.cycle();
  assert.equal(h.edits.length, 9, 'no follow-up after the last point');
  assert.equal(h.sb.count('2'), before, 'and no lookup');
});

test('1,000 destinations on one token: one upstream request per round, every alert edited once', {
  timeout: 120_000,
}, async (t) => {
  const h = await callsHarness(t, { destinations: 1000, followups: [60] });
  h.shill();
  await h.cycle();
  assert.equal(h.sent.length, 1000);
  h.advance(HOUR + 60_000);
  const before = h.sb.count('2');
  await h.cycle();
  assert.equal(h.sb.count('2') - before, 1, 'one op-2 request for 1,000 follow-ups');
  assert.equal(h.edits.length, 1000);
  assert.equal(new Set(h.edits.map((e) => e.chatId)).size, 1000, 'each destination once');
});

test('a message users deleted ends its follow-ups quietly; others go on', async (t) => {
  const h = await callsHarness(t, { destinations: 2 });
  h.shill();
  await h.cycle();
  h.editAnswer.set('chat-0', () => ({ kind: 'rejected', reason: 'the alert was deleted' }));
  h.advance(HOUR + 60_000);
  await h.cycle();
  assert.deepEqual(
    h.edits.map((e) => e.chatId),
    ['chat-1'],
  );
  const [call] = await h.app.store.calls.list('console:chat-0', 0);
  assert.match(call!.ended ?? '', /deleted/);
  h.editAnswer.delete('chat-0');
  h.advance(5 * HOUR);
  await h.cycle();
  assert.deepEqual(
    h.edits.map((e) => e.chatId),
    ['chat-1', 'chat-1'],
    'no further edit of the deleted alert',
  );
  assert.equal(h.sent.length, 2, 'nothing was posted about it');
  assert.equal(
    (await h.app.store.subscriptions.get('console:chat-0'))!.disabled,
    null,
    'the destination stays subscribed',
  );
});

test('after downtime the missed points are done once, late, and marked late', async (t) => {
  const h = await callsHarness(t, { destinations: 1 });
  h.shill();
  await h.cycle();
  h.advance(7 * HOUR); // 1h and 6h both passed while "down"
  await h.cycle();
  assert.equal(h.edits.length, 1, 'one edit for both missed points');
  assert.match(textOf(h.edits[0]!.view), /Since alert \(6h, checked late\)/);
  h.advance(17 * HOUR + 60_000);
  await h.cycle();
  assert.equal(h.edits.length, 2);
  assert.match(textOf(h.edits[1]!.view), /Since alert \(1d\): /, 'a point reached on time is not marked late');
});

test('followups:off means no follow-ups; followups:1h,24h only those', async (t) => {
  const h = await callsHarness(t, { destinations: 2 });
  const { caller } = await import('./harness.ts');
  const off = await h.app.dispatcher.run(
    'subscribe',
    { followups: 'off' },
    { ...caller('chat-0'), platform: 'console' },
  );
  assert.match(textOf(off!), /Follow-ups: off/);
  const some = await h.app.dispatcher.run(
    'subscribe',
    { followups: '1h,24h' },
    { ...caller('chat-1'), platform: 'console' },
  );
  assert.match(textOf(some!), /Follow-ups: 1h, 1d after each alert/);
  const bad = await h.app.dispatcher.run(
    'subscribe',
    { followups: 'soon' },
    { ...caller('chat-1'), platform: 'console' },
  );
  assert.equal(bad!.kind, 'error');
  assert.match(bad!.kind === 'error' ? bad!.message : '', /Can’t read the follow-ups “soon”/);
  assert.deepEqual(
    (await h.app.store.subscriptions.get('console:chat-1'))!.filters.followups,
    [60, 1440],
    'the bad value changed nothing',
  );
  // Subscribing again restarts from the feed head: a new shill after it.
  h.shill();
  await h.cycle();
  for (const hours of [1, 6, 24]) {
    h.advance(hours === 1 ? HOUR + 60_000 : hours === 6 ? 5 * HOUR : 18 * HOUR);
    await h.cycle();
  }
  assert.deepEqual(
    h.edits.map((e) => e.chatId),
    ['chat-1', 'chat-1'],
  );
});

test('the follow-up budget spreads a large round over minutes', async (t) => {
  const h = await callsHarness(t, { destinations: 1, perMinute: 2, followups: [60] });
  for (let i = 0; i < 5; i++) h.shill(i, i);
  await h.cycle();
  assert.equal(h.sent.length, 5);
  h.advance(HOUR + 60_000);
  const counts: number[] = [];
  for (let minute = 0; minute < 3; minute++) {
    const before = h.sb.count('2');
    await h.cycle();
    counts.push(h.sb.count('2') - before);
    h.advance(60_000);
  }
  assert.deepEqual(counts, [2, 2, 1], 'at most 2 requests a minute');
  assert.equal(h.edits.length, 5, 'every call followed up in the end');
});

test('the peak counts later sightings of the token by the watcher', async (t) => {
  const h = await callsHarness(t, { destinations: 1, followups: [60] });
  const tok = h.shill(0, 0);
  await h.cycle();
  const atAlert = tok.marketcap;
  // Minutes pass until the token trades above its alert market cap (a plain lookup moves the sandbox's walk)...
  for (let m = 0; m < 50 && !(tok.marketcap > atAlert); m += 5) {
    h.advance(5 * 60_000);
    await h.app.api.getTokenAnalytics(
      { tokenAddress: tok.address, chainId: tok.chain_id, limit: 5 },
      { cache: 'bypass' },
    );
  }
  assert.ok(tok.marketcap > atAlert, 'the sandbox moved it up within the hour');
  // ...and then another KOL shills it: a new alert, and a sighting of the market cap then.
  h.shill(0, 1);
  await h.cycle();
  const sighted = tok.marketcap;
  const [first] = (await h.app.store.calls.list('console:chat-0', 0)).sort((a, b) => a.at - b.at);
  assert.equal(first!.peak, sighted, 'the first call keeps the highest market cap seen, by the watcher too');
  h.advance(60 * 60_000);
  await h.cycle();
  const line = textOf(h.edits.find((e) => e.messageId === '1')!.view);
  const peak = Math.max(sighted, tok.marketcap);
  assert.ok(line.includes(`Highest sampled since the alert: ${multiple(peak / atAlert, en)}`), line);
});

test('the peak counts sightings after the follow-ups are done too', async (t) => {
  const h = await callsHarness(t, { destinations: 1, followups: [60] });
  const tok = h.shill(0, 0);
  await h.cycle();
  const atAlert = tok.marketcap;
  // Its one follow-up is done...
  h.advance(60 * 60_000 + 60_000);
  await h.cycle();
  assert.equal(h.edits.length, 1, 'the follow-up edit');
  const [done] = await h.app.store.calls.list('console:chat-0', 0);
  assert.equal(nextDue(done!), undefined, 'no follow-up left');
  // ...then the token trades above every figure seen so far, and another KOL shills it.
  const seen = Math.max(atAlert, done!.peak ?? 0);
  for (let m = 0; m < 120 && !(tok.marketcap > seen); m += 5) {
    h.advance(5 * 60_000);
    await h.app.api.getTokenAnalytics(
      { tokenAddress: tok.address, chainId: tok.chain_id, limit: 5 },
      { cache: 'bypass' },
    );
  }
  assert.ok(tok.marketcap > seen, 'the sandbox moved it up');
  h.shill(0, 1);
  await h.cycle();
  const sighted = tok.marketcap;
  const first = await h.app.store.calls.get(done!.id);
  assert.equal(first!.peak, sighted, 'the finished call keeps the highest market cap seen since');
});
