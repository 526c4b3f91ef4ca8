// The digest's top callers: where a chat's board is on, its members' calls of the period ranked as
// /lb ranks them (3+ calls), figures checked against a computation here; none where the board is off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KolClient } from '../../src/api/index.ts';
import { buildDigest } from '../../src/alerts/digest/build.ts';
import { formats } from '../../src/i18n/format.ts';
import { translator } from '../../src/i18n/index.ts';
import { silentLogger } from '../../src/log.ts';
import { openStore } from '../../src/store/index.ts';
import { memberCall } from '../../src/store/membercalls.ts';
import { openSubscription } from '../helpers/subscriptions.ts';

const api = {
  getTokenAnalytics: async () => ({ items: [], total: 0 }),
  getKolWinRates: async () => ({ items: [], total: 0 }),
} as unknown as KolClient;

test('a digest lists the period’s top callers where the board is on: hit rate of their calls and their best', async (t) => {
  const store = await openStore('memory:', { memberCalls: { perDay: 100 } });
  t.after(() => store.close());
  const at = Date.now();
  const period = { key: 'daily:x', from: at - 3_600_000, at: at + 3_600_000 };
  const sub = openSubscription('telegram', '-42');
  // Alice: 4 calls, peaks 3x, 1x, 2.5x, 1.2x -> 2 hits of 4; Bob: 3 calls, 1x each; Carol: 2 calls (unranked).
  const plan: [string, number[]][] = [
    ['alice', [3, 1, 2.5, 1.2]],
    ['bob', [1, 1, 1]],
    ['carol', [5, 5]],
  ];
  let n = 0;
  for (const [who, peaks] of plan)
    for (const p of peaks) {
      const call = memberCall({
        board: 'telegram:-42',
        platform: 'telegram',
        chatId: '-42',
        messageId: String(n),
        member: { id: who, name: `@${who}` },
        token: { chain: 'base', address: `0x${(++n).toString(16).padStart(40, '0')}`, symbol: `T${n}`, name: `T${n}` },
        marketCap: 1000,
        liquidity: null,
        at,
        points: [5],
        nonce: String(n),
      });
      assert.equal((await store.members.call(call)).kind, 'recorded');
      await store.calls.save([
        { ...call, peak: 1000 * p, samples: [{ at: at + 300_000, marketCap: 1000 * p, point: 5 }], next: 1 },
      ]);
    }
  const field = async () =>
    (
      await buildDigest(
        { api, members: store.members, log: silentLogger() },
        sub,
        period,
        translator('en'),
        false,
        formats('en'),
      )
    ).fields!.find((f) => f.name.startsWith('Top callers'));
  assert.equal(await field(), undefined, 'the board is off: no callers section');
  await store.members.setOn('telegram:-42', true);
  const shown = await field();
  assert.equal(shown!.name, 'Top callers here (3+ calls)');
  assert.equal(shown!.value, '@alice · hit rate 50.0% of 4 · best T1 3.00x\n@bob · hit rate 0.0% of 3 · best T5 1.00x');
});
