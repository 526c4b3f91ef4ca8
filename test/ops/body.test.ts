/** Request bodies under a cap, a deadline and a shared budget: what is refused, what is dropped first, what is held. */
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { createBodyReader, type BodyLimits, type BodyResult } from '../../src/ops/body.ts';

/** A server whose handler reads each body and reports the result in order of completion. */
async function serve(t: TestContext, limits: BodyLimits) {
  const reader = createBodyReader(limits);
  const results: { tag: string; result: string }[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const r: BodyResult = await reader.read(req);
    const result = 'body' in r ? `ok:${r.body.length}` : r.refused;
    results.push({ tag: String(req.headers['x-tag']), result });
    res.writeHead('body' in r ? 200 : 503, { connection: 'close' }).end(result);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { reader, results, port: (server.address() as AddressInfo).port };
}

/** Sends headers and `sent` bytes of a body of `length`, then holds; `finish` sends the rest. */
function upload(port: number, tag: string, length: number | undefined, sent: number) {
  const headers: Record<string, string | number> = { 'x-tag': tag };
  if (length !== undefined) headers['content-length'] = length;
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers });
  const answer = new Promise<string>((resolve) => {
    req.on('response', (res) => {
      let b = '';
      res.on('data', (d) => (b += d));
      res.on('end', () => resolve(b));
    });
    req.on('error', () => resolve('closed'));
  });
  req.flushHeaders();
  if (sent) req.write(Buffer.alloc(sent, 0x20));
  return { answer, finish: (rest: number) => req.end(Buffer.alloc(rest, 0x20)) };
}

test('a body past the cap is refused, by its declared length and while it streams; one within it is read whole', async (t) => {
  const s = await serve(t, { maxBytes: 1_000, budgetBytes: 10_000, deadlineMs: 60_000 });
  assert.equal(await upload(s.port, 'declared', 5_000, 0).answer, 'too_large');
  const chunked = upload(s.port, 'chunked', undefined, 800);
  chunked.finish(800);
  assert.equal(await chunked.answer, 'too_large');
  const fine = upload(s.port, 'fine', 900, 400);
  fine.finish(500);
  assert.equal(await fine.answer, 'ok:900');
  assert.equal(s.reader.held(), 0, 'nothing held once answered');
});

test('a body that does not arrive in time is dropped', async (t) => {
  const s = await serve(t, { maxBytes: 1_000, budgetBytes: 10_000, deadlineMs: 50 });
  // Never finished: only the deadline can end it (the test waits for the answer, not for a time).
  assert.equal(await upload(s.port, 'slow', 900, 10).answer, 'slow');
  assert.equal(s.reader.reading(), 0);
});

test('when the budget is full, the body reading longest is dropped for a new one; the bytes held never exceed it', async (t) => {
  const s = await serve(t, { maxBytes: 1_000, budgetBytes: 2_000, deadlineMs: 60_000 });
  const first = upload(s.port, 'first', 1_000, 10);
  const second = upload(s.port, 'second', 1_000, 10);
  // Both reserved: the budget is full.
  while (s.reader.reading() < 2) await new Promise((r) => setImmediate(r));
  const third = upload(s.port, 'third', 1_000, 0);
  assert.equal(await first.answer, 'busy', 'the oldest unfinished body made room');
  third.finish(1_000);
  second.finish(990);
  assert.equal(await third.answer, 'ok:1000');
  assert.equal(await second.answer, 'ok:1000');
  assert.ok(s.reader.peak() <= 2_000, `peak ${s.reader.peak()}`);
  assert.deepEqual(
    s.results.map((r) => r.tag),
    ['first', 'third', 'second'],
  );
});
