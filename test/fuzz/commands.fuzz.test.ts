/**
 * Property-based fuzzing of every command's text parser, through the real core
 * and all three renderers: whatever a user types, the bot answers with a view,
 * never throws, and every rendering fits its platform and escapes what it must.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { harness, caller, type Harness } from '../commands/harness.ts';
import { toDiscordPayload } from '../../src/views/render/discord.ts';
import { toTelegramHtml, TEXT_MAX } from '../../src/views/render/telegram.ts';
import { toPlainText } from '../../src/views/render/plain.ts';
import type { View } from '../../src/domain/view.ts';

let h: Harness;
before(async () => {
  h = await harness({ budgetMs: 2_000 });
});
after(() => h.close());

const HOSTILE = [
  '<b>',
  '</a>',
  '&amp;',
  '@everyone',
  '<@123>',
  '**x**',
  '`',
  '"',
  "'",
  '\u202e',
  '🐸',
  '👨‍👩‍👧',
  'sol',
  'solana',
  '0x',
  '::',
  'limit:',
  'sort:',
  ':',
  '=',
  '-1',
  '1e309',
  'NaN',
  '99999999999999999999',
  '\u0000',
  '\n',
];

/** Text Telegram would show: tags removed, entities decoded. */
function visible(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

function checkRendered(view: View): void {
  const tg = toTelegramHtml(view);
  assert.ok(visible(tg.text).length <= TEXT_MAX, 'telegram text within 4096');
  assert.doesNotMatch(
    tg.text.replace(/<\/?(b|i|u|s|code|pre|blockquote|a)(\s+href="[^"<>]*")?>/g, ''),
    /[<>]/,
    'no stray tags in telegram html',
  );
  for (const row of tg.reply_markup?.inline_keyboard ?? [])
    for (const b of row) if ('callback_data' in b) assert.ok(Buffer.byteLength(String(b.callback_data)) <= 64);
  const dc = toDiscordPayload(view);
  assert.deepEqual(dc.allowed_mentions, { parse: [] });
  const total = dc.embeds.reduce(
    (n, e) =>
      n +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.fields ?? []).reduce((m, f) => m + f.name.length + f.value.length, 0),
    0,
  );
  assert.ok(total <= 6000, 'discord embeds within 6000');
  for (const e of dc.embeds) assert.doesNotMatch(JSON.stringify(e), /@(everyone|here)/, 'no mass mention survives');
  const plain = toPlainText(view, { colour: false }).text;
  assert.doesNotMatch(plain, /\u001b/, 'no escape sequences in plain output');
}

test('every command answers any typed text with a view that renders within limits', async () => {
  const names = [...h.dispatcher.commands.keys()];
  const word = fc.oneof(
    fc.constantFrom(...HOSTILE),
    fc.string({ maxLength: 12 }),
    fc.stringMatching(/^[a-z_]{1,8}:[\w.,@-]{0,12}$/),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...names), fc.array(word, { maxLength: 5 }), async (name, words) => {
      const view = await h.dispatcher.text(`/${name} ${words.join(' ')}`, caller);
      assert.ok(view, 'a command line is always answered');
      checkRendered(view);
    }),
    { numRuns: 400 },
  );
});

test('arbitrary lines never crash the parser: commands are answered, chatter is ignored', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 80 }), async (line) => {
      const view = await h.dispatcher.text(line, caller);
      if (view) checkRendered(view);
      else assert.ok(!/^\s*\/[A-Za-z0-9_]{1,32}(@\w+)?(\s|$)/.test(line), 'only non-commands go unanswered');
    }),
    { numRuns: 500 },
  );
});
