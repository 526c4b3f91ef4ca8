/**
 * Discord's HTTP interactions endpoint under a flood, counted rather than timed:
 * bodies trickled a byte at a time, large bodies held open, requests whose
 * signature headers are missing or stale. Throughout, a genuine interaction
 * signed by the fake is answered, the connections and bytes held stay bounded.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BODY_LIMITS } from '../../../src/adapters/discord/http-interactions.ts';
import { createBodyReader } from '../../../src/ops/body.ts';
import { DEFAULT_LIMITS } from '../../../src/ops/limits.ts';
import { openStore, type Store } from '../../../src/store/index.ts';
import { publicAnswer, startHarness, until, type Harness } from './harness.ts';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_HEX = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
const reader = createBodyReader(BODY_LIMITS);
const refused: string[] = [];

let h: Harness;
let port: number;
let claims: Store;
before(async () => {
  claims = await openStore('memory:');
  h = await startHarness({
    adapter: {
      httpInteractions: {
        publicKey: PUBLIC_HEX,
        port: 0,
        host: '127.0.0.1',
        body: reader,
        onRefused: (reason) => refused.push(reason),
      },
      claim: (k, ms) => claims.claim(k, ms),
    },
  });
  port = h.adapter.httpAddress()!.port;
  h.fake.setInteractionsEndpoint(`http://127.0.0.1:${port}/interactions`, privateKey);
});
after(async () => {
  await h.close();
  await claims.close();
});

/** Well-formed signature headers with a fresh timestamp: only the body could tell them false. */
function head(length: number, timestamp = Math.floor(Date.now() / 1000)): string {
  return [
    'POST /interactions HTTP/1.1',
    'Host: x',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    `X-Signature-Ed25519: ${'ab'.repeat(64)}`,
    `X-Signature-Timestamp: ${timestamp}`,
    '',
    '',
  ].join('\r\n');
}

/** A full collection, so memory read after it is what is still referenced (V8's gc, reached without a CLI flag). */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function liveBuffers(): number {
  gc();
  return process.memoryUsage().arrayBuffers;
}

/** Opens `count` connections that each send `first` (headers and part of a body) and then hold; counts server closes. */
async function flood(count: number, first: (i: number) => string | readonly Buffer[]) {
  const sockets: Socket[] = [];
  let closed = 0;
  const open = (i: number) =>
    new Promise<void>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      sockets.push(s);
      s.on('error', () => {});
      s.on('data', () => {});
      s.once('connect', () => {
        const parts = first(i);
        // One shared body buffer written to every socket: the flood itself holds no copies.
        if (typeof parts === 'string') s.write(parts, () => resolve());
        else for (const [k, p] of parts.entries()) s.write(p, k === parts.length - 1 ? () => resolve() : undefined);
      });
      s.once('close', () => {
        closed++;
        resolve();
      });
    });
  // In batches: the server shares this event loop (see the webhook flood test).
  for (let i = 0; i < count; i += 32)
    await Promise.all(Array.from({ length: Math.min(32, count - i) }, (_, k) => open(i + k)));
  return {
    closed: () => closed,
    stop: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

async function genuine(): Promise<void> {
  const i = await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, options: [] });
  const m = await publicAnswer(i);
  assert.ok(m.embeds.length + m.content.length > 0, 'the genuine command was answered');
}

test('slow bodies: three times the connection cap trickling bodies; a genuine interaction is answered and the excess is closed', {
  timeout: 60_000,
}, async (t) => {
  const slow = await flood(3 * DEFAULT_LIMITS.maxConnections, () => `${head(2_000)}{"type":`);
  t.after(() => slow.stop());
  await genuine();
  await until(
    () => slow.closed() >= 2 * DEFAULT_LIMITS.maxConnections,
    `the server closing the excess (${slow.closed()})`,
  );
  assert.ok(reader.reading() <= DEFAULT_LIMITS.maxConnections, `${reader.reading()} bodies being read`);
  slow.stop();
});

test('held large bodies: 256 bodies of 256 KB held open; bytes held stay within the budget and a genuine interaction is answered', {
  timeout: 60_000,
}, async (t) => {
  const size = BODY_LIMITS.maxBytes;
  const count = 256;
  const memBefore = liveBuffers();
  // Everything but the last byte: each body stays unfinished for as long as the client likes.
  const body = Buffer.alloc(size - 1, 0x20);
  const held = await flood(count, () => [Buffer.from(head(size)), body]);
  t.after(() => held.stop());
  await genuine();
  // Measured once the flood has settled: every connection either holds a reserved body or was closed
  // (under load the last ones are still arriving when the genuine answer comes back).
  await until(
    () => reader.reading() + held.closed() >= count,
    `the flood settling (${reader.reading()} read, ${held.closed()} closed)`,
  );
  // Connections the server has just closed free their buffers a few event-loop turns later (on a
  // loaded machine 40 MB can still be in flight): what counts is what stays held.
  const bound = BODY_LIMITS.budgetBytes * 2;
  let grown = liveBuffers() - memBefore;
  for (let turn = 0; turn < 50 && grown >= bound; turn++) {
    await new Promise((r) => setImmediate(r));
    grown = liveBuffers() - memBefore;
  }
  t.diagnostic(
    `held bodies: ${count} x ${size / 1024} KB sent; peak reserved ${(reader.peak() / 1048576).toFixed(1)} MB (budget ${BODY_LIMITS.budgetBytes / 1048576} MB); array buffers grew ${(grown / 1048576).toFixed(1)} MB; ${reader.reading()} bodies read, ${held.closed()} connections closed`,
  );
  assert.ok(reader.peak() <= BODY_LIMITS.budgetBytes, `peak ${reader.peak()}`);
  assert.ok(reader.held() <= BODY_LIMITS.budgetBytes);
  // Without the budget they would pin count x size = 64 MB.
  assert.ok(grown < bound, `array buffers grew ${grown} bytes`);
  assert.ok(refused.includes('busy'), 'bodies that did not fit were refused');
  held.stop();
});

test('missing, malformed or stale signature headers are refused before the body is sent; refusals are counted', async () => {
  const stale = Math.floor(Date.now() / 1000) - 3600;
  const cases = [
    head(200_000, stale),
    head(200_000).replace(/X-Signature-Ed25519: \w+\r\n/, ''),
    head(200_000).replace(/X-Signature-Ed25519: \w+/, 'X-Signature-Ed25519: nothex'),
  ];
  const before = refused.length;
  for (const c of cases) {
    // Headers only: the body is never sent, so an answer proves it was not waited for.
    const answer = await new Promise<string>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      let got = '';
      s.on('error', () => {});
      s.on('data', (d) => (got += d.toString()));
      s.once('connect', () => s.write(c));
      s.once('close', () => resolve(got));
    });
    assert.match(answer, /^HTTP\/1\.1 401/);
  }
  const now = refused.slice(before);
  assert.equal(now.filter((r) => r === 'stale').length, 1);
  assert.equal(now.filter((r) => r === 'signature').length, 2);
});
