// The sandbox against the spec: auth, validation, not-found, envelopes, realistic data.
import { test } from 'node:test';
import { checkEnvelopes, checkMarket } from './checks/envelopes.ts';
import { checkErrors } from './checks/errors.ts';
import { start } from './helpers.ts';

test('sandbox contract', async (t) => {
  const sb = await start(t);
  await t.test('auth, validation and not-found answers', (st) => checkErrors(st, sb));
  await t.test('envelopes and records match the spec field by field', (st) => checkEnvelopes(st, sb));
  await t.test('generated data looks like a real market', (st) => checkMarket(st, sb));
});
