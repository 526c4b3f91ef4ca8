// The webhook and ops servers under abuse: where they listen, oversized bodies, and a flood of half-open connections.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { loadConfig } from '../../../src/config.ts';
import { MAX_BODY_BYTES } from '../../../src/adapters/telegram/webhook.ts';
import { DEFAULT_LIMITS } from '../../../src/ops/limits.ts';
import { startOpsServer } from '../../../src/ops/http.ts';
import { eventually, rig, TOKEN } from './helpers.ts';

const SECRET = 'hook_Secret-0123456789';
const HOOK_URL = 'https://bot.example.test/tg/updates';

let updateId = 0;
function update(chatId: number, text: string) {
  updateId++;
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', first_name: 'Hook' },
      from: { id: chatId, is_bot: false, first_name: 'Hook' },
      text,
      entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }],
    },
  };
}

const post = (port: number, body: unknown) =>
  fetch(`http://127.0.0.1:${port}/tg/updates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: JSON.stringify(body),
  });

/** An address of this machine other than loopback, if it has one. */
function outsideAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

/** Connection outcome to host:port: 'connected' or the error code. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

test('by default the webhook and ops servers listen on 127.0.0.1 only; the host variables open them on purpose', async (t) => {
  const env = {
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_WEBHOOK_URL: HOOK_URL,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_WEBHOOK_PORT: '1',
    HTTP_PORT: '0',
  };
  const config = loadConfig(env);
  assert.equal(config.telegram?.webhook?.host, '127.0.0.1');
  assert.equal(config.httpHost, '127.0.0.1');
  const open = loadConfig({ ...env, TELEGRAM_WEBHOOK_HOST: '0.0.0.0', HTTP_HOST: '::' });
  assert.equal(open.telegram?.webhook?.host, '0.0.0.0');
  assert.equal(open.httpHost, '::');

  const r = await rig(t, { webhook: { ...config.telegram!.webhook!, port: 0 } });
  const hook = r.adapter.webhookAddress()!;
  assert.equal(hook.address, '127.0.0.1');
  const ops = await startOpsServer({
    port: 0,
    metrics: r.app.metrics,
    checks: { store: async () => true, storeName: 'memory', platforms: () => ({}), lease: () => 'x' },
  });
  t.after(() => ops.close());
  assert.equal(await tryConnect('127.0.0.1', ops.port), 'connected');
  const outside = outsideAddress();
  if (!outside)
    return t.diagnostic('no non-loopback interface on this machine: the refusal from outside was not checked');
  assert.equal(await tryConnect(outside, hook.port), 'ECONNREFUSED', 'webhook not reachable from another interface');
  assert.equal(await tryConnect(outside, ops.port), 'ECONNREFUSED', 'ops server not reachable from another interface');
});

/** Posts `bytes` of body with the right secret; chunked when `declared` is false. Resolves with the status, or 'closed'. */
function postLarge(
  port: number,
  bytes: number,
  declared: boolean,
): Promise<{ status: number | 'closed'; written: number }> {
  return new Promise((resolve) => {
    let written = 0;
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'x-telegram-bot-api-secret-token': SECRET,
    };
    if (declared) headers['content-length'] = bytes;
    const req = request({ host: '127.0.0.1', port, path: '/tg/updates', method: 'POST', headers });
    let done = false;
    const finish = (status: number | 'closed') => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ status, written });
    };
    req.on('response', (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    req.on('error', () => finish('closed'));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!done && written < bytes) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

test('a webhook body over 1 MB is refused before it is buffered, by its declared length and by counting the stream', async (t) => {
  const r = await rig(t, { webhook: { url: HOOK_URL, secret: SECRET, port: 0, host: '127.0.0.1' } });
  const { port } = r.adapter.webhookAddress()!;
  r.fake.addChat({ id: 611, type: 'private' });
  const huge = 64 * MAX_BODY_BYTES;

  const declared = await postLarge(port, huge, true);
  assert.equal(declared.status, 413);
  const streamed = await postLarge(port, huge, false);
  assert.ok(streamed.status === 413 || streamed.status === 'closed', `chunked: ${streamed.status}`);
  assert.ok(streamed.written < huge, `the server stopped the upload (${streamed.written} of ${huge} bytes written)`);

  // A genuine update just under the bound, padded with whitespace, still goes through.
  const padded = JSON.stringify(update(611, '/help')).replace(/}$/, `${' '.repeat(MAX_BODY_BYTES - 2_000)}}`);
  const ok = await fetch(`http://127.0.0.1:${port}/tg/updates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: padded,
  });
  assert.equal(ok.status, 200);
  await ok.arrayBuffer();
  const reply = await r.fake.waitForMessage(611);
  assert.match(reply.text!, /token/i, 'the /help answer arrived');
  assert.equal(r.fake.messages(611).length, 1, 'only the genuine update was answered');
});

/** Opens `count` connections that send half a request and then nothing; counts how many the server closed. */
async function halfOpen(port: number, count: number) {
  const sockets: Socket[] = [];
  let closedByServer = 0;
  // In batches: the server shares this event loop, so thousands of connects in one go would
  // overflow the listen backlog before it could accept any (the kernel refusing them, not the bot).
  const open = () =>
    new Promise<void>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      sockets.push(s);
      s.on('error', () => {});
      s.once('connect', () => {
        s.write('POST /tg/updates HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        resolve();
      });
      s.once('close', () => {
        closedByServer++;
        resolve();
      });
    });
  for (let i = 0; i < count; i += 32) await Promise.all(Array.from({ length: Math.min(32, count - i) }, open));
  return {
    sockets,
    closed: () => closedByServer,
    stop: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

test('during a flood of half-open connections the bot still answers a genuine update and /healthz, and keeps its sockets bounded', {
  timeout: 60_000,
}, async (t) => {
  const r = await rig(t, { webhook: { url: HOOK_URL, secret: SECRET, port: 0, host: '127.0.0.1' } });
  const { port } = r.adapter.webhookAddress()!;
  const ops = await startOpsServer({
    port: 0,
    metrics: r.app.metrics,
    checks: { store: async () => true, storeName: 'memory', platforms: () => ({}), lease: () => 'x' },
  });
  t.after(() => ops.close());
  r.fake.addChat({ id: 621, type: 'private' });

  // Three times what each server keeps open (256 webhook, 64 ops), all of them stalled in their headers.
  const hookFlood = await halfOpen(port, 3 * DEFAULT_LIMITS.maxConnections);
  const opsFlood = await halfOpen(ops.port, 3 * 64);
  t.after(() => {
    hookFlood.stop();
    opsFlood.stop();
  });

  const res = await post(port, update(621, '/help'));
  assert.equal(res.status, 200, 'the genuine update was taken');
  await res.arrayBuffer();
  const reply = await r.fake.waitForMessage(621);
  assert.match(reply.text!, /token/i);
  const health = await fetch(`http://127.0.0.1:${ops.port}/healthz`);
  assert.equal(health.status, 200);
  assert.equal(await health.text(), 'ok\n');

  // Every connection beyond the cap was closed by the server (one more to make room for the genuine one).
  await eventually(
    () => hookFlood.closed() >= 2 * DEFAULT_LIMITS.maxConnections + 1 || undefined,
    `webhook closing the excess (${hookFlood.closed()})`,
  );
  await eventually(() => opsFlood.closed() >= 2 * 64 + 1 || undefined, `ops closing the excess (${opsFlood.closed()})`);
});
