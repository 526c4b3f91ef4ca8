// The caller's Telegram language_code and a group's /language, through the real grammY bot and the Bot API fake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGUES, LOCALES, TELEGRAM_CODES } from '../../../src/i18n/index.ts';
import { button, group, privateChat, rig } from './helpers.ts';

test("a private chat answers in the user's app language; an unknown one gets English", async (t) => {
  const r = await rig(t);
  const pt = await r.ask(privateChat(301), '/start', { id: 301, first_name: 'Ana', language_code: 'pt-br' });
  assert.match(pt.text!, /^Oi, eu sou o kolradar\./);
  assert.match(pt.text!, /\/token — Card do token por CA/);
  const zh = await r.ask(privateChat(302), '/help', { id: 302, first_name: 'Li', language_code: 'zh-hans' });
  assert.match(zh.text!, /\/token — 代币卡片/);
  const de = await r.ask(privateChat(303), '/help', { id: 303, first_name: 'Jo', language_code: 'de' });
  assert.match(de.text!, /\/token — Token card by address/);
});

test('group admins set the language with /language; members cannot; everyone then reads it', async (t) => {
  const r = await rig(t);
  const chat = group(-5001);
  const admin = { id: 501, first_name: 'Boss', language_code: 'en' };
  const member = { id: 502, first_name: 'Kim', language_code: 'ko' };
  r.fake.setMember(chat.id, admin.id, 'administrator');
  r.fake.setMember(chat.id, member.id, 'member');

  const denied = await r.ask(chat, '/language ru', member);
  assert.equal(denied.text, '⚠️ 이 채팅의 언어는 그룹 관리자만 바꿀 수 있어요.');
  const set = await r.ask(chat, '/language ru', admin);
  assert.equal(set.text, 'Готово: теперь в этом чате я говорю по-русски.');
  const help = await r.ask(chat, '/help', member);
  assert.match(help.text!, /\/token — Карточка токена/);
  const shown = await r.ask(chat, '/language', member);
  assert.match(shown.text!, /^Язык этого чата: Русский\./);
  assert.match(shown.html!, /<code>pt-BR<\/code> Português \(Brasil\)/);
});

test('the command menu and the bot profile are registered in every language (two-letter codes), English as the default', async (t) => {
  const r = await rig(t);
  const names = (r.fake.commands ?? []).map((c) => c.command);
  assert.ok(names.includes('language') && names.includes('token'));
  assert.equal(r.fake.commands!.find((c) => c.command === 'token')!.description, CATALOGUES.en.commands.token);
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const code = TELEGRAM_CODES[locale];
    const list = r.fake.allCommands.get(`default|||${code}`);
    assert.ok(list, `menu for ${code}`);
    assert.deepEqual(
      list.map((c) => c.command),
      names,
      `${code}: same names, only descriptions change`,
    );
    assert.equal(list.find((c) => c.command === 'token')!.description, CATALOGUES[locale].commands.token);
    assert.equal(r.fake.descriptions.long.get(code), CATALOGUES[locale].bot.description);
    assert.equal(r.fake.descriptions.short.get(code), CATALOGUES[locale].bot.shortDescription);
  }
  assert.equal(r.fake.descriptions.long.get(''), CATALOGUES.en.bot.description);
  assert.equal(TELEGRAM_CODES['pt-BR'], 'pt');
  assert.ok(!r.logs.some((l) => l.includes('not set')), 'every localised text was accepted');
});

test('through the Telegram fake: cards, tables, buttons, a press and errors in the chat language, within Telegram limits', async (t) => {
  const r = await rig(t);
  const ru = { id: 601, first_name: 'Ivan', language_code: 'ru' };
  const chat = privateChat(601);
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  const card = await r.ask(chat, `/token solana ${tok.address}`, ru);
  assert.match(card.text ?? '', /Капа/);
  const list = await r.ask(chat, '/kols', ru);
  assert.match(list.text!, /сортировка: score/);
  const next = button(list, 'Далее');
  const pressed = r.fake.pressButton({ chatId: chat.id, messageId: list.message_id, data: next, from: ru });
  const edited = await r.fake.waitForEdit(chat.id, (m) => m.message_id === list.message_id);
  assert.match(edited.text!, /11-20/);
  assert.ok(
    r.fake.answersFor(pressed).every((a) => !a.text),
    'a working press shows no notice',
  );
  const wrong = await r.ask(chat, '/kols sort:winrat', ru);
  assert.equal(wrong.text?.split('\n')[0], '⚠️ Неизвестное значение (сортировка) «winrat». Может, winrate?');
  const ko = { id: 602, first_name: 'Kim', language_code: 'ko' };
  const err = await r.ask(privateChat(602), '/kol @nosuchkolatall', ko);
  assert.match(err.text!, /@nosuchkolatall라는 KOL은 없어요/);
  for (const m of [card, list, edited, wrong, err]) assert.ok((m.text ?? '').length <= (m.isCaption ? 1024 : 4096));
});
