// The fake's wire protocol seen by a plain HTTP client: HTML parsing, long
// polling, flood control and request encodings.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../../helpers/wait.ts';
import { parseHtml, startTelegramFake, tinyPng, type TelegramFake, type TelegramFakeOptions } from './index.ts';

interface Answer {
  status: number;
  body: { ok: boolean; result?: any; error_code?: number; description?: string; parameters?: Record<string, number> };
}

async function open(t: TestContext, opts?: TelegramFakeOptions): Promise<TelegramFake> {
  const fake = await startTelegramFake(opts);
  t.after(() => fake.close());
  return fake;
}

async function call(
  fake: TelegramFake,
  method: string,
  params: Record<string, unknown> = {},
  init?: RequestInit,
): Promise<Answer> {
  const res = await fetch(
    `${fake.apiRoot}/bot${fake.token}/${method}`,
    init ?? {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    },
  );
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const parseError = (html: string): string => {
  try {
    parseHtml(html);
  } catch (err) {
    return (err as Error).message;
  }
  return 'parsed';
};

test('HTML mode: entities, decoding and the errors Telegram gives', () => {
  const parsed = parseHtml('<b>bold <i>both</i></b> &lt;t&gt; &amp; &quot;q&quot; &#39;s &#x1F600; &nbsp;');
  assert.equal(parsed.text, 'bold both <t> & "q" \'s 😀 &nbsp;');
  assert.deepEqual(parsed.entities, [
    { type: 'bold', offset: 0, length: 9 },
    { type: 'italic', offset: 5, length: 4 },
  ]);
  assert.deepEqual(parseHtml('<pre><code class="language-ts">x</code></pre>').entities, [
    { type: 'pre', offset: 0, length: 1, language: 'ts' },
  ]);
  assert.deepEqual(parseHtml('<a href="https://x.io/?a=1&amp;b=2">link</a>').entities, [
    { type: 'text_link', offset: 0, length: 4, url: 'https://x.io/?a=1&b=2' },
  ]);
  assert.deepEqual(
    parseHtml('<blockquote expandable>q</blockquote><span class="tg-spoiler">s</span>').entities.map((e) => e.type),
    ['expandable_blockquote', 'spoiler'],
  );
  assert.deepEqual(
    parseHtml('<code><b>x</b></code>').entities.map((e) => e.type),
    ['code'],
    'code cannot hold other entities',
  );

  assert.equal(
    parseError('<div>x</div>'),
    `Bad Request: can't parse entities: Unsupported start tag "div" at byte offset 0`,
  );
  assert.equal(parseError('é <3'), `Bad Request: can't parse entities: Unsupported start tag "3" at byte offset 3`);
  assert.equal(
    parseError('<b>x'),
    `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
  );
  assert.equal(parseError('x</b>'), `Bad Request: can't parse entities: Unexpected end tag at byte offset 1`);
  assert.match(parseError('<b>x</i>'), /Unmatched end tag at byte offset 4, expected "<\/b>", found "<\/i>"/);
  assert.match(parseError('<span>x</span>'), /Tag "span" must have class "tg-spoiler"/);
});

// The poll asks for 50 s, the test allows 20: held until its timeout, the test fails instead of passing late.
test('getUpdates holds until an update arrives, ids start at 1 and offset confirms', { timeout: 20_000 }, async (t) => {
  const fake = await open(t);
  const held = call(fake, 'getUpdates', { timeout: 50 });
  await until(() => fake.pendingPolls > 0, 'the getUpdates to be held');
  assert.equal(fake.pendingPolls, 1, 'held with nothing to deliver');
  fake.sendText({ chat: { id: 1, type: 'private' }, text: 'a' });
  const first = await held;
  assert.deepEqual(
    first.body.result.map((u: { update_id: number }) => u.update_id),
    [1],
  );

  fake.sendText({ chat: { id: 1, type: 'private' }, text: 'b' });
  fake.sendText({ chat: { id: 1, type: 'private' }, text: 'c' });
  const again = await call(fake, 'getUpdates', { limit: 2 });
  assert.deepEqual(
    again.body.result.map((u: { message: { text: string } }) => u.message.text),
    ['a', 'b'],
    'unconfirmed updates come back',
  );
  const confirmed = await call(fake, 'getUpdates', { offset: 3 });
  assert.deepEqual(
    confirmed.body.result.map((u: { update_id: number }) => u.update_id),
    [3],
  );
  const empty = await call(fake, 'getUpdates', { offset: 4, timeout: 0 });
  assert.deepEqual(empty.body.result, []);
  assert.equal(fake.unconfirmedUpdates.length, 0);
});

test('a second poller ends the held one with 409 Conflict', async (t) => {
  const fake = await open(t);
  const first = call(fake, 'getUpdates', { timeout: 5 });
  await until(() => fake.pendingPolls > 0, 'the first getUpdates to be held');
  const second = call(fake, 'getUpdates', { timeout: 5 });
  const conflict = await first;
  assert.equal(conflict.status, 409);
  assert.match(conflict.body.description ?? '', /^Conflict: terminated by other getUpdates request/);
  fake.sendText({ chat: { id: 1, type: 'private' }, text: 'x' });
  assert.equal((await second).body.result.length, 1);
});

test('private chats get 1 message/s: a 429 opens a retry_after window and sends inside it are violations', async (t) => {
  // A long time scale keeps the windows open however slow the machine; advanceClock ends them.
  const fake = await open(t, { timeScale: 10 });
  fake.addChat({ id: 1, type: 'private' });
  assert.equal((await call(fake, 'sendMessage', { chat_id: 1, text: 'one' })).status, 200);
  const limited = await call(fake, 'sendMessage', { chat_id: 1, text: 'two' });
  assert.equal(limited.status, 429);
  assert.deepEqual(limited.body, {
    ok: false,
    error_code: 429,
    description: 'Too Many Requests: retry after 1',
    parameters: { retry_after: 1 },
  });
  assert.equal(fake.violations.length, 0, 'hitting the limit once is not a violation');
  await call(fake, 'sendMessage', { chat_id: 1, text: 'ignoring retry_after' });
  assert.deepEqual(
    fake.violations.map((v) => [v.chat_id, v.scope]),
    [[1, 'chat']],
  );
  fake.advanceClock(1000 * fake.timeScale);
  assert.equal((await call(fake, 'sendMessage', { chat_id: 1, text: 'three' })).status, 200);
  assert.equal(fake.violations.length, 1);
});

test('groups get 20 messages a minute and the whole bot a global rate', async (t) => {
  const fake = await open(t, { timeScale: 10, limits: { globalPerSecond: 25, perChatPerSecond: 100 } });
  fake.addChat({ id: -5, type: 'group' });
  for (let i = 0; i < 20; i++)
    assert.equal((await call(fake, 'sendMessage', { chat_id: -5, text: `m${i}` })).status, 200);
  const group = await call(fake, 'sendMessage', { chat_id: -5, text: 'm20' });
  assert.equal(group.status, 429);
  assert.ok((group.body.parameters?.retry_after ?? 0) >= 1 && (group.body.parameters?.retry_after ?? 99) <= 60);
  for (let i = 0; i < 5; i++) {
    fake.addChat({ id: 100 + i, type: 'private' });
    assert.equal((await call(fake, 'sendMessage', { chat_id: 100 + i, text: 'hi' })).status, 200);
  }
  fake.addChat({ id: 200, type: 'private' });
  assert.equal((await call(fake, 'sendMessage', { chat_id: 200, text: 'over' })).status, 429, '26th send in a second');
  await call(fake, 'sendMessage', { chat_id: 100, text: 'inside the global window' });
  assert.deepEqual(
    fake.violations.map((v) => v.scope),
    ['global'],
  );
});

test('multipart, urlencoded and JSON bodies carry the same parameters', async (t) => {
  const fake = await open(t, { limits: false });
  fake.addChat({ id: 2, type: 'private' });
  const form = new FormData();
  form.set('chat_id', '2');
  form.set('caption', 'direct upload');
  form.set('photo', new Blob([tinyPng(8, 4)]), 'p.png');
  const photo = await call(fake, 'sendPhoto', {}, { method: 'POST', body: form });
  assert.equal(photo.status, 200);
  assert.deepEqual(
    photo.body.result.photo.map((p: { width: number; height: number }) => [p.width, p.height]),
    [[8, 4]],
  );

  const urlencoded = new URLSearchParams({
    chat_id: '2',
    text: 'hey',
    reply_markup: JSON.stringify({ inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] }),
  });
  const text = await call(
    fake,
    'sendMessage',
    {},
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: urlencoded },
  );
  assert.equal(text.status, 200);
  assert.deepEqual(fake.messages(2)[1]?.reply_markup, { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] });

  const junk = new FormData();
  junk.set('chat_id', '2');
  junk.set('photo', new Blob([Buffer.from('not an image')]), 'x.png');
  const refused = await call(fake, 'sendPhoto', {}, { method: 'POST', body: junk });
  assert.deepEqual([refused.status, refused.body.description], [400, 'Bad Request: IMAGE_PROCESS_FAILED']);
  const missing = await call(fake, 'sendPhoto', { chat_id: 2, photo: 'attach://nothing' });
  assert.equal(missing.status, 400);
});

test('unknown chats, methods and callback queries answer as Telegram does', async (t) => {
  const fake = await open(t, { limits: false });
  assert.deepEqual(
    (await call(fake, 'sendMessage', { chat_id: 99, text: 'x' })).body.description,
    'Bad Request: chat not found',
  );
  assert.equal((await call(fake, 'noSuchMethod')).status, 404);
  const empty = await call(fake, 'sendMessage', { chat_id: 99, text: '  ' });
  assert.equal(empty.status, 400);

  fake.sendText({ chat: { id: -7, type: 'group' }, from: { id: 70, first_name: 'Ann' }, text: 'gm' });
  fake.setMember(-7, 71, 'member');
  const sent = await call(fake, 'sendMessage', {
    chat_id: -7,
    text: 'pick',
    reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] },
  });
  assert.throws(() => fake.pressButton({ chatId: -7, messageId: sent.body.result.message_id, data: 'b' }), /no button/);
  const id = fake.pressButton({ chatId: -7, messageId: sent.body.result.message_id, data: 'a' });
  assert.equal((await call(fake, 'answerCallbackQuery', { callback_query_id: id })).status, 200);
  const twice = await call(fake, 'answerCallbackQuery', { callback_query_id: id });
  assert.match(twice.body.description ?? '', /query is too old/);

  const member = async (user: number): Promise<string | undefined> =>
    (await call(fake, 'getChatMember', { chat_id: -7, user_id: user })).body.result?.status;
  assert.deepEqual([await member(70), await member(71), await member(fake.botId)], ['member', 'member', 'member']);
  assert.equal(
    (await call(fake, 'getChatMember', { chat_id: -7, user_id: 12345 })).body.description,
    'Bad Request: user not found',
  );

  const open2 = await startTelegramFake({ knownChatsOnly: false, limits: false });
  t.after(() => open2.close());
  assert.equal((await call(open2, 'sendMessage', { chat_id: 99, text: 'x' })).status, 200);
});

// A 50 s poll in a test allowed 20 s: were close() to wait for it, the test would fail.
test('close() releases held polls and ends promptly', { timeout: 20_000 }, async () => {
  const fake = await startTelegramFake();
  const held = call(fake, 'getUpdates', { timeout: 50 }).catch((err: unknown) => err);
  await until(() => fake.pendingPolls > 0, 'the getUpdates to be held');
  assert.equal(fake.pendingPolls, 1);
  await fake.close();
  await held;
  assert.equal(fake.pendingPolls, 0);
});
