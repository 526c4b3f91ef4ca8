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
  const a = await openStore(url);
  const key = await a.pages.put({ command: 'kols', options: { offset: 20, id: '1234567890123456789' }, chats: ['telegram:-1001'] }, 60_000);
  const short = await a.pages.put({ command: 'kols', options: {}, chats: ['telegram:-1001'] }, 30);
  assert.match(key, /^[A-Za-z0-9_-]{12}$/);
  assert.equal(await a.ping(), true);
  await a.close();

  const b = await openStore(url);
  t.after(() => b.close());
  assert.deepEqual(await b.pages.get(key), { command: 'kols', options: { offset: 20, id: '1234567890123456789' }, chats: ['telegram:-1001'] });
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(await b.pages.get(short), undefined, 'expired');
  assert.equal(await b.pages.get('../../etc'), undefined, 'malformed keys are not looked up');
});

test('memory store serves the same interface', async () => {
  const s = await openStore('memory:');
  const key = await s.pages.put({ command: 'help', options: {}, chats: ['discord:123456789012345678'] }, 1000);
  assert.deepEqual(await s.pages.get(key), { command: 'help', options: {}, chats: ['discord:123456789012345678'] });
  await s.close();
});
