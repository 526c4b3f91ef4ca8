// The compiled translator says exactly what i18next says, for every key of every language:
// plain texts, each plural form, fallbacks, and the calls it hands to i18next whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLURAL_SUFFIX } from '../../src/i18n/catalogue.ts';
import { i18nextT, LOCALES, translator } from '../../src/i18n/index.ts';
import { catalogueTexts } from '../helpers/catalogue.ts';

/** Base key -> every placeholder any of its English forms uses, and whether it has plural forms. */
const keys = new Map<string, { names: Set<string>; plural: boolean }>();
for (const [key, text] of catalogueTexts('en')) {
  const m = PLURAL_SUFFIX.exec(key);
  const base = m ? key.slice(0, m.index) : key;
  const entry = keys.get(base) ?? { names: new Set<string>(), plural: false };
  for (const p of text.matchAll(/\{\{(\w+)\}\}/g)) entry.names.add(p[1]!);
  if (m) entry.plural = true;
  keys.set(base, entry);
}

const call = (t: unknown, ...a: unknown[]) => (t as (...x: unknown[]) => string)(...a);

test('every key in every language: the compiled translator and i18next agree', () => {
  let compared = 0;
  for (const locale of LOCALES) {
    const fast = translator(locale);
    const slow = i18nextT(locale);
    for (const [key, { names, plural }] of keys) {
      const values = Object.fromEntries([...names].map((n) => [n, `<${n}>`]));
      const cases: Record<string, unknown>[] = plural
        ? [0, 1, 2, 3, 4, 5, 11, 21, 22, 101, 1.5, -1].map((count) => ({ ...values, count }))
        : [values];
      // A second call takes the cached template: both must still agree.
      for (const v of [...cases, ...cases]) {
        assert.equal(call(fast, key, v), call(slow, key, v), `${locale} ${key} ${JSON.stringify(v)}`);
        compared++;
      }
      if (names.size === 0) assert.equal(call(fast, key), call(slow, key), `${locale} ${key}`);
    }
  }
  assert.ok(compared > 8 * 400, `only ${compared} comparisons`);
});

test('calls the templates do not cover go to i18next whole, with the same result', () => {
  const key = 'help.commands';
  for (const locale of LOCALES) {
    const fast = translator(locale);
    const slow = i18nextT(locale);
    const cases: unknown[][] = [
      [key, { count: 3 }],
      [key, {}], // a placeholder left unfilled stays as i18next leaves it
      [key, { count: '3' }], // a count that is no number: no plural form
      [key, { count: 3, defaultValue: 'x' }],
      ['no.such.key', { count: 1 }],
      ['no.such.key'],
      [key, { count: { toString: () => '7' } }],
      [key, { count: null }],
    ];
    for (const args of cases)
      assert.equal(call(fast, ...args), call(slow, ...args), `${locale} ${JSON.stringify(args)}`);
  }
  // The results are the language's, not English: the test above would pass on two English translators.
  assert.equal(call(translator('ru'), key, { count: 5 }), call(i18nextT('ru'), key, { count: 5 }));
  assert.notEqual(call(translator('ru'), key, { count: 5 }), call(translator('en'), key, { count: 5 }));
  assert.notEqual(call(translator('ru'), key, { count: 1 }), call(translator('ru'), key, { count: 5 }));
});
