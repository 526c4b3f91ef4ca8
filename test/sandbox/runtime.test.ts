// Run-time behaviour: determinism, speed, request log, appended and live tweets, faults, close.
import { test } from 'node:test';
import { checkDeterminism } from './checks/determinism.ts';
import { checkFaults, checkHangAndClose } from './checks/faults.ts';
import { checkLiveAndLog } from './checks/live-log.ts';
import { start } from './helpers.ts';

test('sandbox at run time', async (t) => {
  const seed = 3;
  const now = Math.floor(Date.now() / 1000) * 1000;
  const sb = await start(t, { seed, now, apiKey: 'secret-key-123' });
  // Before anything appends to the data.
  await t.test('same seed, same data; another seed, other data', () => checkDeterminism(sb, seed, now));
  await t.test('request log, appended tweets, Move addresses, live mode', (st) => checkLiveAndLog(st, sb));
  await t.test('each fault kind is observable and switchable at run time', (st) => checkFaults(st, sb));
  await t.test('a hang never answers, and close() still ends it', () => checkHangAndClose(sb));
});
