import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toPlainText } from '../../../src/views/render/plain.ts';
import { displayWidth } from '../../../src/views/text.ts';
import { anyView } from './helpers.ts';

const ESC = '\u001b';

test('a card: title, aligned fields, footer, links as label: url, numbered actions', () => {
  const out = toPlainText({
    kind: 'card',
    title: 'PEPE',
    url: 'https://dexscreener.com/pepe',
    description: ['Price ', { b: 'up' }, ' see ', { link: 'chart', url: 'https://x.com/c' }],
    fields: [
      { name: 'Price', value: '$0.0₄1234' },
      { name: 'Market cap', value: '$1.2M' },
    ],
    footer: 'kolradar',
    links: [
      { label: 'Explorer', url: 'https://solscan.io/token/abc' },
      { label: 'bad', url: 'javascript:x' },
    ],
    actions: [
      { label: 'Next ›', command: 'token', options: { page: 2 }, id: 'k1' },
      { label: 'not stored', command: 'token', options: {} },
      { label: 'Mindmap', command: 'mindmap', options: {}, id: 'k2' },
    ],
  });
  assert.equal(
    out.text,
    [
      'PEPE\nhttps://dexscreener.com/pepe',
      'Price up see chart (https://x.com/c)',
      'Price       $0.0₄1234\nMarket cap  $1.2M',
      'kolradar',
      'Explorer: https://solscan.io/token/abc',
      '[1] Next ›  [2] Mindmap',
    ].join('\n\n'),
  );
  assert.deepEqual(out.actions, [
    { n: 1, id: 'k1', label: 'Next ›' },
    { n: 2, id: 'k2', label: 'Mindmap' },
  ]);
  assert.deepEqual(out.links, [{ label: 'Explorer', url: 'https://solscan.io/token/abc' }]);
});

test('untrusted escapes and controls are stripped; colour appears only when asked', () => {
  const view = {
    kind: 'card' as const,
    title: `evil${ESC}]0;pwned\u0007${ESC}[2J\u202Etitle`,
    description: `line\r\nnext${ESC}[31m red\u0000`,
    colour: 'down' as const,
  };
  const plain = toPlainText(view).text;
  assert.equal(plain, 'eviltitle\n\nline\nnext red');
  const coloured = toPlainText(view, { colour: true }).text;
  assert.equal(coloured, `${ESC}[1;31meviltitle${ESC}[0m\n\nline\nnext red`);
});

test('a wide table is narrowed to the terminal width; columns stay aligned with wide characters', () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({
    n: String(i + 1),
    name: i % 2 ? '中文名字中文名字' : 'x'.repeat(60),
    v: '👩‍👩‍👧‍👦',
  }));
  const out = toPlainText(
    {
      kind: 'table',
      title: 'T',
      columns: [
        { key: 'n', label: '#', align: 'right' },
        { key: 'name', label: 'Name' },
        { key: 'v', label: 'V' },
      ],
      rows,
    },
    { width: 40 },
  );
  const lines = out.text.split('\n').slice(2);
  for (const line of lines) assert.ok(displayWidth(line) <= 40, line);
  const vAt = lines.filter((l) => l.includes('👩')).map((l) => displayWidth(l.slice(0, l.indexOf('👩'))));
  assert.equal(vAt.length, rows.length);
  assert.equal(new Set(vAt).size, 1, 'the last column starts at the same column on every row');
  // Only the name wider than a whole line is cut.
  assert.equal(out.text.split('…').length - 1, 3);
  assert.equal(lines.filter((l) => l.includes('中文名字中文名字')).length, 2);
});

test('errors show the example, labelled in the words given and never in English of their own', () => {
  const view = { kind: 'error', message: 'Unknown chain', example: '/token solana So1' } as const;
  assert.equal(
    toPlainText({ ...view, labels: { example: 'Пример:', error: 'Ошибка:' } }).text,
    'Ошибка: Unknown chain\nПример: /token solana So1',
  );
  assert.equal(toPlainText(view).text, '✖ Unknown chain\n/token solana So1');
});

test('no output ever carries a control character unless colour was asked for', () => {
  fc.assert(
    fc.property(anyView, (view) => {
      const out = toPlainText(view);
      assert.doesNotMatch(out.text, /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
      assert.ok(out.text.isWellFormed());
      out.actions.forEach((a, i) => {
        assert.equal(a.n, i + 1);
      });
      const coloured = toPlainText(view, { colour: true }).text;
      // Colour adds only SGR sequences.
      assert.doesNotMatch(coloured.replace(/\u001b\[[0-9;]*m/g, ''), /\u001b/);
    }),
    { numRuns: 60 },
  );
});
