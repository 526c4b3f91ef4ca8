// Bans across instances: each holds the list in memory and rereads it once the version changed,
// checked at most every recheckMs; its own writes count at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/index.ts';
import { createOwnerStore } from '../../src/store/owner.ts';

test('a ban made on one instance holds on another within its recheck, and an unban lifts it there too', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  let now = 1_000_000;
  const a = createOwnerStore(store.space('owner'), { now: () => now, recheckMs: 2_000 });
  const b = createOwnerStore(store.space('owner'), { now: () => now, recheckMs: 2_000 });
  assert.equal(await b.banned(['telegram:-1']), undefined); // b has read the (empty) list
  await a.ban({ target: 'telegram:-1', reason: 'spam', at: now, by: 'telegram:9' });
  assert.equal((await a.banned(['telegram:5', 'telegram:-1']))?.reason, 'spam', 'at once where it was made');
  assert.equal(await b.banned(['telegram:-1']), undefined, 'the other still holds its list');
  now += 2_000;
  assert.equal((await b.banned(['telegram:-1']))?.by, 'telegram:9', 'reread once the version changed');
  assert.equal(await a.unban('telegram:-1'), true);
  assert.equal(await a.unban('telegram:-1'), false);
  now += 2_000;
  assert.equal(await b.banned(['telegram:-1']), undefined);
  assert.deepEqual(await b.bans(), []);
});
