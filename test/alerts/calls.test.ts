import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callsHarness, textOf } from './calls-harness.ts';
import { usd } from '../../src/views/format.ts';
import { multiple } from '../../src/views/cards/calls.ts';
import { formats } from '../../src/i18n/format.ts';

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
  for (const [i, point] of [1, 6, 24].entries()) {
    h.advance((point - (i === 0 ? 0 : [1, 6, 24][i - 1]!)) * HOUR + 60_000);
    const before = h.sb.count('2');
    await h.cycle();
    assert.equal(h.sb.count('2') - before, 1, `${point}h: one request for the token, however many destinations`);
    const served = tok.marketcap;
    peak = Math.max(peak, served);
    const round = h.edits.slice(-3);
    assert.equal(h.edits.length, 3 * (i + 1), `${point}h: each alert edited once`);
    assert.deepEqual(new Set(round.map((e) => e.chatId)), new Set(h.chats));
    for (const e of round) {
      const text = textOf(e.view);
      assert.ok(text.includes(`Since alert (${point === 24 ? '1d' : `${point}h`})`), text);
      assert.ok(text.includes(`${usd(atAlert)} → ${usd(served)}`), `${point}h: the market caps served: ${text}`);
      assert.ok(text.includes(`): ${multiple(served / atAlert, en)} ·`), text);
      assert.ok(text.includes(`peak ${multiple(peak / atAlert, en)}`), text);
      assert.ok(text.includes(`${tok.symbol} shilled by`), 'the alert itself is unchanged above the line');
    }
  }
  h.advance(48 * HOUR);
  const before = h.sb.count('2');
  await h.cycle();
  assert.equal(h.edits.length, 9, 'no follow-up after the last point');
  assert.equal(h.sb.count('2'), before, 'and no lookup');
});
