// Refusals, faults and flood waits through the real grammY bot: each gets a short answer and the bot keeps going.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, group, privateChat, rig, TOKEN } from './helpers.ts';

test('foreign and expired buttons are answered with a short notice; the message stays', async (t) => {
  const r = await rig(t);
  const chat = privateChat(105);
  const m = await r.ask(chat, '/tokens');
  const legacy = r.fake.pressButton({ chatId: chat.id, messageId: m.message_id, data: 'page:2', unchecked: true });
  const expired = r.fake.pressButton({
    chatId: chat.id,
    messageId: m.message_id,
    data: 'a:nosuchkey',
    unchecked: true,
  });
  await eventually(
    () => r.fake.answersFor(legacy).length > 0 && r.fake.answersFor(expired).length > 0,
    'the answers to both presses',
  );
  assert.deepEqual(
    r.fake.answersFor(legacy).map((a) => a.text),
    ['This button is no longer supported. Run the command again.'],
  );
  assert.equal(
    r.fake.answersFor(expired)[0]?.text,
    'This button does not belong to this message.',
    'a key the message does not carry',
  );
  assert.equal(r.fake.messages(chat.id)[0]!.edits.length, 0);
});

test('mistakes and upstream faults get a short reply to the command, and the bot keeps going', async (t) => {
  // The bot's own command budget: an ordinary lookup on a loaded machine fits it (the hang below has a bot of its own).
  const r = await rig(t);
  const chat = privateChat(107);
  const asked = r.fake.sendText({ chat, text: '/tokn' });
  const typo = await r.fake.waitForMessage(chat.id);
  assert.match(typo.text!, /Unknown command \/tokn\. Did you mean \/token\?/);
  assert.equal(typo.reply_to_message_id, asked!.message!.message_id, 'errors quote the command');
  const bad = await r.ask(chat, '/token solana not-an-address');
  assert.match(bad.text!, /^⚠️/);
  assert.ok(bad.text!.length < 400);
  const missing = await r.ask(chat, '/kol @nobody_here_zz');
  assert.match(missing.text!, /Not found|No KOL|no record/i);

  r.sb.setFaults({ burst5xx: 10 });
  const down = await r.ask(chat, '/kols');
  assert.match(down.text!, /slow or unavailable/);
  r.sb.clearFaults();
  const tok = r.sb.data.tokens[5]!;
  const ok = await r.ask(chat, `/token ${tok.chain_id} ${tok.address}`);
  assert.ok(ok.text!.includes(tok.symbol), 'still polling and answering');
  assert.ok(r.adapter.isReady());

  // A hung upstream: waiting out a short budget is the scenario; then the bot still answers
  // (/help needs no upstream, so no budget decides it).
  const h = await rig(t, { budgetMs: 600 });
  h.sb.setFaults({ hangRate: 1 });
  const hang = await h.ask(chat, '/tokens sort:mcap');
  assert.match(hang.text!, /slow or unavailable|took too long/);
  assert.match((await h.ask(chat, '/help')).text!, /\/token/);
  assert.ok(h.adapter.isReady(), 'still polling');
  assert.ok(![...r.logs, ...h.logs].join('\n').includes(TOKEN.split(':')[1]!), 'the token never reaches the log');
});

test('a 429 on a reply is waited out: no send inside the window, the reply arrives', async (t) => {
  const r = await rig(t);
  const chat = privateChat(108);
  r.fake.force429({ count: 1, retryAfter: 2, chatId: chat.id });
  const tok = r.sb.data.tokens[1]!;
  const reply = await r.ask(chat, `/token ${tok.chain_id} ${tok.address}`);
  assert.ok(reply.text!.includes(tok.symbol));
  await new Promise((res) => setImmediate(res)); // the fake logs the status just after recording the message
  const sends = r.fake.requests.filter((q) => /^send(Message|Photo)$/.test(q.method) && q.chat_id === chat.id);
  assert.deepEqual(
    sends.slice(0, 2).map((s) => s.status),
    [429, 200],
  );
  assert.ok(
    sends.every((s, i) => i === 0 || s.status === 200),
    'one 429, then everything went through',
  );
  // Waited retry_after: the fake answers a send inside the window 429 again and records a violation.
  assert.deepEqual(r.fake.violations, []);
});

test('only group admins may /subscribe: a member is refused and nothing is stored, an admin succeeds', async (t) => {
  const r = await rig(t);
  const g = group(-4003);
  const member = { id: 901, first_name: 'Member' };
  const owner = { id: 902, first_name: 'Owner' };
  r.fake.setMember(g.id, member.id, 'member');
  r.fake.setMember(g.id, owner.id, 'creator');
  const refused = await r.ask(g, '/subscribe token_score:80', member);
  assert.match(refused.text!, /Only group admins/);
  assert.equal(await r.app.store.subscriptions.get(`telegram:${g.id}`), undefined);
  const done = await r.ask(g, '/subscribe token_score:80', owner);
  assert.doesNotMatch(done.text!, /^⚠️/);
  const sub = await r.app.store.subscriptions.get(`telegram:${g.id}`);
  assert.equal(sub?.filters.minTokenScore, 80);
  assert.equal(sub?.isGroup, true);
  assert.equal(sub?.createdBy, String(owner.id));
  // Anyone may read the settings.
  const shown = await r.ask(g, '/alerts', member);
  assert.match(shown.text!, /token_score:80/);
});

test('a group that removes the bot has its alerts stopped at once, without waiting for a failed send', async (t) => {
  const r = await rig(t);
  const g = group(-4004);
  const owner = { id: 903, first_name: 'Owner' };
  r.fake.setMember(g.id, owner.id, 'creator');
  const done = await r.ask(g, '/subscribe', owner);
  assert.doesNotMatch(done.text!, /^⚠️/);
  r.fake.setMember(g.id, r.fake.botId, 'kicked');
  const sub = await eventually(async () => {
    const s = await r.app.store.subscriptions.get(`telegram:${g.id}`);
    return s?.disabled ? s : undefined;
  }, 'the subscription disabled');
  assert.match(sub.disabled?.reason ?? '', /removed or blocked/);
});
