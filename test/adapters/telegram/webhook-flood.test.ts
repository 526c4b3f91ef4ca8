/**
 * The Telegram webhook under a flood, counted rather than timed: requests
 * without the secret trickling bodies, and large bodies held open by a sender
 * that has it. Throughout, a genuine update is answered and the connections
 * and bytes held stay bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BODY_LIMITS } from '../../../src/adapters/telegram/webhook.ts';
import { createBodyReader } from '../../../src/ops/body.ts';
import { DEFAULT_LIMITS } from '../../../src/ops/limits.ts';
import { eventually, rig, type Rig } from './helpers.ts';

const SECRET = 'hook_Secret-0123456789';
const HOOK_URL = 'https://bot.example.test/tg/updates';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Array buffers still referenced after a full collection. */
function liveBuffers(): number {
  gc();
  return process.memoryUsage().arrayBuffers;
}

function head(length: number, secret?: string): string {
  return [
    'POST /tg/updates HTTP/1.1',
    'Host: x',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    ...(secret ? [`X-Telegram-Bot-Api-Secret-Token: ${secret}`] : []),
    '',
    '',
  ].join('\r\n');
}

async function flood(port: number, count: number, parts: readonly (string | Buffer)[]) {
  const sockets: Socket[] = [];
  let closed = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      sockets.push(s);
      s.on('error', () => {});
      s.on('data', () => {});
      s.once('connect', () => {
        for (const [k, p] of parts.entries()) s.write(p, k === parts.length - 1 ? () => resolve() : undefined);
      });
      s.once('close', () => {
        closed++;
        resolve();
      });
    });
  for (let i = 0; i < count; i += 32) await Promise.all(Array.from({ length: Math.min(32, count - i) }, open));
  return {
    closed: () => closed,
    stop: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

let updateId = 0;
async function genuine(r: Rig, port: number, chatId: number): Promise<void> {
  updateId++;
  const text = '/help';
  const res = await fetch(`http://127.0.0.1:${port}/tg/updates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: JSON.stringify({
      update_id: 9_000 + updateId,
      message: {
        message_id: updateId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private', first_name: 'Hook' },
        from: { id: chatId, is_bot: false, first_name: 'Hook' },
        text,
        entities: [{ type: 'bot_command', offset: 0, length: text.length }],
      },
    }),
  });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.match((await r.fake.waitForMessage(chatId)).text!, /token/i, 'the genuine update was answered');
}

test('requests without the secret trickling bodies: each is refused at once and closed, unread; a genuine update is answered', {
  timeout: 60_000,
}, async (t) => {
  const refused: string[] = [];
  const reader = createBodyReader(BODY_LIMITS);
  const r = await rig(t, {
    webhook: {
      url: HOOK_URL,
      secret: SECRET,
      port: 0,
      host: '127.0.0.1',
      body: reader,
      onRefused: (x) => refused.push(x),
    },
  });
  const { port } = r.adapter.webhookAddress()!;
  r.fake.addChat({ id: 631, type: 'private' });
  const count = 3 * DEFAULT_LIMITS.maxConnections;
  const slow = await flood(port, count, [head(2_000), '{"update_id":']);
  t.after(() => slow.stop());
  await genuine(r, port, 631);
  await eventually(
    () => slow.closed() >= count || undefined,
    `every request without the secret closed (${slow.closed()})`,
  );
  // The genuine update is a few hundred bytes; 768 x 2 KB of flood bodies would show here.
  assert.ok(reader.peak() < 1_000, `only the genuine body was read (peak ${reader.peak()} bytes)`);
  assert.equal(refused.filter((x) => x === 'secret').length, count);
});

test('large bodies held open with the secret: bytes held stay within the budget and a genuine update is answered', {
  timeout: 60_000,
}, async (t) => {
  const reader = createBodyReader(BODY_LIMITS);
  const r = await rig(t, { webhook: { url: HOOK_URL, secret: SECRET, port: 0, host: '127.0.0.1', body: reader } });
  const { port } = r.adapter.webhookAddress()!;
  r.fake.addChat({ id: 632, type: 'private' });
  const size = BODY_LIMITS.maxBytes;
  const count = 64;
  const before = liveBuffers();
  const held = await flood(port, count, [head(size, SECRET), Buffer.alloc(size - 1, 0x20)]);
  t.after(() => held.stop());
  await genuine(r, port, 632);
  // Connections the server has just closed free their buffers a few event-loop turns later (CI once
  // read 58.5 MB at the first look): what counts is what stays held.
  const bound = BODY_LIMITS.budgetBytes * 2;
  let grown = liveBuffers() - before;
  for (let turn = 0; turn < 50 && grown >= bound; turn++) {
    await new Promise((done) => setImmediate(done));
    grown = liveBuffers() - before;
  }
  t.diagnostic(
    `held bodies: ${count} x ${size / 1048576} MB sent; peak reserved ${(reader.peak() / 1048576).toFixed(1)} MB (budget ${BODY_LIMITS.budgetBytes / 1048576} MB); array buffers grew ${(grown / 1048576).toFixed(1)} MB; ${reader.reading()} bodies read`,
  );
  assert.ok(reader.peak() <= BODY_LIMITS.budgetBytes, `peak ${reader.peak()}`);
  // Without the budget they would pin count x size = 64 MB.
  assert.ok(grown < bound, `array buffers grew ${grown} bytes`);
});
