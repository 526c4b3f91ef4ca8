/**
 * What one Telegram user can cost the upstream per minute through inline mode,
 * automatic cards and commands together, driven as hard as a user can (a new
 * query each time, so no cache helps) through grammY against the fake. The
 * limits run on an injected clock. Each test prints its count and fails above
 * the bound in docs/security.md.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { DEFAULT_USER_LIMIT } from '../../src/core/dispatch.ts';
import { group, rig } from '../adapters/telegram/helpers.ts';
import { readmeBound } from '../helpers/readme-bounds.ts';

function report(t: TestContext, entry: string, made: number): void {
  const bound = readmeBound(entry);
  t.diagnostic(`${entry}: one user caused ${made} upstream requests in a minute (docs/security.md bound ${bound})`);
  assert.ok(made <= bound, `${entry}: ${made} upstream requests > ${bound}`);
}

test('inline queries: the most upstream requests one user can cause per minute', { timeout: 60_000 }, async (t) => {
  const now = Date.UTC(2026, 0, 1);
  const r = await rig(t, { fake: { inlineMode: true }, userLimit: DEFAULT_USER_LIMIT, clock: () => now });
  const from = { id: 7001, first_name: 'Spender' };
  const before = r.sb.count();
  // Name searches (every chain) and ten new addresses per query, alternately.
  const queries = Array.from({ length: 40 }, (_, k) =>
    k % 2
      ? `zz${k}q`
      : Array.from({ length: 10 }, (_, j) => `0x${(k * 10 + j + 1).toString(16).padStart(40, 'd')}`).join(' '),
  );
  for (const query of queries) await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query, from })!);
  const made = r.sb.count() - before;
  assert.ok(made > 0);
  report(t, 'Inline queries (Telegram)', made);
});

test('automatic cards and commands together on Telegram stay within the bound for every entry point', {
  timeout: 60_000,
}, async (t) => {
  let now = Date.UTC(2026, 0, 1);
  const r = await rig(t, {
    fake: { inlineMode: true, privacyMode: false },
    userLimit: DEFAULT_USER_LIMIT,
    clock: () => now,
  });
  const from = { id: 7002, first_name: 'Spender' };
  const groups = [group(-7201), group(-7202), group(-7203)];
  for (const g of groups) r.fake.setMember(g.id, 7999, 'administrator');
  const before = r.sb.count();
  for (const half of [0, 1]) {
    if (half) now += DEFAULT_USER_LIMIT.windowMs;
    for (let k = 0; k < DEFAULT_USER_LIMIT.count + 3; k++) {
      const g = groups[k % groups.length]!;
      r.fake.sendText({ chat: g, from, text: `0x${(half * 100 + k + 1).toString(16).padStart(40, 'b')}` });
      r.fake.sendText({ chat: g, from, text: `/token zz${half}x${k}` });
    }
    // A group's updates are handled in order: another member's /autocard is answered after everything above.
    for (const g of groups) {
      r.fake.sendText({ chat: g, from: { id: 7999, first_name: 'Barrier' }, text: '/autocard' });
      await r.fake.waitForMessage(g.id, (m) => /^Automatic cards are/.test(m.text ?? ''));
    }
    for (let k = 0; k < 20; k++)
      await r.fake.waitForInlineAnswer(r.fake.sendInlineQuery({ query: `yy${half}x${k}`, from })!);
  }
  const made = r.sb.count() - before;
  report(t, 'Every entry point together', made);
});
