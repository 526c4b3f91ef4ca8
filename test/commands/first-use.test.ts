// What a new user types first, answered as they meant it: a mistyped command, a profile link.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { asCard, asError, harness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await harness();
});
after(() => h.close());

test('an unknown command suggests the nearest one, a swap of two letters included', async () => {
  assert.match(asError(await h.send('/tokne solana x')).message, /Did you mean \/token\?/);
  assert.match(asError(await h.send('/mindmpa')).message, /Did you mean \/mindmap\?/);
  assert.doesNotMatch(asError(await h.send('/zzzzzz')).message, /Did you mean/);
});

test('/kol takes an x.com or twitter.com profile link as the @handle', async () => {
  const kol = h.sandbox.data.kols[0]!;
  const byHandle = asCard(await h.send(`/kol @${kol.username}`));
  for (const link of [
    `https://x.com/${kol.username}`,
    `x.com/${kol.username}`,
    `https://twitter.com/${kol.username}/`,
    `https://x.com/${kol.username}/status/1790912474830548992`,
  ]) {
    const card = asCard(await h.send(`/kol ${link}`));
    assert.equal(card.title, byHandle.title, link);
  }
  assert.match(asError(await h.send('/kol https://x.com/home')).message, /./);
});
