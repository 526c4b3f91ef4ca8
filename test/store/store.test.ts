import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';

test('sqlite store keeps button state across a restart and forgets it after its TTL', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'nested', 'state.sqlite')}`;
  // Expiry reads the clock: a mocked Date moves past the TTL without waiting for it.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const a = await openStore(url);
  const key = await a.pages.put({ command: 'kols', options: { offset: 20, id: '1234567890123456789' } }, 60_000);
  const short = await a.pages.put({ command: 'kols', options: {} }, 30);
  assert.match(key, /^[A-Za-z0-9_-]{12}$/);
  assert.equal(await a.ping(), true);
  await a.close();

  const b = await openStore(url);
  t.after(() => b.close());
  assert.deepEqual(await b.pages.get(key), { command: 'kols', options: { offset: 20, id: '1234567890123456789' } });
  assert.ok(await b.pages.get(short), 'still there before its TTL');
  t.mock.timers.tick(31);
  assert.equal(await b.pages.get(short), undefined, 'expired');
  assert.ok(await b.pages.get(key), 'the long-lived one stays');
  assert.equal(await b.pages.get('../../etc'), undefined, 'malformed keys are not looked up');
});

test('memory store serves the same interface', async () => {
  const s = await openStore('memory:');
  const key = await s.pages.put({ command: 'help', options: {} }, 1000);
  assert.deepEqual(await s.pages.get(key), { command: 'help', options: {} });
  await s.close();
});
