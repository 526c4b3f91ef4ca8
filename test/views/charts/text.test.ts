import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { textWidth } from '../../../src/views/charts/font.ts';
import { cleanText, drawableText, escapeXml, fitText, pickLabel } from '../../../src/views/charts/text.ts';

test('escaping covers all five XML specials and nothing else', () => {
  assert.equal(escapeXml(`<a href="x">&'</a>`), '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
  assert.equal(escapeXml('PEPE 狗 Ω'), 'PEPE 狗 Ω');
});

test('cut text fits its width, ends with an ellipsis, and never splits a character', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 20, max: 300 }), (raw, max) => {
      const text = drawableText(raw);
      const out = fitText(text, max, 13);
      if (out === text) return textWidth(text, 13) <= max;
      return (
        out.endsWith('…') &&
        textWidth(out, 13) <= max + 0.01 &&
        text.startsWith(out.slice(0, -1).trimEnd()) &&
        out.isWellFormed()
      );
    }),
    { numRuns: 300 },
  );
  assert.equal(fitText('SHORT', 200, 13), 'SHORT');
  assert.equal(fitText('𝐀𝐁𝐂𝐃𝐄𝐅𝐆𝐇𝐈𝐉𝐊𝐋𝐌𝐍', 60, 13).isWellFormed(), true);
});

test('cleaning removes what could break XML or reorder text, keeps real text', () => {
  assert.equal(cleanText('  A\u0000B\u202E\r\nC\tD\uFEFF '), 'AB C D');
  assert.equal(cleanText('\uD800lone'), '\uFFFDlone');
  assert.equal(drawableText('🐸 PEPE 🚀'), 'PEPE');
  assert.equal(drawableText('©™ ★'), '©™ ★', 'symbols the font has are kept');
});

test('labels prefer fully drawable text, then any text, then the fallback', () => {
  assert.equal(pickLabel(['WIF', 'dogwifhat'], '#1'), 'WIF');
  // CJK draws from the fallback faces, so a Chinese symbol is kept; a script no face draws yields to the name.
  assert.equal(pickLabel(['狗狗币', 'Dog Coin'], '#1'), '狗狗币');
  assert.equal(pickLabel(['कुत्ता', 'Dog Coin'], '#1'), 'Dog Coin');
  assert.equal(pickLabel(['कुत्ता', 'कु'], '#1'), 'कुत्ता');
  assert.equal(pickLabel(['🚀', undefined], '#7'), '#7');
});
