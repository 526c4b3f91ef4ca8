import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { silentLogger } from '../../src/log.ts';
import { StoreError } from '../../src/store/strict.ts';
import { asError, asText, harness, plain } from './harness.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

const h = await harness();
after(() => h.close());

const member = (chatId: string, locale: string | undefined, admin = false): Caller => ({
  platform: 'telegram',
  userId: `u-${locale}-${admin}`,
  chatId,
  chatType: 'group',
  ...(locale ? { locale } : {}),
  canManage: async () => admin,
});

async function say(caller: Caller, line: string): Promise<string> {
  const view = await h.dispatcher.text(line, caller);
  assert.ok(view);
  return view.kind === 'error' ? view.message : plain(asText(view).text);
}

test("answers follow the caller's app language until the chat sets one; then everyone gets the chat's", async () => {
  const chat = '-1001';
  assert.match(await say(member(chat, 'pt-br'), '/help'), /^\/alerts — Ver os alertas deste chat/);
  assert.match(await say(member(chat, 'ko'), '/help'), /명령어 \d+개\./);
  assert.match(await say(member(chat, undefined), '/help'), /^\/alerts — Show this chat’s alert settings/);
  assert.match(await say(member(chat, 'de-DE'), '/help'), /commands\. Options of one command:/);

  assert.equal(await say(member(chat, 'ru', true), '/language zh-CN'), '好的，以后我在这里说简体中文。');
  assert.match(await say(member(chat, 'es-419'), '/help'), /^\/alerts — 查看这里的提醒设置/);
  assert.match(
    await say(member(chat, 'es-419'), '/language'),
    /^这里使用的语言是简体中文。\n\n.*\nen English · zh 简体中文 · ru Русский · es Español · pt-BR Português \(Brasil\) · tr Türkçe · vi Tiếng Việt · ko 한국어$/s,
  );
  // Another chat is not affected.
  assert.match(await say(member('-1002', 'es-419'), '/help'), /^\/alerts — Ver las alertas de este chat/);

  // auto: back to each caller's language, said in the caller's own language.
  assert.equal(
    await say(member(chat, 'vi', true), '/language auto'),
    'Đã xóa ngôn ngữ: mình lại trả lời theo ngôn ngữ app của từng người (với bạn là Tiếng Việt).',
  );
  assert.match(
    await say(member(chat, 'es-419'), '/language'),
    /^Este chat no tiene idioma: respondo a cada uno en el idioma de su app \(a ti, en Español\)\./,
  );
});

test('in a group only admins may change the language; in a private chat anyone may', async () => {
  const chat = '-2001';
  const denied = asError((await h.dispatcher.text('/language ru', member(chat, 'tr')))!);
  assert.equal(denied.message, 'Bu sohbetin dilini sadece grup adminleri değiştirebilir.');
  assert.equal(await h.store.languages.get('telegram', chat), undefined);
  const discord: Caller = {
    platform: 'discord',
    userId: '1',
    chatId: '555',
    chatType: 'group',
    locale: 'en-GB',
    canManage: async () => false,
  };
  assert.equal(
    asError((await h.dispatcher.text('/language ru', discord))!).message,
    'Only members who can manage this channel can change its language.',
  );

  const dm: Caller = {
    platform: 'telegram',
    userId: '77',
    chatId: '77',
    chatType: 'private',
    locale: 'en',
    canManage: async () => true,
  };
  assert.equal(await say(dm, '/language Ru'), 'Готово: теперь в этом чате я говорю по-русски.');
  assert.equal(await h.store.languages.get('telegram', '77'), 'ru');
  // Anyone may look at the setting.
  assert.match(await say(member(chat, 'tr'), '/language'), /^Bu sohbet için dil seçilmedi/);
});

test('an unknown code gets a short answer in the current language with the choices, and nothing changes', async () => {
  const dm: Caller = {
    platform: 'telegram',
    userId: '78',
    chatId: '78',
    chatType: 'private',
    locale: 'es-ES',
    canManage: async () => true,
  };
  const bad = asError((await h.dispatcher.text('/language klingon', dm))!);
  assert.equal(bad.message, 'No hablo «klingon». Elige uno de: en, zh, ru, es, pt-BR, tr, vi, ko, o auto.');
  assert.equal(bad.example, '/language en');
  assert.equal(await h.store.languages.get('telegram', '78'), undefined);
});

test('with the chat language unreadable the answer still comes, in the caller’s language', async () => {
  const down = async (): Promise<never> => {
    throw new StoreError('store get failed: connection refused');
  };
  const store = { ...h.store, languages: { get: down, set: down, clear: down } };
  const d = createDispatcher({
    charts: sharedChartPool(),
    commands: h.dispatcher.commands,
    api: h.api,
    store,
    log: silentLogger(),
  });
  const view = await d.text('/help', member('-3001', 'ru'));
  assert.match(plain(asText(view!).text), /Параметры одной команды:/);
});
