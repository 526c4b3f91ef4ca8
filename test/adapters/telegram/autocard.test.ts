/**
 * Automatic cards, /autocard, /token by name and the reply form, end to end:
 * the real grammY adapter against the Telegram fake and the sandbox.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSolanaAddress } from '../../../src/domain/chains.ts';
import { group, privateChat, rig, type Rig } from './helpers.ts';

const UNKNOWN_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'; // a real mint the sandbox does not list
const ADMIN = { id: 424242, first_name: 'Tester', username: 'tester' }; // the fake's default group user

function solTokens(r: Rig) {
  return r.sb.data.tokens.filter((t) => t.chain_id === 'solana' && isSolanaAddress(t.address));
}

/** Waits until the bot has handled everything sent to `chat` so far: a command's answer comes after it (updates of a chat run in order). */
async function barrier(r: Rig, chat: { id: number; type: 'private' | 'group' | 'supergroup' }): Promise<void> {
  r.fake.sendText({ chat, text: '/autocard' });
  await r.fake.waitForMessage(chat.id, (m) => /^Automatic cards are/.test(m.text ?? ''));
}

test('a pasted address in a group gets one threaded card; a repeat within the cooldown, an unknown address and a bot get nothing', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const g = group(-7001);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  const [tok, other] = solTokens(r);
  const paste = r.fake.sendText({ chat: g, text: `aping this ${tok!.address} 🚀` })!;
  const card = await r.fake.waitForMessage(g.id);
  assert.equal(card.reply_to_message_id, paste.message!.message_id, 'threaded under the paste');
  assert.ok(card.text!.includes(`$${tok!.symbol}`), card.text);
  assert.ok(card.text!.includes(tok!.address));
  assert.ok(
    (card.reply_markup?.inline_keyboard ?? []).flat().some((b) => b.text.startsWith('Card')),
    'a button opens the full card',
  );
  const before = r.fake.messages(g.id).length;
  r.fake.sendText({ chat: g, text: `again: https://dexscreener.com/solana/${tok!.address}` });
  r.fake.sendText({ chat: g, text: `never heard of ${UNKNOWN_MINT}` });
  r.fake.sendText({
    chat: g,
    text: `bot relay ${other!.address}`,
    from: { id: 99, first_name: 'Relay' },
    fromBot: true,
  });
  r.fake.sendText({ chat: g, text: 'gm frens' });
  await barrier(r, g);
  assert.equal(
    r.fake.messages(g.id).length,
    before + 1,
    `only the barrier answered: ${JSON.stringify(
      r.fake
        .messages(g.id)
        .slice(before)
        .map((m) => m.text?.slice(0, 60)),
    )}`,
  );
  // A different token is not cooling down.
  r.fake.sendText({ chat: g, text: `and ${other!.address}` });
  const second = await r.fake.waitForMessage(g.id, (m) => m.text!.includes(other!.address));
  assert.ok(second.text!.includes(`$${other!.symbol}`));
});

test('pressing the card button opens the full token card', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const chat = privateChat(7002);
  const [tok] = solTokens(r);
  r.fake.sendText({ chat, text: tok!.address });
  const card = await r.fake.waitForMessage(chat.id);
  const data = (card.reply_markup?.inline_keyboard ?? []).flat().find((b) => b.text.startsWith('Card'))!.callback_data!;
  r.fake.pressButton({ chatId: chat.id, messageId: card.message_id, data });
  const full = await r.fake.waitForEdit(chat.id);
  assert.ok(full.text!.includes('Market cap'), full.text);
});

test('more than three tokens in one paste become one short list', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const chat = privateChat(7003);
  const four = solTokens(r).slice(0, 4);
  r.fake.sendText({ chat, text: four.map((x) => x.address).join('\n') });
  const list = await r.fake.waitForMessage(chat.id);
  assert.match(list.text!, /^4 tokens in that message:/);
  for (const x of four) assert.ok(list.text!.includes(x.address));
  await barrier(r, chat);
  assert.equal(r.fake.messages(chat.id).length, 2, 'one answer for the paste');
});

test('the per-chat cap stops a raid of pastes', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false }, autoCardsPerMinute: 2 });
  const g = group(-7004);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  const toks = solTokens(r).slice(0, 5);
  for (const x of toks) r.fake.sendText({ chat: g, text: x.address });
  await barrier(r, g);
  const cards = r.fake.messages(g.id).filter((m) => toks.some((x) => m.text!.includes(x.address)));
  assert.equal(cards.length, 2, JSON.stringify(r.fake.messages(g.id).map((m) => m.text?.slice(0, 80))));
});

test('upstream faults in automatic mode are silent and counted', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const g = group(-7005);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  const [tok] = solTokens(r);
  r.sb.setFaults({ burst5xx: 1_000, operations: ['tokenAnalytics'] });
  r.fake.sendText({ chat: g, text: tok!.address });
  await barrier(r, g);
  r.sb.clearFaults();
  assert.equal(r.fake.messages(g.id).length, 1, 'only the barrier answered');
  assert.match(r.app.metrics.render(), /command="autocard",outcome="unavailable"\} 1/);
});

test('/autocard: admins turn it off and on with a cooldown; it reports privacy mode', async (t) => {
  const r = await rig(t);
  const g = group(-7006);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  const on = await r.ask(g, '/autocard');
  assert.match(on.text!, /Automatic cards are on in this chat \(cooldown 10m per token\)/);
  assert.match(on.text!, /privacy mode is on/);
  assert.match(on.text!, /\/setprivacy to @BotFather/);
  assert.match(on.text!, /make me an admin/);
  // With privacy mode on, the paste never reaches the bot.
  assert.equal(r.fake.sendText({ chat: g, text: solTokens(r)[0]!.address }), undefined);
  await r.adapter.stop();
  const r2 = await rig(t, { fake: { privacyMode: false } });
  r2.fake.setMember(g.id, ADMIN.id, 'administrator');
  const reads = await r2.ask(g, '/autocard');
  assert.match(reads.text!, /I can read pasted addresses and links in this group/);
  const off = await r2.ask(g, '/autocard off');
  assert.match(off.text!, /now off/);
  r2.fake.sendText({ chat: g, text: solTokens(r2)[0]!.address });
  const back = await r2.ask(g, '/autocard on cooldown:2h');
  assert.match(back.text!, /now on here \(cooldown 2h per token\)/);
  assert.equal(r2.fake.messages(g.id).length, 3, 'the paste while off got nothing');
  const bad = await r2.ask(g, '/autocard cooldown:forever');
  assert.match(bad.text!, /Cooldown is a duration/);
  const member = { id: 5151, first_name: 'Member' };
  const denied = await r2.ask(g, '/autocard off', member);
  assert.match(denied.text!, /Only group admins/);
});

test('/token by name through Telegram: one match, several, none', async (t) => {
  const r = await rig(t);
  const chat = privateChat(7007);
  const { tokens } = r.sb.data;
  const unique = tokens.find(
    (x) =>
      tokens.filter(
        (y) => y.symbol.toLowerCase() === x.symbol.toLowerCase() || y.name.toLowerCase() === x.symbol.toLowerCase(),
      ).length === 1 && x.name.toLowerCase().includes(x.symbol.toLowerCase()),
  )!;
  const one = await r.ask(chat, `/token $${unique.symbol}`);
  assert.ok(one.text!.includes('Market cap'), one.text);
  assert.ok(one.text!.includes(unique.address));
  const word = ['swap', 'dog', 'cat', 'neon', 'baby'].find(
    (w) => tokens.filter((x) => x.name.toLowerCase().includes(w)).length >= 3,
  )!;
  const several = await r.ask(chat, `/token ${word}`);
  assert.match(several.text!, new RegExp(`Tokens matching “${word}”`));
  const buttons = (several.reply_markup?.inline_keyboard ?? []).flat();
  assert.ok(buttons.length >= 2 && buttons.length <= 5);
  r.fake.pressButton({ chatId: chat.id, messageId: several.message_id, data: buttons[0]!.callback_data! });
  const opened = await r.fake.waitForEdit(chat.id);
  assert.ok(opened.text!.includes('Market cap'));
  const none = await r.ask(chat, '/token zzqxqzz');
  assert.match(none.text!, /No token matches “zzqxqzz”/);
});

test('reply form: /token and /kol sent as a reply read the quoted message', async (t) => {
  const r = await rig(t);
  const g = group(-7008);
  const [tok] = solTokens(r);
  const kol = r.sb.data.kols[0]!;
  // Privacy mode is on: the paste is not delivered, but the command replying to it carries it.
  const paste = r.fake.sendText({ chat: g, text: `look https://birdeye.so/token/${tok!.address}?chain=solana` });
  assert.equal(paste, undefined);
  const pasteId = r.fake.messages(g.id).length; // nothing sent yet by the bot
  assert.equal(pasteId, 0);
  const incoming = r.fake.sendText({ chat: g, text: `who is https://x.com/${kol.username} ?` });
  assert.equal(incoming, undefined);
  r.fake.sendText({ chat: g, text: '/token', replyToMessageId: 1 });
  const card = await r.fake.waitForMessage(g.id);
  assert.ok(card.text!.includes(tok!.address), card.text);
  r.fake.sendText({ chat: g, text: '/kol', replyToMessageId: 2 });
  const kolCard = await r.fake.waitForMessage(g.id);
  assert.ok(kolCard.text!.includes(`@${kol.username}`), kolCard.text);
});

test('privacy mode on but the bot is a group admin: /autocard says it can read, and pastes get cards', async (t) => {
  const r = await rig(t);
  const g = group(-7009);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  r.fake.setMember(g.id, r.fake.botId, 'administrator');
  const status = await r.ask(g, '/autocard');
  assert.match(status.text!, /I can read pasted addresses and links in this group/);
  const [tok] = solTokens(r);
  assert.ok(r.fake.sendText({ chat: g, text: tok!.address }), 'delivered to an admin bot');
  const card = await r.fake.waitForMessage(g.id, (m) => m.text!.includes(tok!.address));
  assert.ok(card.text!.includes(`$${tok!.symbol}`));
});

test('a paste deleted before its card gets the card unthreaded, without an error; an edit that adds an address gets nothing', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const chat = privateChat(7010);
  const [a, b] = solTokens(r);
  r.sb.setFaults({ latencyMs: 300, operations: ['tokenAnalytics'] });
  const paste = r.fake.sendText({ chat, text: a!.address })!;
  r.fake.deleteIncoming(chat.id, paste.message!.message_id);
  const card = await r.fake.waitForMessage(chat.id);
  r.sb.clearFaults();
  assert.ok(card.text!.includes(a!.address));
  assert.equal(card.reply_to_message_id, undefined, 'nothing left to thread under');
  const plain = r.fake.sendText({ chat, text: 'gm' })!;
  r.fake.editText({ chat, messageId: plain.message!.message_id, text: `gm ${b!.address}` });
  await barrier(r, chat);
  assert.equal(r.fake.messages(chat.id).length, 2, 'the card and the barrier only');
  assert.ok(!r.logs.some((l) => /automatic card not sent/.test(l)), 'no failed send');
});

test("a paste's card speaks the poster's app language, unless the group chose one with /language", async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const g = group(-7101);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  const [tok, other] = solTokens(r);
  r.fake.sendText({ chat: g, text: `CA ${tok!.address}`, from: { id: 7102, first_name: 'Ivan', language_code: 'ru' } });
  const ru = await r.fake.waitForMessage(g.id);
  assert.match(ru.text!, /Капа \$/);
  r.fake.sendText({ chat: g, text: '/language ko', from: ADMIN });
  await r.fake.waitForMessage(g.id);
  r.fake.sendText({
    chat: g,
    text: `CA ${other!.address}`,
    from: { id: 7102, first_name: 'Ivan', language_code: 'ru' },
  });
  const ko = await r.fake.waitForMessage(g.id);
  assert.match(ko.text!, /시총 \$/);
});

test("an anonymous admin's paste gets a card, and so does a member posting as their channel; another bot's does not", async (t) => {
  const r = await rig(t, { fake: { privacyMode: false } });
  const g = group(-7101);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  const [a, b, c] = solTokens(r);
  // Posted as the group itself: `from` is GroupAnonymousBot, which Telegram marks as a bot.
  r.fake.sendText({ chat: g, text: `official CA: ${a!.address}`, senderChat: g });
  await r.fake.waitForMessage(g.id, (m) => m.text!.includes(a!.address));
  r.fake.sendText({ chat: g, text: `from my channel ${b!.address}`, senderChat: { id: -1009001, type: 'channel' } });
  await r.fake.waitForMessage(g.id, (m) => m.text!.includes(b!.address));
  r.fake.sendText({ chat: g, text: `relay ${c!.address}`, from: { id: 98, first_name: 'Relay' }, fromBot: true });
  await barrier(r, g);
  assert.equal(r.fake.messages(g.id).filter((m) => m.text!.includes(c!.address)).length, 0, "the other bot's paste");
});

test('pastes of unknown addresses do not take the card slots: a real token still gets its card', async (t) => {
  const r = await rig(t, { fake: { privacyMode: false }, autoCardsPerMinute: 2 });
  const g = group(-7102);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  // Wallets and contracts the service does not list: more of them than there are card slots.
  for (let i = 0; i < 4; i++) r.fake.sendText({ chat: g, text: `0x${(i + 1).toString(16).padStart(40, 'e')}` });
  const [tok] = solTokens(r);
  r.fake.sendText({ chat: g, text: tok!.address });
  await r.fake.waitForMessage(g.id, (m) => m.text!.includes(tok!.address));
});
