import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CardView, TableView } from '../../../src/domain/view.ts';
import { clean } from '../../../src/views/text.ts';
import {
  CALLBACK_DATA_MAX_BYTES,
  CAPTION_MAX,
  TEXT_MAX,
  toTelegramHtml,
  type TelegramMessage,
} from '../../../src/views/render/telegram.ts';
import { anyView, assertCleanText, hostile, span, telegramVisible, TWEET_5000 } from './helpers.ts';

function assertLimits(m: TelegramMessage): void {
  const visible = telegramVisible(m.text);
  assert.ok(visible.length >= 1 && visible.length <= TEXT_MAX, `text has ${visible.length} visible characters`);
  assert.match(visible, /\S/, 'Telegram rejects a blank message');
  if (m.caption !== undefined) {
    assert.ok(telegramVisible(m.caption).length <= CAPTION_MAX, 'caption too long');
    assert.ok(m.photo, 'caption without photo');
  }
  assert.equal(m.parse_mode, 'HTML');
  assert.deepEqual(m.link_preview_options, { is_disabled: true });
  for (const row of m.reply_markup?.inline_keyboard ?? []) {
    assert.ok(row.length >= 1 && row.length <= 4);
    for (const b of row) {
      if ('callback_data' in b) assert.ok(Buffer.byteLength(b.callback_data) <= CALLBACK_DATA_MAX_BYTES);
      else assert.match(b.url, /^https?:\/\//);
      assert.ok(b.text.length >= 1);
    }
  }
}

const card = (over: Partial<CardView> = {}): CardView => ({ kind: 'card', title: 'Token', ...over });

test('every message fits, its HTML is well formed and balanced, and its text is clean', () => {
  fc.assert(
    fc.property(anyView, (view) => {
      const m = toTelegramHtml(view);
      assertLimits(m);
      assertCleanText({ ...m, photo: undefined });
    }),
    { numRuns: 150 },
  );
});

test('untrusted text shows exactly as written (cleaned): nothing in it becomes markup', () => {
  fc.assert(
    fc.property(fc.array(span, { maxLength: 6 }), (spans) => {
      const expected = spans
        .map((s) => clean(typeof s === 'string' ? s : 'b' in s ? s.b : 'i' in s ? s.i : 'code' in s ? s.code : s.link))
        .join('');
      fc.pre(/\S/.test(expected) && expected.length <= TEXT_MAX);
      const m = toTelegramHtml({ kind: 'text', text: spans });
      assert.equal(telegramVisible(m.text), expected);
    }),
    { numRuns: 300 },
  );
});

test('a cut text is a clean prefix of the original ending with an ellipsis', () => {
  fc.assert(
    fc.property(hostile(8), fc.integer({ min: 200, max: 600 }), (piece, n) => {
      const original = clean(piece.repeat(n));
      fc.pre(original.length > TEXT_MAX);
      const visible = telegramVisible(toTelegramHtml({ kind: 'text', text: original }).text);
      assert.ok(visible.endsWith('…'));
      assert.ok(visible.isWellFormed());
      assert.ok(original.startsWith(visible.slice(0, -1)), 'not a prefix');
    }),
    { numRuns: 40 },
  );
});

test('hostile HTML is escaped and links only go to web URLs', () => {
  const m = toTelegramHtml(
    card({
      title: '<script>&</script>',
      url: 'https://x.com/a?b=1&c="2"',
      description: ['<b>not bold</b> ', { link: 'evil', url: 'javascript:alert(1)' }, ' ', { code: 'a<b' }],
      footer: 'by @here',
    }),
  );
  assert.equal(
    m.text,
    '<b><a href="https://x.com/a?b=1&amp;c=%222%22">&lt;script&gt;&amp;&lt;/script&gt;</a></b>\n\n' +
      '&lt;b&gt;not bold&lt;/b&gt; evil <code>a&lt;b</code>\n\n<i>by @here</i>',
  );
});

test('a card: bold linked title, description, fields as name: value, footer in italics', () => {
  const m = toTelegramHtml(
    card({
      description: 'gm',
      fields: [
        { name: 'Price', value: '$1.23' },
        { name: 'MC', value: [{ b: '$4M' }] },
      ],
      footer: 'kolradar',
    }),
  );
  assert.equal(m.text, '<b>Token</b>\n\ngm\n\n<b>Price</b>: $1.23\n<b>MC</b>: <b>$4M</b>\n\n<i>kolradar</i>');
});

test('a 5,000-character tweet and 30 fields: cut within 4,096 visible characters, fields kept first-to-last', () => {
  const fields = Array.from({ length: 30 }, (_, i) => ({ name: `Field ${i}`, value: `value & <${i}>`.repeat(20) }));
  const m = toTelegramHtml(card({ description: TWEET_5000, fields }));
  assertLimits(m);
  const visible = telegramVisible(m.text);
  assert.ok(visible.length > 3500, String(visible.length));
  assert.ok(visible.includes('Field 0: value & <0>'));
  assert.ok(!visible.includes('\u202E'));
  assert.match(visible, /…/);
});

test('200 table rows: whole rows in <pre>, with a count of the rest', () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({ rank: String(i + 1), name: `<kol_${i}>`, score: `${i}.5` }));
  const view: TableView = {
    kind: 'table',
    title: 'Top KOLs',
    columns: [
      { key: 'rank', label: '#', align: 'right' },
      { key: 'name', label: 'Name' },
      { key: 'score', label: 'Score', align: 'right' },
    ],
    rows,
  };
  const m = toTelegramHtml(view);
  assertLimits(m);
  const pre = /<pre>([\s\S]*)<\/pre>/.exec(m.text)![1]!;
  const lines = telegramVisible(pre).split('\n');
  assert.equal(lines[0], '  #  Name       Score');
  assert.equal(lines[2], '  1  <kol_0>      0.5');
  const shown = lines.length - 2;
  assert.ok(shown > 50 && shown < 200, String(shown));
  assert.match(lines.at(-1)!, new RegExp(`^ *${shown}  <kol_${shown - 1}> +${shown - 1}\\.5$`));
  assert.ok(telegramVisible(m.text).includes(`… ${200 - shown} more rows`));
});

test('a picture: the whole card as caption when it fits, else a title caption and the text after', () => {
  const picture = { png: new Uint8Array([1]), name: 'map.png', alt: 'mind map' };
  const small = toTelegramHtml(card({ description: 'short', picture }));
  assert.equal(small.caption, small.text);
  assert.equal(small.textAfterPhoto, undefined);
  assert.deepEqual(small.photo, { name: 'map.png', data: picture.png });

  const big = toTelegramHtml(card({ description: TWEET_5000, picture, url: 'https://x.com/t' }));
  assert.equal(big.textAfterPhoto, true);
  assert.equal(big.caption, '<b><a href="https://x.com/t">Token</a></b>');
  assert.ok(telegramVisible(big.text).length > CAPTION_MAX);
  assertLimits(big);
});

test('keyboard: actions with ids as callback buttons, web links as url buttons, rows of 3', () => {
  const actions = Array.from({ length: 5 }, (_, i) => ({ label: `A${i}`, command: 'c', options: {}, id: `k${i}` }));
  const m = toTelegramHtml(
    card({
      actions: [{ label: 'unset', command: 'c', options: {} }, ...actions],
      links: [
        { label: 'X', url: 'https://x.com/a' },
        { label: 'js', url: 'javascript:alert(1)' },
      ],
    }),
  );
  assert.deepEqual(m.reply_markup?.inline_keyboard, [
    [
      { text: 'A0', callback_data: 'k0' },
      { text: 'A1', callback_data: 'k1' },
      { text: 'A2', callback_data: 'k2' },
    ],
    [
      { text: 'A3', callback_data: 'k3' },
      { text: 'A4', callback_data: 'k4' },
    ],
    [{ text: 'X', url: 'https://x.com/a' }],
  ]);
  // 22 three-byte characters: 66 bytes though only 22 characters.
  assert.throws(
    () => toTelegramHtml(card({ actions: [{ label: 'x', command: 'c', options: {}, id: '€'.repeat(22) }] })),
    /66-byte id/,
  );
  assert.doesNotThrow(() =>
    toTelegramHtml(card({ actions: [{ label: 'x', command: 'c', options: {}, id: 'a'.repeat(64) }] })),
  );
});

test('errors: warning and example in code, labelled in the words given and never in English of their own', () => {
  const view = { kind: 'error', message: 'Unknown chain <x>', example: '/token solana So1' } as const;
  const m = toTelegramHtml({ ...view, labels: { example: 'Örnek:', error: 'Hata:' } });
  assert.equal(m.text, '⚠️ Unknown chain &lt;x&gt;\nÖrnek: <code>/token solana So1</code>');
  assert.equal(toTelegramHtml(view).text, '⚠️ Unknown chain &lt;x&gt;\n<code>/token solana So1</code>');
});
