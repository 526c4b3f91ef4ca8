import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viewOf } from '../../../src/alerts/delivery/compose.ts';
import { mergedEntry } from '../../../src/alerts/merge.ts';
import { deliveryKit, textOf } from './kit.ts';

test('an alert is composed in its destination’s language when it is sent', async (t) => {
  const k = await deliveryKit(t);
  await k.store.languages.set('console', 'c', 'ru');
  const e = await k.alert('c');
  const ru = textOf(await viewOf(k.s, e));
  await k.store.languages.set('console', 'c', 'en');
  const en = textOf(await viewOf(k.s, e));
  assert.notEqual(ru, en, 'the same stored alert reads differently after /language');
  assert.match(en, /TK1/);
  assert.match(ru, /TK1/);
  assert.match(ru, /[а-я]/, 'Russian');
});

test('a quiet-hours summary shows how far each token moved since its alert; without market data it shows none', async (t) => {
  let asked = 0;
  const k = await deliveryKit(t, {
    marketNow: async (tokens) => {
      asked++;
      return new Map(tokens.map((x) => [`${x.chain}:${x.address}`, { marketCap: 3_000_000, liquidity: null }]));
    },
  });
  await k.subscribe('q', { quiet: { from: 0, to: 60, tz: 'UTC' } });
  const members = [await k.alert('q'), await k.alert('q')];
  const summary = mergedEntry('quiet', members, k.now);
  const text = textOf(await viewOf(k.s, summary));
  assert.equal(asked, 1, 'one market read for the whole summary');
  assert.match(text, /TK1[\s\S]*TK2/, 'in order');
  assert.match(text, /3\.00x since then/);
  const bare = await deliveryKit(t);
  await bare.subscribe('q', { quiet: { from: 0, to: 60, tz: 'UTC' } });
  assert.doesNotMatch(textOf(await viewOf(bare.s, summary)), /3\.00x since then/);
});
