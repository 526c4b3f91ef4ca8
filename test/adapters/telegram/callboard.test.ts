/**
 * Members' calls end to end through grammY and the Telegram fake: /callboard on,
 * two members paste the same address (the first gets the credit, the second's
 * card names them), follow-ups on the sandbox's market walk, /lb and /stats
 * against figures computed here from what the sandbox served, and /callboard
 * forget taking a member away.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSolanaAddress } from '../../../src/domain/chains.ts';
import { usd } from '../../../src/i18n/english.ts';
import { group, rig, type Rig } from './helpers.ts';

const ADMIN = { id: 424242, first_name: 'Tester', username: 'tester' };
const ALICE = { id: 5001, first_name: 'Alice', username: 'alice' };
const BOB = { id: 5002, first_name: 'Bob', username: 'bob' };

/** "3x", "1.4x", "0.42x": the multiple as the board writes it (en), without a loss's percentage. */
const times = (x: number) =>
  `${new Intl.NumberFormat('en', { maximumFractionDigits: x >= 10 ? 0 : x >= 1 ? 1 : 2 }).format(x)}x`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function say(r: Rig, chat: ReturnType<typeof group>, from: typeof ALICE, text: string, match: RegExp) {
  const last = r.fake.messages(chat.id).at(-1)?.message_id ?? 0;
  const sent = r.fake.sendText({ chat, from, text })!;
  const answer = await r.fake.waitForMessage(chat.id, (m) => m.message_id > last && match.test(m.text ?? ''));
  return { sent, answer };
}

test('Telegram: first caller credited, the second named on their card, followed up on the market walk, ranked, forgotten', {
  timeout: 60_000,
}, async (t) => {
  let clock = Date.now();
  const now = () => clock;
  const r = await rig(t, { fake: { privacyMode: false }, marketClock: now, autoCardsPerMinute: 100 });
  const g = group(-9101);
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  await say(r, g, ADMIN, '/callboard on', /^Call board on/);
  // A member cannot turn it off.
  await say(r, g, ALICE, '/callboard off', /Only admins/);

  const toks = r.sb.data.tokens.filter((x) => x.chain_id === 'solana' && isSolanaAddress(x.address) && x.marketcap > 0);
  const mine = { alice: toks.slice(0, 3), bob: toks.slice(3, 6) };
  const base = new Map(toks.slice(0, 6).map((x) => [x.address, x.marketcap]));
  const pastes = new Map<string, number>();
  for (const [who, user] of [
    ['alice', ALICE],
    ['bob', BOB],
  ] as const)
    for (const tok of mine[who]) {
      const { sent, answer } = await say(r, g, user, `aping ${tok.address}`, new RegExp(tok.address));
      assert.ok(answer.text!.includes(`Call recorded: @${who} at ${usd(base.get(tok.address)!)}`), answer.text);
      pastes.set(tok.address, sent.message!.message_id);
    }
  // Bob pastes Alice's first token: not a new call; his card names her.
  const first = mine.alice[0]!;
  const { answer: repeat } = await say(r, g, BOB, `this one ${first.address}`, /First called by/);
  assert.ok(
    repeat.text!.includes(`First called by @alice`) &&
      repeat.text!.includes(`at ${usd(base.get(first.address)!)}, now 1x`),
    repeat.text,
  );
  // An anonymous admin (posting as the group) and a bot paste a token: a card at most, never a call.
  const anon = toks[6]!;
  const last6 = r.fake.messages(g.id).at(-1)!.message_id;
  r.fake.sendText({ chat: g, senderChat: g, text: `anon ${anon.address}` });
  const anonCard = await r.fake.waitForMessage(g.id, (m) => m.message_id > last6 && m.text!.includes(anon.address));
  assert.ok(!/Call recorded|First called/.test(anonCard.text!), anonCard.text);
  r.fake.sendText({ chat: g, from: { id: 5999, first_name: 'Relay' }, fromBot: true, text: `bot ${toks[7]!.address}` });
  await say(r, g, ADMIN, '/callboard', /call board is on/);
  assert.equal((await r.app.store.members.list(`telegram:${g.id}`, 0)).length, 6, 'six calls, the repeat is none');

  // Follow-ups: two tokens pump, the walk moves all; one round after the 5 min point samples each.
  const watcher = r.app.startAlerts([r.adapter.sender], { followupNow: now });
  first.marketcap *= 3;
  mine.bob[0]!.marketcap *= 2.5;
  clock += 6 * 60_000;
  await watcher.tick();
  const served = new Map(toks.slice(0, 6).map((x) => [x.address, x.marketcap]));
  const calls = await r.app.store.members.list(`telegram:${g.id}`, 0);
  for (const c of calls) {
    assert.equal(c.samples.length, 1, `${c.token.symbol}: one sample at the 5 min point`);
    assert.equal(c.samples[0]!.marketCap, served.get(c.token.address), 'the market cap the sandbox served');
    assert.equal(c.peak, Math.max(base.get(c.token.address)!, served.get(c.token.address)!), 'the peak kept');
  }

  // The leaderboard and /stats against figures computed here from the sandbox's caps.
  const expect = (who: 'alice' | 'bob') => {
    const peaks = mine[who].map((x) => Math.max(1, served.get(x.address)! / base.get(x.address)!));
    const hits = peaks.filter((p) => p >= 2).length;
    return { hit: `${Math.round((hits / 3) * 100)}%`, median: times(median(peaks)), best: times(Math.max(...peaks)) };
  };
  const { answer: lb } = await say(r, g, BOB, '/lb all', /Top callers/);
  for (const who of ['alice', 'bob'] as const) {
    const lines = lb.text!.split('\n');
    const at = lines.findIndex((l) => l.includes(`@${who}`));
    // A phone-wide table: the last column wraps under its row.
    const row = at < 0 ? undefined : `${lines[at]} ${lines[at + 1]}`;
    const e = expect(who);
    assert.ok(row, `${who} ranked: ${lb.text}`);
    assert.match(row!, new RegExp(`@${who}\\s+${e.hit}\\s+3\\s+${e.median.replace('.', '\\.')}`), row);
    assert.ok(row!.includes(e.best), `${row} has the best ${e.best}`);
  }
  assert.match(lb.text!, /at least 3 calls/);
  const { answer: stats } = await say(r, g, BOB, '/stats @alice', /Calls by @alice/);
  assert.ok(stats.text!.includes(`Calls: 3 · hit rate ${expect('alice').hit}`), stats.text);
  // As a reply to her message: the same member.
  const last = r.fake.messages(g.id).at(-1)!.message_id;
  r.fake.sendText({ chat: g, from: BOB, text: '/stats', replyToMessageId: pastes.get(first.address)! });
  const byReply = await r.fake.waitForMessage(g.id, (m) => m.message_id > last);
  assert.match(byReply.text!, /Calls by @alice/);
  await say(r, g, BOB, '/stats @carol', /I don’t know @carol here/);

  // Alice forgets herself: her calls, her credit and her name leave the board.
  const { answer: forgot } = await say(r, g, ALICE, '/callboard forget', /forgotten/);
  assert.match(forgot.text!, /Calls removed: 3/);
  const left = await r.app.store.members.list(`telegram:${g.id}`, 0);
  assert.deepEqual([...new Set(left.map((c) => c.member?.handle))], ['bob']);
  for await (const [, v] of r.app.store.space('calls').entries()) assert.ok(!JSON.stringify(v).includes('alice'));
  const { answer: after } = await say(r, g, BOB, '/lb all', /Top callers/);
  assert.ok(!after.text!.includes('@alice'));
  // Her first token is open again: the next member to paste it makes a new call.
  const CAROL = { id: 5003, first_name: 'Carol', username: 'carol' };
  const { answer: again } = await say(r, g, CAROL, `now ${first.address}`, /Call recorded|First called/);
  assert.match(again.text!, /Call recorded: @carol/);
});
