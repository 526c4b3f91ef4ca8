import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clean, cut, displayWidth, graphemes, neuterMentions, singleLine } from '../../../src/views/text.ts';
import { hostile } from './helpers.ts';

const FAMILY = '👩‍👩‍👧‍👦';

test('cut never splits a grapheme: the kept part is whole graphemes of the original', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        hostile(30),
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.string({ unit: 'binary', maxLength: 80 }),
      ),
      fc.integer({ min: 0, max: 120 }),
      (text, max) => {
        const out = cut(text, max);
        assert.ok(out.length <= max || (max >= text.length && out === text));
        if (text.length <= max) return assert.equal(out, text);
        if (max === 0) return assert.equal(out, '');
        assert.ok(out.endsWith('…'));
        const kept = graphemes(out.slice(0, -1));
        assert.deepEqual(kept, graphemes(text).slice(0, kept.length), JSON.stringify({ text, max, out }));
      },
    ),
    { numRuns: 3000 },
  );
});

test('cut keeps emoji ZWJ sequences and surrogate pairs whole, and prefers a word break', () => {
  const text = `gm ${FAMILY.repeat(3)}`;
  assert.equal(cut(text, 15), `gm ${FAMILY}…`);
  assert.equal(cut(text, 14), 'gm…');
  assert.equal(cut('😀😀😀', 4), '😀…');
  // An astral combining mark right after the cut point still belongs to the letter before it.
  assert.equal(cut('ab\u{11099}\u{110BA}cd', 5), 'ab…');
  assert.equal(cut('the quick brown fox jumps over', 22), 'the quick brown fox…');
  assert.equal(cut('short', 5), 'short');
  assert.equal(cut('abcdef', 1), '…');
});

test('neuterMentions: no mention form survives, and it is idempotent', () => {
  const out = neuterMentions('@everyone @Here <@123> <@!123> <@&456> <#789> mail@here.com');
  assert.doesNotMatch(out, /@(everyone|here)|<@!?&?\d+>|<#\d+>/i);
  assert.equal(out.replace(/\u200b/g, ''), '@everyone @Here <@123> <@!123> <@&456> <#789> mail@here.com');
  assert.equal(neuterMentions(out), out);
});

test('clean strips terminal escapes, controls and bidi overrides; singleLine collapses whitespace', () => {
  assert.equal(clean('a\u001b[31mb\u001b]0;title\u0007c\u202Ed\u2066e\u0000f\r\ng\th'), 'abcdef\ng h');
  assert.equal(clean('\uD83D x'), '\uFFFD x');
  assert.equal(singleLine('  a \n\n b\u2028c  '), 'a b c');
});

test('displayWidth counts wide characters as two columns', () => {
  assert.equal(displayWidth('abc'), 3);
  assert.equal(displayWidth('中文'), 4);
  assert.equal(displayWidth(FAMILY), 2);
  assert.equal(displayWidth('e\u0301'), 1);
});
