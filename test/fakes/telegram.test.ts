// The real grammY bot against the Telegram fake: what our adapter will see.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Bot, GrammyError, HttpError, InlineKeyboard, InputFile } from 'grammy';
import { startTelegramFake, tinyPng, type TelegramFake, type TelegramFakeOptions } from './telegram/index.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';

// Flood limits are off unless a test is about them: several quick sends to one private chat would 429.
async function setup(
  t: TestContext,
  opts: TelegramFakeOptions = { limits: false },
  configure?: (bot: Bot) => void,
): Promise<{ fake: TelegramFake; bot: Bot }> {
  const fake = await startTelegramFake(opts);
  const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
  let running: Promise<void> | undefined;
  // One hook, so the bot stops before the fake closes (a closed fake would make grammY retry for 3 s).
  t.after(async () => {
    if (bot.isRunning()) await bot.stop();
    await running;
    await fake.close();
  });
  if (configure) {
    configure(bot);
    bot.catch((err) => {
      throw err.error;
    });
    await new Promise<void>((resolve) => {
      running = bot.start({ onStart: () => resolve() });
    });
  }
  return { fake, bot };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected the call to be refused');
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

test('commands in a private chat and a group reach bot.command and the HTML reply is recorded', async (t) => {
  const { fake } = await setup(t, {}, (bot) => {
    bot.command('start', (ctx) => ctx.reply('<b>Welcome</b> to kolradar', { parse_mode: 'HTML' }));
    bot.command('token', (ctx) => ctx.reply(`Token <code>${escapeHtml(ctx.match)}</code>`, { parse_mode: 'HTML' }));
  });
  fake.sendText({ chat: { id: 111, type: 'private' }, text: '/start' });
  const welcome = await fake.waitForMessage(111);
  assert.equal(welcome.text, 'Welcome to kolradar');
  assert.equal(welcome.html, '<b>Welcome</b> to kolradar');
  assert.deepEqual(welcome.entities, [{ type: 'bold', offset: 0, length: 7 }]);

  const group = { id: -222, type: 'group' as const, title: 'Degens' };
  // Addressed to another bot: grammY must ignore it, so only the second command gets an answer.
  fake.sendText({ chat: group, text: '/token@some_other_bot y' });
  fake.sendText({ chat: group, text: `/token@${fake.botUsername} <x>` });
  const reply = await fake.waitForMessage(-222);
  assert.equal(reply.text, 'Token <x>');
  assert.equal(reply.html, 'Token <code>&lt;x&gt;</code>');
  assert.equal(fake.messages(-222).length, 1);
  assert.equal(fake.internalErrors.length, 0);
});

test("a user's language_code reaches the bot as the app sends it, 'en' when not given", async (t) => {
  const seen: (string | undefined)[] = [];
  const { fake } = await setup(t, {}, (bot) => {
    bot.command('start', (ctx) => {
      seen.push(ctx.from?.language_code);
      return ctx.reply('ok');
    });
  });
  fake.sendText({
    chat: { id: 131, type: 'private' },
    from: { id: 131, first_name: 'Ana', language_code: 'pt-br' },
    text: '/start',
  });
  await fake.waitForMessage(131);
  fake.sendText({ chat: { id: 132, type: 'private' }, text: '/start' });
  await fake.waitForMessage(132);
  assert.deepEqual(seen, ['pt-br', 'en']);
});

test('a button press is answered and editMessageText replaces the message', async (t) => {
  const { fake, bot } = await setup(t, {}, (b) => {
    b.command('menu', (ctx) =>
      ctx.reply('Pick one', { reply_markup: new InlineKeyboard().text('Refresh', 'refresh:1') }),
    );
    b.callbackQuery(/^refresh:/, async (ctx) => {
      await ctx.answerCallbackQuery({ text: 'Refreshed' });
      await ctx.editMessageText('<i>Fresh</i> data', { parse_mode: 'HTML' });
    });
  });
  fake.sendText({ chat: { id: 7, type: 'private' }, text: '/menu' });
  const menu = await fake.waitForMessage(7);
  const queryId = fake.pressButton({ chatId: 7, messageId: menu.message_id, data: 'refresh:1' });
  const edited = await fake.waitForEdit(7, (m) => m.message_id === menu.message_id);
  assert.equal(edited.text, 'Fresh data');
  assert.equal(edited.html, '<i>Fresh</i> data');
  assert.equal(edited.reply_markup, undefined, 'an edit without reply_markup drops the keyboard');
  assert.equal(edited.edits.length, 1);
  assert.deepEqual(
    fake.answersFor(queryId).map((a) => a.text),
    ['Refreshed'],
  );

  const same = await rejection(
    bot.api.editMessageText(7, menu.message_id, '<i>Fresh</i> data', { parse_mode: 'HTML' }),
  );
  assert.ok(same instanceof GrammyError);
  assert.equal(same.error_code, 400);
  assert.match(same.description, /^Bad Request: message is not modified/);
});

test('callback_data is limited to 64 bytes, not characters', async (t) => {
  const { fake, bot } = await setup(t);
  fake.addChat({ id: 5, type: 'private' });
  const keyboard = (data: string) => ({ reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: data }]] } });
  await bot.api.sendMessage(5, 'fits', keyboard('é'.repeat(32)));
  const err = await rejection(bot.api.sendMessage(5, 'too long', keyboard(`${'é'.repeat(32)}a`)));
  assert.ok(err instanceof GrammyError);
  assert.equal(err.error_code, 400);
  assert.equal(err.description, 'Bad Request: BUTTON_DATA_INVALID');
  assert.deepEqual(
    fake.messages(5).map((m) => m.text),
    ['fits'],
  );
});

test('text is limited to 4096 characters after HTML parsing', async (t) => {
  const { fake, bot } = await setup(t);
  fake.addChat({ id: -9, type: 'group' });
  await bot.api.sendMessage(-9, `<b>${'a'.repeat(4096)}</b>`, { parse_mode: 'HTML' });
  const err = await rejection(bot.api.sendMessage(-9, 'a'.repeat(4097)));
  assert.ok(err instanceof GrammyError);
  assert.equal(err.description, 'Bad Request: message is too long');
  const html = await rejection(bot.api.sendMessage(-9, '&lt;'.repeat(4097), { parse_mode: 'HTML' }));
  assert.ok(html instanceof GrammyError && html.error_code === 400);
  const bad = await rejection(bot.api.sendMessage(-9, '<b>bold <i>both</b></i>', { parse_mode: 'HTML' }));
  assert.ok(bad instanceof GrammyError);
  assert.match(bad.description, /^Bad Request: can't parse entities: Unmatched end tag/);
  assert.equal(fake.messages(-9).length, 1);
});

test('a forced 429 surfaces as GrammyError with retry_after, and an early retry is a violation', async (t) => {
  // No auto-retry transformer is installed, so grammY hands the raw 429 to the caller.
  const { fake, bot } = await setup(t);
  fake.addChat({ id: 8, type: 'private' });
  fake.force429({ count: 1, retryAfter: 3, chatId: 8 });
  const err = await rejection(bot.api.sendMessage(8, 'hello'));
  assert.ok(err instanceof GrammyError);
  assert.equal(err.error_code, 429);
  assert.equal(err.description, 'Too Many Requests: retry after 3');
  assert.deepEqual(err.parameters, { retry_after: 3 });
  assert.equal(fake.violations.length, 0);

  await rejection(bot.api.sendMessage(8, 'too soon'));
  assert.equal(fake.violations.length, 1);
  fake.advanceClock(3 * 1000 * fake.timeScale);
  await bot.api.sendMessage(8, 'after the window');
  assert.deepEqual(
    fake.messages(8).map((m) => m.text),
    ['after the window'],
  );
  assert.equal(fake.violations.length, 1);
});

test('with a time scale, a client that waits retry_after scaled never violates', async (t) => {
  const { fake, bot } = await setup(t, { timeScale: 0.01 });
  fake.addChat({ id: 9, type: 'private' });
  fake.force429({ count: 2, retryAfter: 2, chatId: 9 });
  for (;;) {
    try {
      await bot.api.sendMessage(9, 'eventually');
      break;
    } catch (err) {
      assert.ok(err instanceof GrammyError && err.error_code === 429);
      // Not a wait for an event: the client honouring retry_after (scaled) is what this test is about.
      await sleep((err.parameters.retry_after ?? 1) * 1000 * fake.timeScale);
    }
  }
  // A send inside a flood window is answered 429 and recorded as a violation: two 429s, then the
  // message, and no violation, is the client having waited out both windows at the scaled time.
  assert.deepEqual(
    fake.requests.filter((r) => r.method === 'sendMessage' && r.chat_id === 9).map((r) => r.status),
    [429, 429, 200],
  );
  assert.deepEqual(fake.violations, []);
  assert.equal(fake.messages(9).length, 1);
});

test('a kicked group answers 403 and setting the bot kicked delivers my_chat_member', async (t) => {
  const seen: string[] = [];
  const { fake, bot } = await setup(t, {}, (b) => {
    b.on('my_chat_member', (ctx) => {
      seen.push(ctx.myChatMember.new_chat_member.status);
    });
  });
  fake.addChat({ id: -31, type: 'group' });
  fake.failChat(-31, 'kicked');
  const kicked = await rejection(bot.api.sendMessage(-31, 'hi'));
  assert.ok(kicked instanceof GrammyError);
  assert.equal(kicked.error_code, 403);
  assert.equal(kicked.description, 'Forbidden: bot was kicked from the group chat');

  fake.addChat({ id: -32, type: 'supergroup' });
  fake.setMember(-32, fake.botId, 'kicked');
  const viaMember = await rejection(bot.api.sendMessage(-32, 'hi'));
  assert.ok(viaMember instanceof GrammyError && viaMember.error_code === 403);
  await until(() => seen.length > 0, 'the my_chat_member update');
  assert.deepEqual(seen, ['kicked']);
});

test('a group upgraded to a supergroup answers migrate_to_chat_id', async (t) => {
  const migrations: number[] = [];
  const { fake, bot } = await setup(t, {}, (b) => {
    b.on('message:migrate_to_chat_id', (ctx) => {
      migrations.push(ctx.message.migrate_to_chat_id);
    });
  });
  fake.sendText({ chat: { id: -40, type: 'group', title: 'Old' }, text: 'hello' });
  fake.migrateGroup(-40, -1000000000040);
  const err = await rejection(bot.api.sendMessage(-40, 'alert'));
  assert.ok(err instanceof GrammyError);
  assert.equal(err.error_code, 400);
  assert.equal(err.description, 'Bad Request: group chat was upgraded to a supergroup chat');
  assert.equal(err.parameters.migrate_to_chat_id, -1000000000040);
  await bot.api.sendMessage(-1000000000040, 'alert');
  assert.equal(fake.messages(-1000000000040).length, 1);
  await until(() => migrations.length > 0, 'the migrate_to_chat_id message');
  assert.deepEqual(migrations, [-1000000000040]);
});

test('setMyCommands checks names, descriptions and count', async (t) => {
  const { fake, bot } = await setup(t);
  const valid = [
    { command: 'token', description: 'Look up a token' },
    { command: 'kol_top', description: 'Top KOLs' },
  ];
  await bot.api.setMyCommands(valid);
  assert.deepEqual(fake.commands, valid);
  assert.deepEqual(await bot.api.getMyCommands(), valid);
  const refused = async (commands: { command: string; description: string }[]): Promise<string> => {
    const err = await rejection(bot.api.setMyCommands(commands));
    assert.ok(err instanceof GrammyError && err.error_code === 400);
    return err.description;
  };
  await refused([{ command: 'Token', description: 'upper case' }]);
  await refused([{ command: 'a'.repeat(33), description: 'too long' }]);
  await refused([{ command: 'ok', description: 'd'.repeat(257) }]);
  await refused([{ command: 'ok', description: '' }]);
  await refused(Array.from({ length: 101 }, (_, i) => ({ command: `c${i}`, description: 'x' })));
  assert.deepEqual(fake.commands, valid, 'refused lists leave the last good one in place');
});

test('descriptions and command lists are kept per two-letter language; a default answers other languages', async (t) => {
  const { fake, bot } = await setup(t);
  await bot.api.setMyDescription('English description');
  await bot.api.setMyDescription('Описание', { language_code: 'ru' });
  await bot.api.setMyShortDescription('Short', { language_code: 'pt' });
  assert.equal((await bot.api.getMyDescription({ language_code: 'ru' })).description, 'Описание');
  assert.equal((await bot.api.getMyDescription({ language_code: 'ko' })).description, 'English description');
  assert.equal((await bot.api.getMyShortDescription({ language_code: 'pt' })).short_description, 'Short');
  assert.equal(fake.descriptions.long.get(''), 'English description');
  for (const call of [
    () => bot.api.setMyDescription('x', { language_code: 'pt-BR' as never }),
    () => bot.api.setMyCommands([{ command: 'a', description: 'b' }], { language_code: 'zh-hans' as never }),
    () => bot.api.setMyDescription('d'.repeat(513)),
    () => bot.api.setMyShortDescription('d'.repeat(121)),
  ]) {
    const err = await rejection(call());
    assert.ok(err instanceof GrammyError && err.error_code === 400, String(err));
  }
  await bot.api.setMyCommands([{ command: 'token', description: 'Карточка токена' }], { language_code: 'ru' });
  assert.deepEqual(fake.allCommands.get('default|||ru'), [{ command: 'token', description: 'Карточка токена' }]);
  assert.equal(fake.commands, undefined, 'a language list is not the default list');
});

// grammY polls for 30 s; the test allows 20: were stop() to wait out the poll, the test would fail.
test('getUpdates is a true long poll and bot.stop() returns promptly', { timeout: 20_000 }, async (t) => {
  const { fake, bot } = await setup(t, {}, (b) => {
    b.on('message:text', () => {});
  });
  await until(() => fake.pendingPolls > 0, 'a held getUpdates');
  assert.equal(fake.pendingPolls, 1, 'grammY holds a getUpdates open');
  // Barrier: a later request to the same fake, answered while the poll stays held. An answered poll
  // would have made grammY send the next getUpdates.
  const polls = () => fake.requests.filter((r) => r.method === 'getUpdates').length;
  await nothingMoreAfter(polls, () => bot.api.getMe(), 'the held poll is not answered early');
  assert.equal(fake.pendingPolls, 1, 'the poll is still held');

  fake.sendText({ chat: { id: 12, type: 'private' }, text: 'ping' });
  await until(() => fake.unconfirmedUpdates.length === 0, 'the next poll to confirm the update via offset');

  await bot.stop();
  const last = fake.requests.at(-1);
  assert.equal(last?.method, 'getUpdates');
  assert.equal(last?.status, 200);
});

test('photos upload as multipart and editMessageMedia swaps them via attach://', async (t) => {
  const { fake, bot } = await setup(t);
  fake.addChat({ id: 3, type: 'private' });
  const sent = await bot.api.sendPhoto(3, new InputFile(tinyPng(40, 20), 'card.png'), {
    caption: '<b>Card</b>',
    parse_mode: 'HTML',
  });
  assert.equal(sent.caption, 'Card');
  const [card] = fake.messages(3);
  assert.equal(card?.photo?.source, 'upload');
  assert.deepEqual([card?.photo?.width, card?.photo?.height, card?.photo?.filename], [40, 20, 'card.png']);
  assert.equal(card?.html, '<b>Card</b>');

  await bot.api.editMessageMedia(3, sent.message_id, {
    type: 'photo',
    media: new InputFile(tinyPng(60, 30)),
    caption: 'v2',
  });
  const after = fake.messages(3)[0];
  assert.deepEqual([after?.photo?.width, after?.text, after?.edits.length], [60, 'v2', 1]);
  const long = await rejection(bot.api.sendPhoto(3, new InputFile(tinyPng(2, 2)), { caption: 'c'.repeat(1025) }));
  assert.ok(long instanceof GrammyError);
  assert.equal(long.description, 'Bad Request: message caption is too long');
});

test('network failures: dropped connections surface as HttpError, 5xx as GrammyError', async (t) => {
  const { fake, bot } = await setup(t);
  fake.addChat({ id: 4, type: 'private' });
  fake.failChat(4, 'drop', { count: 1 });
  assert.ok((await rejection(bot.api.sendMessage(4, 'lost'))) instanceof HttpError);
  fake.failChat(4, 'drop_after_send', { count: 1 });
  assert.ok((await rejection(bot.api.sendMessage(4, 'posted but unanswered'))) instanceof HttpError);
  fake.failChat(4, 'server_error', { count: 1 });
  const err = await rejection(bot.api.sendMessage(4, 'oops'));
  assert.ok(err instanceof GrammyError && err.error_code === 500);
  await bot.api.sendMessage(4, 'fine');
  assert.deepEqual(
    fake.messages(4).map((m) => m.text),
    ['posted but unanswered', 'fine'],
  );
  assert.deepEqual(
    fake.requests.filter((r) => r.chat_id === 4).map((r) => r.status),
    [0, 0, 500, 200],
  );
});

test('a wrong token is refused with 401', async (t) => {
  const { fake } = await setup(t);
  const stranger = new Bot(`${fake.botId}:wrong-secret`, { client: { apiRoot: fake.apiRoot } });
  const err = await rejection(stranger.api.getMe());
  assert.ok(err instanceof GrammyError);
  assert.deepEqual([err.error_code, err.description], [401, 'Unauthorized']);
});

test('getChatMember reports the status set for each user', async (t) => {
  const { fake, bot } = await setup(t);
  fake.addChat({ id: -50, type: 'supergroup', title: 'Alpha' });
  fake.setMember(-50, 42, 'administrator');
  fake.setMember(-50, 43, 'restricted');
  assert.equal((await bot.api.getChatMember(-50, 42)).status, 'administrator');
  assert.equal((await bot.api.getChatMember(-50, 43)).status, 'restricted');
  const chat = await bot.api.getChat(-50);
  assert.deepEqual([chat.type, chat.title], ['supergroup', 'Alpha']);
  const err = await rejection(bot.api.getChat(-51));
  assert.ok(err instanceof GrammyError);
  assert.equal(err.description, 'Bad Request: chat not found');
});

test("a message sent on behalf of a chat carries sender_chat and Telegram's placeholder user in from", async (t) => {
  const seen: { from?: { id: number; username?: string; is_bot: boolean }; sender?: { id: number; type: string } }[] =
    [];
  const { fake } = await setup(t, { limits: false }, (bot) =>
    bot.on('message', (ctx) => void seen.push({ from: ctx.from, sender: ctx.message.sender_chat })),
  );
  const grp = { id: -1009001, type: 'supergroup' as const, title: 'G' };
  fake.sendText({ chat: grp, text: '/a', senderChat: grp });
  fake.sendText({ chat: grp, text: '/b', senderChat: { id: -1009002, type: 'channel', title: 'C' } });
  fake.sendText({ chat: grp, text: '/c' });
  await until(() => seen.length >= 3, 'the three messages handled');
  assert.deepEqual(
    seen.map((s) => [s.from?.username, s.from?.is_bot, s.sender?.id, s.sender?.type]),
    [
      ['GroupAnonymousBot', true, -1009001, 'supergroup'],
      ['Channel_Bot', true, -1009002, 'channel'],
      ['tester', false, undefined, undefined],
    ],
  );
});

test('an admin deletes a bot message: editing it answers "message to edit not found"', async (t) => {
  const { fake, bot } = await setup(t);
  fake.addChat({ id: -55, type: 'group' });
  const m = await bot.api.sendMessage(-55, 'alert');
  fake.deleteSent(-55, m.message_id);
  const err = await rejection(bot.api.editMessageText(-55, m.message_id, 'edited'));
  assert.ok(err instanceof GrammyError);
  assert.equal(err.error_code, 400);
  assert.match(err.description, /message to edit not found/);
});
