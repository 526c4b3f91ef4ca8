import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import pino from 'pino';
import { ApiError, createKolClient, type KolClient } from '../../src/api/index.ts';
import { API_KEY, sandboxPerFile } from './helpers.ts';
import { rawServer } from './rawserver.ts';

const setup = sandboxPerFile();

function capturingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (s: string) => lines.push(s) });
  return { logger, lines };
}

function assertClean(what: string, text: string, secrets: string[]) {
  for (const s of secrets) assert.ok(!text.includes(s), `${what} leaks a key: ${text.slice(0, 300)}`);
}

async function collectErrors(client: KolClient, calls: ((c: KolClient) => Promise<unknown>)[]): Promise<ApiError[]> {
  const errors: ApiError[] = [];
  for (const call of calls) {
    const err = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiError, `expected an ApiError, got ${String(err)}`);
    errors.push(err);
  }
  return errors;
}

test('the API key appears in no error message, stack or log line', async (t) => {
  const { logger, lines } = capturingLogger();
  const wrongKey = 'sk-wrong-0a9b8c7d6e5f4a3b2c1d';
  const { sb, client } = await setup(t, { logger });
  const kol = sb.data.kols[0];
  assert.ok(kol);
  const wrong = createKolClient({ baseUrl: sb.url, apiKey: wrongKey, logger });
  t.after(() => wrong.close());

  await client.getKolScore({ xUserId: kol.twitter_id });
  const errors = await collectErrors(client, [
    (c) => c.getTokenAnalytics({ limit: 500 }),
    (c) => c.getTweets({ cursor: 'bogus' }),
    (c) => c.getKolScore({ xUserId: '1' }),
    (c) => {
      sb.setFaults({ burst5xx: 5 });
      return c.getKolTable({ limit: 1 });
    },
    (c) => {
      sb.setFaults({ hangRate: 1 });
      return c.getKolTable({ limit: 2 }, { budgetMs: 250 });
    },
    (c) => {
      sb.setFaults({ driftRate: 1 });
      return c.getKolTable({ limit: 3 });
    },
    (c) => {
      sb.setFaults({ hangRate: 1 });
      return c.getKolTable({ limit: 4 }, { signal: AbortSignal.timeout(30) });
    },
  ]);
  sb.clearFaults();
  errors.push(...(await collectErrors(wrong, [(c) => c.getKolTable({})])));
  assert.deepEqual(
    errors.map((e) => e.name),
    [
      'ApiValidationError',
      'ApiBadRequestError',
      'ApiNotFoundError',
      'ApiUnavailableError',
      'ApiUnavailableError',
      'ApiSchemaError',
      'ApiAbortedError',
      'ApiUnauthorizedError',
    ],
  );
  for (const err of errors) {
    assertClean(err.name, `${err.message}\n${err.stack}\n${inspect(err, { depth: 8 })}\n${JSON.stringify(err)}`, [
      API_KEY,
      wrongKey,
    ]);
  }
  assert.ok(lines.length >= errors.length, 'the calls were logged');
  assert.ok(lines.some((l) => l.includes('"operation":"kolTable"')));
  for (const line of lines) assertClean('log line', line, [API_KEY, wrongKey]);
  assertClean('client', inspect(client, { depth: 8, showHidden: true }), [API_KEY]);
});

test('an upstream that echoes the key back gets it redacted', async (t) => {
  const key = 'sk-echo-5e4d3c2b1a';
  const srv = await rawServer(t, (req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        statusCode: 400,
        message: [`key ${String(req.headers['x-api-key'])} is malformed`],
        error: 'Bad Request',
      }),
    );
  });
  const { logger, lines } = capturingLogger();
  const c = createKolClient({ baseUrl: srv.url, apiKey: key, logger });
  t.after(() => c.close());
  const err = await c.getTweets({}).catch((e: unknown) => e);
  assert.ok(err instanceof ApiError);
  assert.match(err.message, /key \[redacted\] is malformed/);
  assertClean('error', `${err.message}\n${err.stack}\n${inspect(err, { depth: 8 })}`, [key]);
  for (const line of lines) assertClean('log line', line, [key]);
});
