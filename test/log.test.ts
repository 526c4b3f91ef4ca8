import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, scrub } from '../src/log.ts';

test('secrets are scrubbed from every log line, even inside messages and URLs', () => {
  const lines: string[] = [];
  const secret = '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const log = createLogger({
    level: 'info',
    secrets: [secret, 'api-key-value'],
    destination: { write: (l) => lines.push(l) },
  });
  log.info({ url: `https://api.telegram.org/bot${secret}/getMe`, apiKey: 'api-key-value' }, `failed with ${secret}`);
  log.error({ err: new Error(`token ${encodeURIComponent(secret)} refused`) }, 'boom');
  const all = lines.join('');
  assert.equal(lines.length, 2);
  assert.doesNotMatch(all, /ABCDEFGHIJKLMNOPQRSTUVWXYZ|api-key-value/);
  assert.match(all, /\[redacted\]/);
});

test('scrub leaves text without secrets alone', () => {
  assert.equal(scrub('nothing here', ['supersecret']), 'nothing here');
});

test('an error is logged as its name, message and codes, never its payload or request', () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', secrets: [], destination: { write: (l) => lines.push(l) } });
  const err = Object.assign(new Error("Call to 'sendMessage' failed! (403: Forbidden: bot was blocked by the user)"), {
    name: 'GrammyError',
    method: 'sendMessage',
    error_code: 403,
    description: 'Forbidden: bot was blocked by the user',
    payload: { chat_id: 5, text: 'a private message from a user' },
    url: 'https://discord.com/api/v10/interactions/1/interaction-token-abc/callback',
    cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
  });
  log.warn({ err }, 'send failed');
  log.warn({ err: 'just a string' }, 'odd rejection');
  const [first, second] = lines.map((l) => JSON.parse(l) as { err: Record<string, unknown> });
  assert.equal(first!.err['name'], 'GrammyError');
  assert.equal(first!.err['method'], 'sendMessage');
  assert.equal(first!.err['error_code'], 403);
  assert.equal(first!.err['cause'], 'ECONNRESET');
  assert.match(String(first!.err['message']), /bot was blocked/);
  assert.doesNotMatch(lines[0]!, /a private message|interaction-token/);
  assert.deepEqual(second!.err, { value: 'just a string' });
});

test('STORE_URL credentials are scrubbed from log lines, whichever form a library prints', async () => {
  const { loadConfig } = await import('../src/config.ts');
  const url = 'rediss://kolbot-user:p%40ss-w0rd-long@redis.example.com:6380';
  const lines: string[] = [];
  const log = createLogger({
    level: 'info',
    secrets: loadConfig({ STORE_URL: url }).secrets,
    destination: { write: (l) => lines.push(l) },
  });
  log.warn({ url }, 'connecting to %s', url);
  log.error({ err: new Error('WRONGPASS for kolbot-user with p@ss-w0rd-long') }, 'auth');
  const all = lines.join('');
  assert.doesNotMatch(all, /kolbot-user|p%40ss-w0rd-long|p@ss-w0rd-long/);
  assert.match(all, /redis\.example\.com:6380/, 'the host and port stay readable');
});
