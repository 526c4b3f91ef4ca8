// Commands and buttons through the real grammY bot, against the Bot API fake and the sandbox upstream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usd } from '../../../src/i18n/english.ts';
import { sandboxLines } from '../../helpers/sandbox-lines.ts';
import { nothingMoreAfter } from '../../helpers/wait.ts';
import { barrier, button, group, privateChat, rig } from './helpers.ts';

test('/token in a private chat shows the sandbox token: name, symbol, market cap, buttons; valid HTML', async (t) => {
  const r = await rig(t);
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  const reply = await r.ask(privateChat(101), `/token solana ${tok.address}`);
  assert.ok(reply.text!.includes(`${tok.name} ($${tok.symbol})`), reply.text);
  assert.ok(reply.text!.includes(`Market cap: ${usd(tok.marketcap)}`), reply.text);
  assert.equal(reply.parse_mode, 'HTML');
  assert.match(reply.html!, /^<b>/, 'the title is bold HTML, not Markdown');
  const buttons = (reply.reply_markup?.inline_keyboard ?? []).flat();
  assert.ok(buttons.some((b) => b.text === 'More tweets' && b.callback_data?.startsWith('a:')));
  assert.ok(buttons.some((b) => b.text === 'Explorer' && b.url?.includes(tok.address)));
  assert.deepEqual(r.fake.internalErrors, []);
});

test('/start greets and lists the commands; setMyCommands sent every registry command', async (t) => {
  const r = await rig(t);
  const hello = await r.ask(privateChat(102), '/start');
  assert.match(hello.text!, /^Hi/);
  for (const name of r.app.dispatcher.commands.keys())
    assert.ok(hello.text!.includes(`/${name}`), `help names /${name}`);
  const listed = (r.fake.commands ?? []).map((c) => c.command);
  for (const name of r.app.dispatcher.commands.keys()) assert.ok(listed.includes(name), `menu has /${name}`);
  for (const c of r.fake.commands ?? []) assert.ok(c.description.length >= 1 && c.description.length <= 256);
});

test('in a group: /token@ourbot answers, /token@otherbot and plain chat are ignored', async (t) => {
  const r = await rig(t);
  const g = group(-4001);
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'base')!;
  r.fake.sendText({ chat: g, text: `/token@some_other_bot base ${tok.address}` });
  r.fake.sendText({ chat: g, text: 'gm everyone, /token is great' });
  r.fake.sendText({ chat: g, text: '/notours arg' });
  const reply = await r.ask(g, `/token@${r.fake.botUsername} base ${tok.address}`);
  assert.ok(reply.text!.includes(`($${tok.symbol})`), reply.text);
  const plain = await r.ask(g, `/token base ${tok.address}`);
  assert.ok(plain.text!.includes(`Market cap: ${usd(tok.marketcap)}`));
  assert.equal(
    r.fake.messages(g.id).length,
    2,
    'nothing answered the other bot, the chatter or an unknown bare command',
  );
});

test('every command answers once, with valid HTML, in a private chat and in a group', async (t) => {
  const r = await rig(t);
  const { kol, tok, lines } = sandboxLines(r.sb);
  const admin = { id: 777, first_name: 'Admin' };
  r.fake.setMember(-4002, admin.id, 'administrator');
  const expect: Record<string, string> = {
    token: tok.symbol,
    kol: kol.username,
    kolmap: kol.username,
    momentum: kol.username,
  };
  for (const chat of [privateChat(103), { id: -4002, type: 'group' as const, title: 'All commands' }]) {
    await r.ask(chat, '/subscribe', admin); // so /alerts, /mute and /unsubscribe have something to act on
    let asked = 1;
    for (const [name, command] of r.app.dispatcher.commands) {
      asked++;
      const line = lines[name] ?? command.examples[0];
      const reply = await r.ask(chat, line, admin);
      assert.ok(reply.text && reply.text.length <= 4096, `${line} in ${chat.type}`);
      if (expect[name]) assert.ok(reply.text.includes(expect[name]!), `${line}: ${reply.text}`);
      if (lines[name]) assert.doesNotMatch(reply.text, /^⚠️/, `${line} failed: ${reply.text}`);
    }
    let helpId = 0;
    await nothingMoreAfter(
      () => r.fake.messages(chat.id).filter((m) => m.message_id !== helpId).length,
      async () => {
        helpId = (await barrier(r, chat, admin)).message_id;
      },
      `one answer per command in the ${chat.type} chat`,
    );
    assert.equal(r.fake.messages(chat.id).length, asked + 1, 'one answer per command, then the barrier’s');
  }
  assert.deepEqual(r.fake.internalErrors, []);
});

test('paging: Next replaces the message in place, the press is answered, Previous goes back', async (t) => {
  const r = await rig(t);
  const chat = privateChat(104);
  const first = await r.ask(chat, '/tokens');
  const firstText = first.text!;
  assert.match(firstText, /1-10 of \d+/);
  const q1 = r.fake.pressButton({ chatId: chat.id, messageId: first.message_id, data: button(first, 'Next') });
  const edited = await r.fake.waitForEdit(chat.id, (m) => m.message_id === first.message_id);
  assert.match(edited.text!, /11-20 of \d+/);
  assert.notEqual(edited.text, firstText);
  assert.equal(r.fake.answersFor(q1).length, 1, 'answered exactly once');
  assert.equal(r.fake.messages(chat.id).length, 1, 'no new message');
  const q2 = r.fake.pressButton({ chatId: chat.id, messageId: first.message_id, data: button(edited, '◀ Previous') });
  const back = await r.fake.waitForEdit(chat.id, (m) => m.message_id === first.message_id);
  assert.match(back.text!, /1-10 of \d+/);
  assert.equal(r.fake.answersFor(q2).length, 1);
});

test('hostile upstream text arrives escaped and intact', async (t) => {
  const r = await rig(t);
  const chat = privateChat(106);
  const { htmlToken, cjkToken, rtlKol } = r.sb.data.edge;
  const html = await r.ask(chat, `/token ${htmlToken.chain_id} ${htmlToken.address}`);
  assert.ok(html.text!.includes(htmlToken.name), `shown as written: ${html.text}`);
  assert.ok(html.text!.includes(htmlToken.symbol));
  assert.ok(html.html!.includes('&lt;b&gt;Bold&lt;/b&gt; &amp;'), 'escaped in the HTML sent');
  assert.ok(
    !html.entities.some((e) => e.type === 'bold' && html.text!.slice(e.offset, e.offset + e.length) === 'Bold'),
    'no markup from upstream',
  );
  const cjk = await r.ask(chat, `/token ${cjkToken.chain_id} ${cjkToken.address}`);
  assert.ok(cjk.text!.includes(cjkToken.name), cjk.text);
  const rtl = await r.ask(chat, `/kol @${rtlKol.username}`);
  assert.ok(rtl.text!.includes(rtlKol.username));
});
