// Webhook mode: Telegram's calls carry the secret token; anything else is refused before it reaches a command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig } from './helpers.ts';

const SECRET = 'hook_Secret-123';

test('webhook mode: setWebhook with the secret, a wrong or missing secret is refused (401), the right one answers', async (t) => {
  const r = await rig(t, {
    webhook: { url: 'https://bot.example.test/tg/updates', secret: SECRET, port: 0, host: '127.0.0.1' },
  });
  const { fake } = r;
  const { port } = r.adapter.webhookAddress()!;
  const url = `http://127.0.0.1:${port}/tg/updates`;
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  fake.addChat({ id: 601, type: 'private' });
  let updateId = 0;
  const update = (text: string) => ({
    update_id: ++updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 601, type: 'private', first_name: 'Hook' },
      from: { id: 601, is_bot: false, first_name: 'Hook' },
      text,
      entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }],
    },
  });
  const post = (body: unknown, headers: Record<string, string> = {}, to = url) =>
    fetch(to, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  assert.equal(fake.requests.filter((q) => q.method === 'getUpdates').length, 0, 'no polling in webhook mode');
  assert.equal(fake.requests.filter((q) => q.method === 'setWebhook').length, 1);
  assert.ok(r.adapter.isReady());

  const wrong = await post(update(`/token solana ${tok.address}`), {
    'x-telegram-bot-api-secret-token': 'not-the-secret',
  });
  assert.equal(wrong.status, 401);
  await wrong.arrayBuffer();
  const missing = await post(update(`/token solana ${tok.address}`));
  assert.equal(missing.status, 401);
  await missing.arrayBuffer();
  const elsewhere = await post(
    update('/start'),
    { 'x-telegram-bot-api-secret-token': SECRET },
    `http://127.0.0.1:${port}/other`,
  );
  assert.equal(elsewhere.status, 404);
  await elsewhere.arrayBuffer();

  // The right one is also the barrier: the chat's updates are handled in order, so any refused
  // update that had reached a command would have been answered before it.
  const right = await post(update(`/token solana ${tok.address}`), { 'x-telegram-bot-api-secret-token': SECRET });
  assert.equal(right.status, 200);
  await right.arrayBuffer();
  const reply = await fake.waitForMessage(601);
  assert.ok(reply.text!.includes(`$${tok.symbol}`), reply.text);
  assert.equal(fake.messages(601).length, 1, 'nothing else was dispatched: only the right one answered');
});
