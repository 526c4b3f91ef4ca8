import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { asError, harness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await harness();
});
after(() => h.close());

test('a KOL name that is only part of a username is not taken for someone else', async () => {
  const kol = h.sandbox.data.kols.find((k) => k.username.length > 6)!;
  const partial = kol.username.slice(0, -2);
  const view = await h.send(`/kol @${partial}`);
  const err = asError(view);
  assert.match(err.message, new RegExp(`No KOL is named @${partial}\\. Did you mean .*@${kol.username}`));
});
