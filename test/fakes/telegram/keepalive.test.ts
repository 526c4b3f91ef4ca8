// How the fake ends kept-alive connections, seen by a plain HTTP client: the idle timeout announced or not, a
// request on a connection idle past it reset unread, and idle connections ended on demand.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { until } from '../../helpers/wait.ts';
import { startTelegramFake, type TelegramFake, type TelegramFakeOptions } from './index.ts';

async function open(t: TestContext, opts: TelegramFakeOptions): Promise<{ fake: TelegramFake; agent: Agent }> {
  const fake = await startTelegramFake({ knownChatsOnly: false, limits: false, ...opts });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(async () => {
    agent.destroy();
    await fake.close();
  });
  return { fake, agent };
}

interface Sent {
  status?: number;
  headers?: IncomingHttpHeaders;
  socket?: Socket;
  error?: string;
}

/** sendMessage on the agent's one connection; what came back, or the error that ended it. */
function send(fake: TelegramFake, agent: Agent, text: string): Promise<Sent> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ chat_id: 1, text });
    const req = request(`${fake.apiRoot}/bot${fake.token}/sendMessage`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, socket: req.socket ?? undefined }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}

test('keepAlive: the idle timeout is announced with hint, and a request on a connection idle past it is reset unread', async (t) => {
  const { fake, agent } = await open(t, { keepAlive: { idleMs: 2_000, hint: true } });
  const first = await send(fake, agent, 'one');
  assert.equal(first.headers?.['keep-alive'], 'timeout=2');
  const second = await send(fake, agent, 'two');
  assert.equal(second.status, 200);
  assert.equal(second.socket, first.socket, 'a connection idle for less than 2 s is reused and served');
  await until(() => (fake.connectionIdleTimes()[0] ?? 0) >= 2_000, 'the connection to be idle for 2 s');
  const late = await send(fake, agent, 'three');
  assert.equal(late.error, 'ECONNRESET');
  assert.deepEqual(
    fake.messages(1).map((m) => m.text),
    ['one', 'two'],
    'the request on the ended connection was never read',
  );
  assert.equal(fake.closedOnReuse, 1);
  assert.equal((await send(fake, agent, 'four')).status, 200, 'a new connection is served');
});

test('keepAlive without hint: no Keep-Alive header, as nginx answers by default', async (t) => {
  const { fake, agent } = await open(t, { keepAlive: { idleMs: 200 } });
  const first = await send(fake, agent, 'one');
  assert.equal(first.status, 200);
  assert.equal(first.headers?.['keep-alive'], undefined);
  await until(() => (fake.connectionIdleTimes()[0] ?? 0) >= 200, 'the connection to be idle for 200 ms');
  assert.equal((await send(fake, agent, 'two')).error, 'ECONNRESET');
  assert.equal(fake.messages(1).length, 1);
});

test('by default the fake keeps connections as Node does (5 s, announced), and closeIdleConnections ends them now', async (t) => {
  const { fake, agent } = await open(t, {});
  const first = await send(fake, agent, 'one');
  assert.equal(first.headers?.['keep-alive'], 'timeout=5');
  const closed = new Promise<void>((resolve) => first.socket!.once('close', () => resolve()));
  fake.closeIdleConnections();
  await closed;
  assert.equal((await send(fake, agent, 'two')).status, 200, 'the client, having read the close, connects anew');
  assert.equal(fake.messages(1).length, 2);
});
