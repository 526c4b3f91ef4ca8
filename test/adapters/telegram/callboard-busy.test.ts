/**
 * Members' calls in a busy chat, through grammY and the Telegram fake: pastes
 * past the chat's card cap are still calls (the credit never waits for a card),
 * and a paste of more addresses than one lookup reads says how many it left
 * out and, with the call board on, records each of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSolanaAddress } from '../../../src/domain/chains.ts';
import { DEFAULT_PER_MINUTE } from '../../../src/core/autocard.ts';
import type { FakeUser } from '../../fakes/telegram/index.ts';
import { barrier, button, group, rig, type Rig } from './helpers.ts';

const ADMIN = { id: 424242, first_name: 'Tester', username: 'tester' };
const member = (n: number): FakeUser => ({ id: 6000 + n, first_name: `M${n}`, username: `member${n}` });

const solTokens = (r: Rig) =>
  r.sb.data.tokens.filter((x) => x.chain_id === 'solana' && isSolanaAddress(x.address) && x.marketcap > 0);

async function boardOn(r: Rig, chatId: number) {
  const g = group(chatId);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  r.fake.sendText({ chat: g, from: ADMIN, text: '/callboard on' });
  await r.fake.waitForMessage(g.id, (m) => /^Call board on/.test(m.text ?? ''));
  return g;
}

test('eight members paste eight tokens at once: six cards, eight calls, and a later poster takes no credit', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const g = await boardOn(r, -9201);
  const toks = solTokens(r).slice(0, 8);
  const before = r.fake.messages(g.id).length;
  for (const [i, tok] of toks.entries()) r.fake.sendText({ chat: g, from: member(i), text: `aping ${tok.address}` });
  await barrier(r, g, ADMIN);
  const cards = r.fake
    .messages(g.id)
    .slice(before)
    .filter((m) => toks.some((x) => m.text?.includes(x.address)));
  assert.equal(cards.length, DEFAULT_PER_MINUTE, 'answers within the card cap');
  const calls = await r.app.store.members.list(`telegram:${g.id}`, 0);
  assert.deepEqual(
    toks.map((x) => calls.find((c) => c.token.address === x.address)?.member?.handle),
    toks.map((_, i) => `member${i}`),
    'every paste is a call, credited to whoever pasted it',
  );
  // A later poster of the last token gets no credit: it is member7's.
  r.fake.sendText({ chat: g, from: member(9), text: `first! ${toks[7]!.address}` });
  await barrier(r, g, ADMIN);
  const after = await r.app.store.members.list(`telegram:${g.id}`, 0);
  assert.equal(after.length, 8);
  assert.equal(after.find((c) => c.token.address === toks[7]!.address)?.member?.handle, 'member7');
});

test('a paste of more addresses than one lookup reads says how many it left out; with the board on each is a call', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const toks = solTokens(r).slice(0, 8);
  const paste = toks.map((x) => x.address).join('\n');
  // Without the board: the card names the first five and counts the rest.
  const plain = group(-9202);
  r.fake.setMember(plain.id, ADMIN.id, 'administrator');
  r.fake.sendText({ chat: plain, from: member(1), text: paste });
  const list = await r.fake.waitForMessage(plain.id, (m) => /tokens in that message/.test(m.text ?? ''));
  assert.match(list.text!, /^5 tokens in that message:/);
  assert.match(list.text!, /3 more addresses in that message are not shown/);
  assert.doesNotMatch(list.text!, /recorded/);
  // With the board on: the same card and count, and all eight are the member's calls.
  const g = await boardOn(r, -9203);
  r.fake.sendText({ chat: g, from: member(2), text: paste });
  const card = await r.fake.waitForMessage(g.id, (m) => /tokens in that message/.test(m.text ?? ''));
  assert.match(card.text!, /3 more addresses in that message are not shown/);
  assert.match(card.text!, /3 of them are recorded as calls/);
  const calls = await r.app.store.members.list(`telegram:${g.id}`, 0);
  assert.deepEqual(calls.map((c) => c.token.address).sort(), toks.map((x) => x.address).sort());
  assert.ok(calls.every((c) => c.member?.handle === 'member2'));
});

test('"Call card" under a recorded call and under /stats sends the picture as a new photo; the card stays as it was', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const g = await boardOn(r, -9204);
  const [tok] = solTokens(r);
  const alice = member(1);
  r.fake.sendText({ chat: g, from: alice, text: `aping ${tok!.address}` });
  const card = await r.fake.waitForMessage(g.id, (m) => /Call recorded/.test(m.text ?? ''));
  const stats = await r.ask(g, '/stats', alice);
  assert.match(stats.text!, /Calls by @member1/);
  for (const m of [card, stats]) {
    const shown = { text: m.text, reply_markup: m.reply_markup };
    const sent = r.fake.requests.length;
    const seen = r.fake.messages(g.id).length;
    r.fake.pressButton({ chatId: g.id, messageId: m.message_id, data: button(m, 'Call card'), from: alice });
    const photo = await r.fake.waitForMessage(g.id, (x) => x.message_id > m.message_id && x.photo !== undefined);
    assert.match(photo.text ?? '', /called by @member1/, 'the picture with its caption');
    assert.equal(photo.reply_to_message_id, m.message_id, 'threaded under the card it was asked from');
    const methods = r.fake.requests.slice(sent).map((q) => q.method);
    assert.ok(methods.includes('sendPhoto'), methods.join());
    assert.ok(!methods.some((x) => x.startsWith('editMessage')), `nothing edited: ${methods.join()}`);
    assert.deepEqual(m.edits, [], 'the pressed message was never edited');
    assert.deepEqual({ text: m.text, reply_markup: m.reply_markup }, shown);
    assert.equal(r.fake.messages(g.id).length, seen + 1, 'one new message: the picture');
  }
});
