import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CardView, TableView, View } from '../../../src/domain/view.ts';
import { clean } from '../../../src/views/text.ts';
import {
  COLOURS,
  CONTENT_MAX,
  EMBED_DESCRIPTION_MAX,
  toDiscordJsOptions,
  toDiscordPayload,
} from '../../../src/views/render/discord.ts';
import { anyView, assertCleanText, assertDiscordLimits, assertNoPing, hostile, TWEET_5000 } from './helpers.ts';

/**
 * Reads Discord markdown produced from plain text back to what a reader sees,
 * failing on any markup character that is not escaped (outside bare URLs).
 */
function readEscaped(md: string): string {
  const urls = [...md.matchAll(/https?:\/\/\S+/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const inUrl = (i: number): boolean => urls.some(([a, b]) => i >= a && i < b);
  let out = '';
  for (let i = 0; i < md.length; i++) {
    const c = md[i]!;
    if (c === '\\') {
      const next = md[i + 1] ?? '';
      assert.match(next, /[!-/:-@[-`{-~]/, `backslash before ${JSON.stringify(next)}`);
      out += next;
      i++;
    } else {
      if ('*~`|[]<>'.includes(c) || (c === '_' && !inUrl(i))) assert.fail(`unescaped ${c} in ${JSON.stringify(md)}`);
      out += c;
    }
  }
  assert.doesNotMatch(md, /^\s*([-+#>]|\d+\.)/m, `line-start markup in ${JSON.stringify(md)}`);
  return out.replace(/\u200b/g, '');
}

const card = (over: Partial<CardView> = {}): CardView => ({ kind: 'card', title: 'Token', ...over });

test('plain text cannot format, link or ping: it reads back as the cleaned input', () => {
  fc.assert(
    fc.property(hostile(20), (s) => {
      const p = toDiscordPayload({ kind: 'text', text: s });
      const content = p.content ?? '';
      if (clean(s).length > 1000) return; // cut texts are checked elsewhere
      assert.equal(readEscaped(content), clean(s).replace(/\u200b/g, ''), JSON.stringify(s));
      assertNoPing(p);
    }),
    { numRuns: 400 },
  );
});

test('every payload fits every Discord limit, pings no one and carries clean text', () => {
  fc.assert(
    fc.property(anyView, fc.boolean(), (view, ephemeral) => {
      const p = toDiscordPayload(view, { ephemeral });
      assertDiscordLimits(p);
      assertNoPing(p);
      assertCleanText({ ...p, files: undefined });
    }),
    { numRuns: 150 },
  );
});

test('hostile card: markdown, mentions and RTL overrides are neutralised', () => {
  const p = toDiscordPayload(
    card({
      title: '**PEPE** @everyone',
      description: ['gm <@123> <@&9> <#7> @here ', { b: '**x**' }, ' ', { code: 'a `b` c' }, ' \u202Egnp.exe'],
      fields: [{ name: '`Price`', value: '~~$1~~ ||spoiler||' }],
      footer: 'by <@!42>',
    }),
  );
  const e = p.embeds[0]!;
  assert.equal(e.title, '\\*\\*PEPE\\*\\* @\u200beveryone');
  assert.ok(e.description!.includes('**\\*\\*x\\*\\***'), e.description);
  assert.ok(e.description!.includes('`` a `b` c ``'), 'backticks inside code use a longer delimiter');
  assert.ok(!e.description!.includes('\u202E'));
  assert.equal(e.fields![0]!.value, '\\~\\~$1\\~\\~ \\|\\|spoiler\\|\\|');
  assertNoPing(p);
});

test('spans become markdown; only web links become links', () => {
  const p = toDiscordPayload(
    card({
      description: [
        { b: 'bold ' },
        { i: 'it' },
        ' ',
        { link: 'chart]', url: 'https://dexscreener.com/solana/abc(1)' },
        ' ',
        { link: 'click', url: 'javascript:alert(1)' },
      ],
    }),
  );
  assert.equal(p.embeds[0]!.description, '**bold** *it* [chart\\]](https://dexscreener.com/solana/abc%281%29) click');
});

test('a 5,000-character tweet is cut cleanly within the description limit', () => {
  const p = toDiscordPayload(card({ description: TWEET_5000, fields: [{ name: 'Price', value: '$1.00' }] }));
  const d = p.embeds[0]!.description!;
  assert.ok(d.length <= EMBED_DESCRIPTION_MAX && d.length > 3000, String(d.length));
  assert.ok(d.endsWith('…'));
  assert.ok(d.isWellFormed());
  assert.doesNotMatch(d, /\u200d…$/, 'ZWJ sequence split');
  assert.equal(p.embeds[0]!.fields?.length, 1, 'the field survives');
  assertNoPing(p);
});

test('30 big fields: 25 at most, trimmed from the last so the total stays within 6,000', () => {
  const fields = Array.from({ length: 30 }, (_, i) => ({ name: `Field ${i}`, value: 'v'.repeat(2000) }));
  const p = toDiscordPayload(card({ description: 'd'.repeat(3000), fields, footer: 'f'.repeat(3000) }));
  assertDiscordLimits(p);
  const e = p.embeds[0]!;
  assert.equal(e.fields![0]!.name, 'Field 0', 'first fields are kept');
  assert.ok(e.fields!.length < 25);
  assert.ok((e.description ?? '').length >= 900, 'the description keeps its share');
});

test('200 table rows: whole rows in a closed code block, with a count of the rest', () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    rank: String(i + 1),
    name: `kol_${i} \`x\``,
    score: `${i}.5`,
  }));
  const view: TableView = {
    kind: 'table',
    title: 'Top KOLs',
    columns: [
      { key: 'rank', label: '#', align: 'right' },
      { key: 'name', label: 'Name' },
      { key: 'score', label: 'Score', align: 'right' },
    ],
    rows,
    notes: rows.map((r) => `${r.rank}. https://x.com/${r.name}`),
    footer: 'page 1',
  };
  const p = toDiscordPayload(view);
  assertDiscordLimits(p);
  const d = p.embeds[0]!.description!;
  const [, block = ''] = d.split('```');
  const lines = block.split('\n').filter(Boolean);
  const shown = lines.length - 2;
  assert.ok(shown > 10 && shown < 200, String(shown));
  assert.equal(lines[0], '  #  Name         Score');
  assert.match(lines[2]!, /^ {2}1 {2}kol_0 ˋxˋ +0\.5$/);
  assert.match(lines.at(-1)!, new RegExp(`^ *${shown}  kol_${shown - 1} `), 'the last row shown is whole');
  assert.equal(d.split('```').length, 3, 'code block opened and closed once');
  assert.ok(d.includes(`… ${200 - shown} more rows`));
  const notes = d.split('\n').filter((l) => /^\d+\\\. /.test(l));
  assert.equal(notes.length, shown, 'notes follow their rows');
});

test('buttons: links and actions with ids, rows of 5, at most 5 rows', () => {
  const actions = Array.from({ length: 30 }, (_, i) => ({ label: `A${i}`, command: 'c', options: {}, id: `id${i}` }));
  const p = toDiscordPayload(
    card({
      actions: [
        { label: 'no id yet', command: 'c', options: {} },
        { label: 'x'.repeat(100), command: 'c', options: {}, id: 'long', style: 'danger' },
        ...actions,
      ],
      links: [
        { label: 'X', url: 'https://x.com/a' },
        { label: 'bad', url: 'javascript:alert(1)' },
      ],
    }),
  );
  assertDiscordLimits(p);
  const buttons = p.components.flatMap((r) => r.components);
  assert.equal(buttons.length, 25);
  assert.deepEqual(buttons[0], { type: 2, style: 4, label: `${'x'.repeat(79)}…`, custom_id: 'long' });
  assert.ok(!buttons.some((b) => 'label' in b && b.label === 'no id yet'));
  assert.throws(
    () => toDiscordPayload(card({ actions: [{ label: 'x', command: 'c', options: {}, id: 'i'.repeat(101) }] })),
    /101-character id/,
  );
});

test('errors are ephemeral embeds with the example in inline code, labelled in the words given', () => {
  const p = toDiscordPayload({
    kind: 'error',
    message: 'Unknown chain **x**',
    example: '/token solana So111',
    labels: { example: '예:', error: '오류:' },
  });
  assert.equal(p.flags, 64);
  assert.equal(p.embeds[0]!.description, 'Unknown chain \\*\\*x\\*\\*\n예: `/token solana So111`');
  const bare = toDiscordPayload({ kind: 'error', message: 'Unknown chain', example: '/token solana So111' });
  assert.equal(bare.embeds[0]!.description, 'Unknown chain\n`/token solana So111`', 'no English label of its own');
  assert.equal(p.embeds[0]!.color, COLOURS.error);
  assert.equal(toDiscordPayload(card()).flags, undefined);
  assert.equal(toDiscordPayload(card(), { ephemeral: true }).flags, 64);
});

test('a picture is attached and shown as the embed image; discord.js options map the names', () => {
  const png = new Uint8Array([1, 2, 3]);
  const p = toDiscordPayload(
    card({ picture: { png, name: 'mind map?.png', alt: 'map' }, thumbnailUrl: 'https://cdn/x.png', colour: 'up' }),
  );
  assert.deepEqual(p.files, [{ name: 'mind_map_.png', data: png }]);
  assert.equal(p.embeds[0]!.image?.url, 'attachment://mind_map_.png');
  assert.equal(p.embeds[0]!.color, COLOURS.up);
  const js = toDiscordJsOptions(p);
  assert.deepEqual(js.allowedMentions, { parse: [] });
  assert.deepEqual([...js.files![0]!.attachment], [1, 2, 3]);
  assert.equal(js.files![0]!.name, 'mind_map_.png');
});

test('views are plain data: rendering twice gives the same payload', () => {
  const view: View = card({ description: TWEET_5000, fields: [{ name: 'a', value: [{ b: 'b' }] }] });
  assert.deepEqual(toDiscordPayload(view), toDiscordPayload(view));
});

test('a text longer than a message’s content (every command in Spanish) is whole in an embed’s description', () => {
  const line = (n: number) => [
    { b: `/cmd${n}` },
    ' — una descripción bastante larga de lo que hace este comando\n   ',
    { code: `/cmd${n} x` },
    '\n',
  ];
  const text = Array.from({ length: 30 }, (_, n) => line(n)).flat();
  const p = toDiscordPayload({ kind: 'text', text });
  assert.equal(p.content, undefined);
  assert.equal(p.embeds.length, 1);
  const d = p.embeds[0]!.description!;
  assert.ok(d.length > CONTENT_MAX && d.length <= EMBED_DESCRIPTION_MAX, `${d.length}`);
  assert.match(d, /\*\*\/cmd0\*\*/);
  assert.match(d, /`\/cmd29 x`/, 'the last line is there');
  assertDiscordLimits(p);
  // A short text stays the message's content.
  assert.equal(toDiscordPayload({ kind: 'text', text: ['hola'] }).content, 'hola');
});
