import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallEvent } from '../../src/api/index.ts';
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

test("a KOL's remembered id lasts six hours on the commands' clock, and belongs to one dispatcher", async () => {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const asked: string[] = [];
  const record = (e: CallEvent) => asked.push(e.operation);
  const own = await harness({ now: () => clock, onCall: record });
  const other = await harness({ onCall: record });
  try {
    const name = `@${own.sandbox.data.kols[0]!.username}`;
    // Win-rate pages read to find the id (answers from the client's cache count too: resolve asked).
    const idLookups = async (h: Harness) => {
      asked.length = 0;
      const view = await h.send(`/kol ${name}`);
      assert.equal(view.kind, 'card', view.kind === 'error' ? view.message : view.kind);
      return asked.filter((op) => op === 'kolWinRates').length;
    };
    assert.ok((await idLookups(own)) > 0, 'the first look-up reads the win-rate table');
    assert.equal(await idLookups(own), 0, 'then the id is remembered');
    assert.ok((await idLookups(other)) > 0, "another app's dispatcher does not share the memo");
    clock += 6 * 3600_000 - 1;
    assert.equal(await idLookups(own), 0, 'still remembered just before six hours (and remembered anew)');
    clock += 6 * 3600_000;
    assert.ok(
      (await idLookups(own)) > 0,
      'six hours after its last use, looked up again: the memo follows the injected clock',
    );
  } finally {
    await own.close();
    await other.close();
  }
});
