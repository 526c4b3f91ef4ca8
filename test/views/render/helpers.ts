/**
 * Hostile inputs and independent checkers for the renderer tests. The checkers
 * do not reuse renderer code: they re-read the output the way a platform would.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BUTTON_LABEL_MAX,
  BUTTONS_PER_ROW,
  CONTENT_MAX,
  CUSTOM_ID_MAX,
  EMBED_DESCRIPTION_MAX,
  EMBED_FIELDS_MAX,
  EMBED_TITLE_MAX,
  EMBED_TOTAL_MAX,
  FIELD_NAME_MAX,
  FIELD_VALUE_MAX,
  FOOTER_MAX,
  ROWS_MAX,
  type DiscordPayload,
} from '../../../src/views/render/discord.ts';
import type {
  Action,
  CardView,
  Colour,
  Field,
  LinkButton,
  Picture,
  Rich,
  Span,
  TableView,
  TextView,
  View,
} from '../../../src/domain/view.ts';

export const TWEET_5000 = 'gm @everyone **moon** `rug` <b>x</b> & 👩‍👩‍👧‍👦 \u202Eevil\u202C <@123> '
  .repeat(80)
  .slice(0, 5000);

export const HOSTILE_TOKENS = [
  '*',
  '**',
  '_',
  '__',
  '~~',
  '`',
  '```',
  '||',
  '>',
  '>>> ',
  '# ',
  '-# ',
  '- ',
  '1. ',
  '[',
  ']',
  '(',
  ')',
  '<',
  '&',
  '&amp;',
  '&lt;',
  '"',
  "'",
  '\\',
  '@everyone',
  '@here',
  '@EveryOne',
  '<@123>',
  '<@!123>',
  '<@&456>',
  '<#789>',
  '<script>',
  '</b>',
  '<b>',
  '<a href="javascript:x">',
  '\u202E',
  '\u2066',
  '\u001b[31m',
  '\u001b]0;t\u0007',
  '\u0007',
  '\r\n',
  '\n',
  ' ',
  '\t',
  '👩‍👩‍👧‍👦',
  '🇺🇸',
  'e\u0301',
  '中文',
  'a',
  'word',
  '\uD83D',
  '\u200D',
  'https://x.com/a_b',
  '[x](https://evil.com)',
  'javascript:alert(1)',
  '0.30000000000000004',
  '.',
  '1',
];

/** Short hostile text: hostile tokens mixed with arbitrary code points. */
export const hostile = (maxTokens = 12): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof(fc.constantFrom(...HOSTILE_TOKENS), fc.string({ unit: 'binary', maxLength: 2 })), {
      maxLength: maxTokens,
    })
    .map((parts) => parts.join(''));

/** Sometimes very long hostile text (a hostile piece repeated). */
export const hostileLong: fc.Arbitrary<string> = fc.oneof(
  hostile(),
  fc.tuple(hostile(6), fc.integer({ min: 1, max: 800 })).map(([s, n]) => s.repeat(n)),
);

const URLS = [
  'https://x.com/a?b=1&c="2"<>',
  'javascript:alert(1)',
  'http://example.com/(x)',
  'tg://user?id=1',
  'not a url',
];

export const span: fc.Arbitrary<Span> = fc.oneof(
  hostileLong,
  hostile().map((b) => ({ b })),
  hostile().map((i) => ({ i })),
  hostile().map((code) => ({ code })),
  fc.record({ link: hostile(), url: fc.constantFrom(...URLS) }),
);

export const rich: fc.Arbitrary<Rich> = fc.oneof(hostileLong, fc.array(span, { maxLength: 8 }));

const colour = fc.constantFrom<Colour>('brand', 'up', 'down', 'neutral', 'warn', 'error');
const links = fc.array(fc.record<LinkButton>({ label: hostile(), url: fc.constantFrom(...URLS) }), { maxLength: 8 });
const actions = fc.array(
  fc.record(
    {
      label: hostileLong,
      command: fc.constant('token'),
      options: fc.constant({}),
      style: fc.constantFrom('primary', 'secondary', 'danger'),
      id: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }),
    },
    { requiredKeys: ['label', 'command', 'options'] },
  ) as fc.Arbitrary<Action>,
  { maxLength: 30 },
);
const picture: fc.Arbitrary<Picture> = fc.record({
  png: fc.constant(new Uint8Array([137, 80, 78, 71])),
  name: hostile(),
  alt: hostileLong,
});
const field: fc.Arbitrary<Field> = fc.record(
  { name: hostileLong, value: rich, inline: fc.boolean() },
  { requiredKeys: ['name', 'value'] },
);

export const cardView: fc.Arbitrary<CardView> = fc.record(
  {
    kind: fc.constant('card' as const),
    title: hostileLong,
    url: fc.constantFrom(...URLS),
    description: rich,
    fields: fc.array(field, { maxLength: 32 }),
    thumbnailUrl: fc.constantFrom(...URLS),
    picture,
    footer: hostileLong,
    colour,
    links,
    actions,
  },
  { requiredKeys: ['kind', 'title'] },
);

const KEYS = ['a', 'b', 'c', 'd'];
export const tableView: fc.Arbitrary<TableView> = fc.record(
  {
    kind: fc.constant('table' as const),
    title: hostileLong,
    description: rich,
    columns: fc.uniqueArray(
      fc.record({
        key: fc.constantFrom(...KEYS),
        label: hostile(3),
        align: fc.constantFrom('left', 'right') as fc.Arbitrary<'left' | 'right'>,
      }),
      { minLength: 1, maxLength: 4, selector: (c) => c.key },
    ),
    rows: fc.array(fc.record({ a: hostile(4), b: hostile(4), c: hostile(2), d: hostile(8) }), { maxLength: 250 }),
    notes: fc.array(rich, { maxLength: 40 }),
    footer: hostileLong,
    picture,
    colour,
    links,
    actions,
  },
  { requiredKeys: ['kind', 'title', 'columns', 'rows'] },
);

export const textView: fc.Arbitrary<TextView> = fc.record(
  { kind: fc.constant('text' as const), text: rich, picture, links, actions },
  { requiredKeys: ['kind', 'text'] },
);

export const errorView: fc.Arbitrary<View> = fc.record(
  { kind: fc.constant('error' as const), message: hostileLong, example: hostileLong, links, actions },
  { requiredKeys: ['kind', 'message'] },
);

export const anyView: fc.Arbitrary<View> = fc.oneof(cardView, tableView, textView, errorView);

/** Every string anywhere in a value (payload objects, arrays). */
export function allStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof Uint8Array || value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(allStrings);
}

const PING_RES = [/@(everyone|here)/i, /<@!?&?\d+>/, /<#\d+>/];

export function assertNoPing(value: unknown): void {
  for (const s of allStrings(value)) {
    for (const re of PING_RES) assert.doesNotMatch(s, re, `can ping: ${JSON.stringify(s.slice(0, 200))}`);
  }
}

/** No lone surrogates, no bidi overrides, no control characters but newline. */
export function assertCleanText(value: unknown): void {
  for (const s of allStrings(value)) {
    assert.ok(s.isWellFormed(), `broken surrogate pair in ${JSON.stringify(s.slice(0, 200))}`);
    assert.doesNotMatch(s, /[\u202A-\u202E\u2066-\u2069]/, 'bidi override survived');
    assert.doesNotMatch(s, /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/, 'control character survived');
  }
}

const TELEGRAM_TAGS = new Set(['b', 'i', 'code', 'pre', 'a']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/**
 * Reads Telegram HTML as the Bot API would and returns the visible text.
 * Throws on an unknown tag, an unbalanced tag, a raw `<`, `>` or `&`, or an
 * `a` without a web href.
 */
export function telegramVisible(html: string): string {
  const token = /<(\/?)([a-z]+)((?: href="[^"<>]*")?)>|&(amp|lt|gt|quot);|([<>&])|([^<>&]+)/gy;
  const stack: string[] = [];
  let out = '';
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < html.length) {
    m = token.exec(html);
    if (!m) break;
    pos = token.lastIndex;
    const [, close, tag, attr, entity, raw, text] = m;
    if (raw) throw new Error(`raw ${raw} in ${JSON.stringify(html.slice(Math.max(0, m.index - 40), m.index + 40))}`);
    if (text !== undefined) out += text;
    else if (entity) out += ENTITIES[entity];
    else if (tag) {
      if (!TELEGRAM_TAGS.has(tag)) throw new Error(`tag <${tag}> is not allowed`);
      if (close) {
        if (stack.pop() !== tag) throw new Error(`unbalanced </${tag}>`);
      } else {
        if (tag === 'a' && !/^ href="https?:\/\//.test(attr ?? '')) throw new Error(`link without a web href: ${attr}`);
        if (tag !== 'a' && attr) throw new Error(`attribute on <${tag}>`);
        stack.push(tag);
      }
    }
  }
  if (pos !== html.length) throw new Error(`unparseable at ${pos}`);
  if (stack.length) throw new Error(`unclosed <${stack.join('>, <')}>`);
  return out;
}

/** Every Discord limit on a message body (as rendered, or as a fake received it), and no pings. */
export function assertDiscordLimits(p: DiscordPayload): void {
  assert.ok((p.content ?? '').length <= CONTENT_MAX, 'content too long');
  assert.ok(p.embeds.length <= 10);
  for (const e of p.embeds) {
    assert.ok((e.title ?? '').length <= EMBED_TITLE_MAX, 'title too long');
    assert.ok((e.description ?? '').length <= EMBED_DESCRIPTION_MAX, 'description too long');
    assert.ok((e.footer?.text ?? '').length <= FOOTER_MAX, 'footer too long');
    assert.ok((e.fields ?? []).length <= EMBED_FIELDS_MAX, 'too many fields');
    for (const f of e.fields ?? []) {
      assert.ok(f.name.length >= 1 && f.name.length <= FIELD_NAME_MAX, 'field name length');
      assert.ok(f.value.length >= 1 && f.value.length <= FIELD_VALUE_MAX, 'field value length');
    }
    const total =
      (e.title ?? '').length +
      (e.description ?? '').length +
      (e.footer?.text ?? '').length +
      (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
    assert.ok(total <= EMBED_TOTAL_MAX, `embed total ${total}`);
    for (const url of [e.url, e.thumbnail?.url]) if (url) assert.match(url, /^https?:\/\//);
  }
  assert.ok(p.components.length <= ROWS_MAX, 'too many rows');
  const ids = new Set<string>();
  for (const row of p.components) {
    assert.equal(row.type, 1);
    assert.ok(row.components.length >= 1 && row.components.length <= BUTTONS_PER_ROW);
    for (const b of row.components) {
      if (b.type === 3) {
        assert.equal(row.components.length, 1, 'a select menu has its row to itself');
        assert.ok(b.options.length >= 1 && b.options.length <= 25 && b.placeholder.length <= 150);
        for (const o of b.options) assert.ok(o.label.length <= 100 && o.value.length <= 100);
        continue;
      }
      assert.ok(b.label.length >= 1 && b.label.length <= BUTTON_LABEL_MAX, 'label length');
      if (b.style === 5) assert.match(b.url, /^https?:\/\//);
      else {
        assert.ok(b.custom_id.length <= CUSTOM_ID_MAX);
        assert.ok(!ids.has(b.custom_id), 'duplicate custom_id');
        ids.add(b.custom_id);
      }
    }
  }
  assert.deepEqual(p.allowed_mentions, { parse: [] });
}
