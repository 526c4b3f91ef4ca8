import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import {
  ApiBadRequestError,
  ApiNotFoundError,
  ApiUnavailableError,
  createKolClient,
  type KolClientOptions,
} from '../../src/api/index.ts';
import * as fx from './fixtures.ts';
import { rawServer } from './rawserver.ts';

function client(t: import('node:test').TestContext, baseUrl: string, more: Partial<KolClientOptions> = {}) {
  const c = createKolClient({
    baseUrl,
    apiKey: 'k-transport',
    retry: { baseDelayMs: 5, maxDelayMs: 10 },
    cacheTtlMs: false,
    ...more,
  });
  t.after(() => c.close());
  return c;
}

test('a gzip-encoded body is decoded', async (t) => {
  const srv = await rawServer(t, (req, res) => {
    assert.match(String(req.headers['accept-encoding']), /gzip/);
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(JSON.stringify(fx.kolScore())));
  });
  const score = await client(t, srv.url).getKolScore({ xUserId: '1' });
  assert.equal(score.position_by_score_v2, 8);
});

test('a base URL with a path prefix is kept, and the key travels in x-api-key only', async (t) => {
  let seen = '';
  let key: unknown;
  const srv = await rawServer(t, (req, res) => {
    seen = req.url ?? '';
    key = req.headers['x-api-key'];
    res.end(JSON.stringify(fx.kolMindmap()));
  });
  await client(t, `${srv.url}/api/`).getKolMindmap({ xUserId: '42', offset: 0 });
  assert.equal(seen, '/api/v2/x-users/42/mindmap?offset=0');
  assert.equal(key, 'k-transport');
});

test('a connection reset is retried as a network error', async (t) => {
  const srv = await rawServer(t, (req, res, n) => {
    if (n === 1) {
      req.socket.destroy();
      return;
    }
    res.end(JSON.stringify(fx.kolScore()));
  });
  const score = await client(t, srv.url).getKolScore({ xUserId: '1' });
  assert.equal(score.num_shill_tokens, 6);
  assert.equal(srv.count(), 2);

  const dead = await rawServer(t, (req) => req.socket.destroy());
  const err = await client(t, dead.url)
    .getKolScore({ xUserId: '1' })
    .catch((e: unknown) => e);
  assert.ok(err instanceof ApiUnavailableError, String(err));
  assert.equal(err.kind, 'network');
  assert.equal(dead.count(), 3);
});

test('Retry-After given as an HTTP date is honoured', async (t) => {
  const srv = await rawServer(t, (_req, res, n) => {
    if (n === 1) {
      res.writeHead(503, { 'retry-after': new Date(Date.now() + 20_000).toUTCString() });
      res.end();
      return;
    }
    res.end(JSON.stringify(fx.kolScore()));
  });
  // The client's waits, recorded instead of slept: what it waited is counted, not timed.
  const waits: number[] = [];
  await client(t, srv.url, { defaultBudgetMs: 60_000, sleep: async (ms) => void waits.push(ms) }).getKolScore({
    xUserId: '1',
  });
  assert.equal(srv.count(), 2);
  // HTTP dates have whole-second precision: about 19-20 s until the date, where the backoff alone is at most 10 ms.
  assert.equal(waits.length, 1);
  assert.ok(waits[0]! > 10_000 && waits[0]! <= 20_000, `waited ${waits[0]} ms`);
});

test('error bodies are read leniently: message arrays, plain text, no body', async (t) => {
  const bodies = [
    JSON.stringify({
      statusCode: 400,
      message: ['limit must not be greater than 30', 'cursor is invalid'],
      error: 'Bad Request',
    }),
    'upstream says no',
    '',
  ];
  const srv = await rawServer(t, (_req, res, n) => {
    res.writeHead(n <= 3 ? 400 : 404, { 'content-type': 'text/plain' });
    res.end(bodies[n - 1] ?? '');
  });
  const c = client(t, srv.url);
  const messages: string[] = [];
  for (let i = 0; i < 3; i++) {
    const err = await c.getTweets({}).catch((e: unknown) => e);
    assert.ok(err instanceof ApiBadRequestError, String(err));
    messages.push(err.upstreamMessage);
  }
  assert.deepEqual(messages, ['limit must not be greater than 30; cursor is invalid', 'upstream says no', '']);
  const nf = await c.getKolScore({ xUserId: '3' }).catch((e: unknown) => e);
  assert.ok(nf instanceof ApiNotFoundError);
  assert.equal(srv.count(), 4);
});

test('an injected dispatcher is used and left open by close()', async (t) => {
  const { Agent } = await import('undici');
  const agent = new Agent();
  t.after(() => agent.close());
  const srv = await rawServer(t, (_req, res) => res.end(JSON.stringify(fx.kolScore())));
  const c = createKolClient({ baseUrl: srv.url, apiKey: 'k', dispatcher: agent });
  await c.getKolScore({ xUserId: '1' });
  await c.close();
  assert.equal(agent.closed, false);
  const again = createKolClient({ baseUrl: srv.url, apiKey: 'k', dispatcher: agent });
  await again.getKolScore({ xUserId: '2' });
  await again.close();
});

test('a body over the cap is refused as unavailable, never buffered whole: declared, streamed, or inflated from gzip', async (t) => {
  const cap = 64 * 1024;
  const small = (url: string) => {
    const c = createKolClient({
      baseUrl: url,
      apiKey: 'k-transport',
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 10 },
      cacheTtlMs: false,
      maxBodyBytes: cap,
    });
    t.after(() => c.close());
    return c;
  };
  const padded = JSON.stringify({ ...fx.kolScore(), pad: 'x'.repeat(cap) });
  let sentBytes = 0;
  const declared = await rawServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(padded) });
    res.end(padded);
  });
  const streamed = await rawServer(t, (_req, res) => {
    // No length: chunks keep coming (up to 50 MB) until the client stops reading.
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const more = () => {
      while (sentBytes < 50 * 1024 * 1024 && !res.destroyed) {
        sentBytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('close', () => {});
    more();
  });
  const bomb = await rawServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(padded)); // a few hundred bytes that inflate past the cap
  });
  for (const srv of [declared, streamed, bomb]) {
    const err = await small(srv.url)
      .getKolScore({ xUserId: '1' })
      .catch((e: unknown) => e);
    assert.ok(err instanceof ApiUnavailableError, String(err));
    assert.equal(err.kind, 'too_large');
    assert.equal(srv.count(), 1, 'not retried: the same request brings the same body');
  }
  assert.ok(sentBytes < 50 * 1024 * 1024, `the endless body was cut off (${sentBytes} bytes written)`);
  // An error body is read only as far as its message needs.
  let errorBytes = 0;
  const chatty = await rawServer(t, (_req, res) => {
    res.writeHead(400, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const more = () => {
      while (errorBytes < 50 * 1024 * 1024 && !res.destroyed) {
        errorBytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  const bad = await small(chatty.url)
    .getKolScore({ xUserId: '1' })
    .catch((e: unknown) => e);
  assert.ok(bad instanceof ApiBadRequestError, String(bad));
  assert.ok(errorBytes < 50 * 1024 * 1024, `the endless error body was cut off (${errorBytes} bytes written)`);
  // Under the cap, the same answer is read as usual.
  const fine = await rawServer(t, (_req, res) => res.end(JSON.stringify(fx.kolScore())));
  assert.equal((await small(fine.url).getKolScore({ xUserId: '1' })).num_shill_tokens, 6);
});
