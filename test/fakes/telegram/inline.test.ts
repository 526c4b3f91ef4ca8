// Inline mode in the fake: delivery only with /setinline on, and answerInlineQuery
// validated as the Bot API does (count, ids, content limits, one answer in time).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startTelegramFake, type TelegramFake, type TelegramFakeOptions } from './index.ts';

async function open(t: TestContext, opts?: TelegramFakeOptions): Promise<TelegramFake> {
  const fake = await startTelegramFake({ limits: false, ...opts });
  t.after(() => fake.close());
  return fake;
}

async function call(
  fake: TelegramFake,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ ok: boolean; result?: any; description?: string; error_code?: number }> {
  const res = await fetch(`${fake.apiRoot}/bot${fake.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return (await res.json()) as never;
}

const article = (id: string, text = '<b>PEPE</b> card', title = 'PEPE') => ({
  type: 'article',
  id,
  title,
  input_message_content: { message_text: text, parse_mode: 'HTML' },
});

test('inline mode off: getMe says so and no inline_query is delivered', async (t) => {
  const fake = await open(t);
  assert.equal((await call(fake, 'getMe')).result.supports_inline_queries, false);
  assert.equal(fake.sendInlineQuery({ query: 'pepe' }), undefined);
  assert.deepEqual((await call(fake, 'getUpdates', { timeout: 0 })).result, []);
});

test('inline mode on: the query arrives as an inline_query update and one valid answer is accepted', async (t) => {
  const fake = await open(t, { inlineMode: true });
  assert.equal((await call(fake, 'getMe')).result.supports_inline_queries, true);
  const id = fake.sendInlineQuery({ query: '$PEPE', chatType: 'supergroup' })!;
  const [u] = (await call(fake, 'getUpdates', { timeout: 0 })).result;
  assert.deepEqual(
    { id: u.inline_query.id, query: u.inline_query.query, chat_type: u.inline_query.chat_type },
    { id, query: '$PEPE', chat_type: 'supergroup' },
  );
  const ok = await call(fake, 'answerInlineQuery', {
    inline_query_id: id,
    results: [article('a'), article('b')],
    cache_time: 30,
    button: { text: 'Open a chat', start_parameter: 'inline' },
  });
  assert.equal(ok.ok, true, ok.description);
  const answer = await fake.waitForInlineAnswer(id);
  assert.deepEqual(
    answer.results.map((r) => [r.id, r.text]),
    [
      ['a', 'PEPE card'],
      ['b', 'PEPE card'],
    ],
  );
  assert.equal(answer.cache_time, 30);
  assert.equal(answer.button?.start_parameter, 'inline');
  const again = await call(fake, 'answerInlineQuery', { inline_query_id: id, results: [] });
  assert.equal(again.error_code, 400, 'a query is answered once');
  assert.match(again.description!, /query is too old|query ID is invalid/);
  assert.equal(
    (await call(fake, 'answerInlineQuery', { inline_query_id: '123', results: [] })).error_code,
    400,
    'unknown id',
  );
});

test('answerInlineQuery refuses what Telegram refuses', async (t) => {
  const fake = await open(t, { inlineMode: true });
  const refuse = async (params: Record<string, unknown>, pattern: RegExp) => {
    const id = fake.sendInlineQuery({ query: 'x' })!;
    const r = await call(fake, 'answerInlineQuery', { inline_query_id: id, ...params });
    assert.equal(r.ok, false, `accepted: ${JSON.stringify(params).slice(0, 80)}`);
    assert.match(r.description!, pattern);
  };
  await refuse({ results: Array.from({ length: 51 }, (_, i) => article(`r${i}`)) }, /RESULTS_TOO_MUCH/);
  await refuse({ results: [article('same'), article('same')] }, /RESULT_ID_DUPLICATE/);
  await refuse({ results: [article('x'.repeat(65))] }, /RESULT_ID_INVALID/);
  await refuse({ results: [article('')] }, /RESULT_ID_INVALID/);
  await refuse({ results: [article('a', 'x'.repeat(4097))] }, /message is too long/);
  await refuse({ results: [article('a', '<b>unclosed')] }, /can't parse entities|Can't find end/i);
  await refuse({ results: [article('a', 'text', '')] }, /RESULT_TITLE_EMPTY/);
  await refuse({ results: [], button: { text: 'Open', start_parameter: 'has space' } }, /START_PARAM_INVALID/);
  await refuse({ results: [], cache_time: -1 }, /cache_time/);
  const late = fake.sendInlineQuery({ query: 'x' })!;
  fake.advanceClock(10_001);
  assert.match(
    (await call(fake, 'answerInlineQuery', { inline_query_id: late, results: [] })).description!,
    /query is too old/,
    'answered too late',
  );
  const max = fake.sendInlineQuery({ query: 'x' })!;
  assert.equal(
    (
      await call(fake, 'answerInlineQuery', {
        inline_query_id: max,
        results: Array.from({ length: 50 }, (_, i) => article(`r${i}`)),
      })
    ).ok,
    true,
    '50 is allowed',
  );
});
