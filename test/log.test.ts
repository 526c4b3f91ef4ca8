import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, scrub } from '../src/log.ts';

test('secrets are scrubbed from every log line, even inside messages and URLs', () => {
  const lines: string[] = [];
  const secret = '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const log = createLogger({ level: 'info', secrets: [secret, 'api-key-value'], destination: { write: (l) => lines.push(l) } });
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
