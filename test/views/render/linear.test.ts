// Every transform of untrusted text runs in linear time. Each is timed on a 64 KB input built
// to make a backtracking regex retry from every position, against its linear baseline: the
// same 64 KB of that input cut into 64 pieces, each transformed on its own. Linear code costs
// about the same both ways (at most 1.6x here); quadratic code costs 64 times more in one piece
// (a `\s*` spanning lines took 390 ms on 16 KB of newlines).
//
// Times are compared, not judged: each side is the fastest of several runs (the minimum is
// what the machine's load cannot inflate), and the allowed ratio is generous.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsFor, splitCommand, tokenize } from '../../../src/core/parse.ts';
import { buildRegistry } from '../../../src/core/registry.ts';
import { scrub } from '../../../src/log.ts';
import { cleanText, drawableText, escapeXml } from '../../../src/views/charts/text.ts';
import { escapeMarkdown, inlineCode, richMarkdown, spanMarkdown } from '../../../src/views/render/discord-md.ts';
import { toDiscordPayload } from '../../../src/views/render/discord.ts';
import { toPlainText } from '../../../src/views/render/plain.ts';
import { layoutTable } from '../../../src/views/render/table.ts';
import { escapeHtml, richHtml, toTelegramHtml } from '../../../src/views/render/telegram.ts';
import { visibleLength } from '../../../src/adapters/telegram/send.ts';
import type { View } from '../../../src/domain/view.ts';
import { clean, cut, neuterMentions, singleLine } from '../../../src/views/text.ts';

const SIZE = 64 * 1024;
/** The linear baseline: the same kind of input in this many pieces, each transformed on its own. */
const PIECES = 64;
/** Generous: linear code scores about 1 here, quadratic code about PIECES (before this fix: 22-42x with 32 pieces). */
const FACTOR = 16;
const RUNS = 3;

/** `unit` repeated to `n` characters, ending with `tail`. */
const fill =
  (unit: string, tail = '') =>
  (n: number) =>
    unit.repeat(Math.ceil(n / unit.length)).slice(0, n - tail.length) + tail;
const lead = (head: string, rest: (n: number) => string) => (n: number) => head + rest(n - head.length);

/** Inputs that make a backtracking pattern retry from each position (runs without the character that would end them). */
const PATHOLOGICAL: Record<string, (n: number) => string> = {
  newlines: fill('\n', 'x'),
  'spaces and newlines': fill(' \n', 'x'),
  'spaces then a letter': lead('a', fill(' ', 'b')),
  'digit lines': fill('1\n'),
  digits: fill('1', 'x'),
  'zeros then one': lead('1.', fill('0', '1')),
  'open angles': fill('<'),
  'markup characters': fill('*_~`|[]'),
  backticks: fill('`'),
  'escape sequence': lead('\u001b[', fill('0')),
  mentions: fill('<@'),
  'at signs': fill('@every'),
  'url-ish': lead('https://', fill('a.')),
  'colons and quotes': fill(":'"),
};

/** Fastest of RUNS (what the machine's load cannot inflate) of running `f` on each input. */
function cost(f: (s: string) => unknown, inputs: readonly string[]): number {
  for (const input of inputs) f(input); // warm-up: compile, and let the JIT settle
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    for (const input of inputs) f(input);
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/** Time on one 64 KB input over time on the same 64 KB cut into PIECES inputs of its kind. */
function growth(f: (s: string) => unknown, make: (n: number) => string): number {
  const whole = make(SIZE);
  const pieces = Array.from({ length: PIECES }, () => make(SIZE / PIECES));
  assert.equal(whole.length, SIZE);
  assert.equal(
    pieces.reduce((n, p) => n + p.length, 0),
    SIZE,
  );
  // Below the timer's resolution both read as zero: treat such a transform as free.
  return Math.max(cost(f, [whole]), 0.05) / Math.max(cost(f, pieces), 0.05);
}

const commands = buildRegistry(
  [
    {
      name: 'echo',
      examples: ['/echo'],
      options: {},
      run: async () => ({ kind: 'text', text: '' }),
    },
  ],
  { commands: { echo: 'Echo' }, options: {} },
);

const view = (text: string): View[] => [
  { kind: 'error', message: text, example: text },
  { kind: 'text', text: [text, { b: text }, { i: text }, { code: text }, { link: text, url: 'https://example.com' }] },
  { kind: 'card', title: text, fields: [{ name: text, value: text }], footer: text },
  // Tables: their cells are the 'table layout' case below (64 KB cells make every renderer slow, linearly).
  { kind: 'table', title: 'T', columns: [{ key: 'a', label: 'A' }], rows: [{ a: 'x' }], notes: [text] },
];

const TRANSFORMS: Record<string, (s: string) => unknown> = {
  clean,
  singleLine,
  neuterMentions,
  // Shorter than the input, so all of it is looked at.
  cut: (s) => cut(s, s.length - 1),
  escapeMarkdown,
  'bold span': (s) => spanMarkdown({ b: s }),
  'italic span': (s) => spanMarkdown({ i: s }),
  'link span': (s) => spanMarkdown({ link: s, url: 'https://example.com' }),
  inlineCode,
  richMarkdown: (s) => richMarkdown([s, { b: s }], 1 << 20),
  'Discord payloads': (s) => view(s).map((v) => toDiscordPayload(v)),
  escapeHtml,
  richHtml: (s) => richHtml([s, { b: s }, { code: s }], 1 << 20),
  'Telegram messages': (s) => view(s).map((v) => toTelegramHtml(v)),
  'Telegram visible length': (s) => visibleLength(escapeHtml(s)),
  'plain text': (s) => view(s).map((v) => toPlainText(v)),
  'table layout': (s) =>
    layoutTable(
      [
        { key: 'a', label: 'A' },
        { key: 'b', label: 'B' },
      ],
      [{ a: s, b: s }],
      { width: 60 },
    ),
  'chart text': (s) => [cleanText(s), drawableText(s), escapeXml(s)],
  'typed command': (s) => {
    const parsed = splitCommand(`/echo ${s}`);
    tokenize(s);
    try {
      argsFor(commands.get('echo')!, parsed?.args ?? []);
    } catch {
      // unknown options are a UserError; only the time matters here
    }
  },
  'log scrubbing': (s) => scrub(s, ['secret-value-123456']),
};

for (const [name, f] of Object.entries(TRANSFORMS)) {
  test(`${name} stays linear on 64 KB pathological inputs`, () => {
    const slow: string[] = [];
    for (const [kind, make] of Object.entries(PATHOLOGICAL)) {
      // Quadratic code is over the factor every time; a loaded machine (a few ms descheduled inside
      // each of the runs) only sometimes: the lowest of up to three measurements is what counts.
      let g = growth(f, make);
      for (let again = 0; again < 2 && g > FACTOR; again++) g = Math.min(g, growth(f, make));
      if (g > FACTOR) slow.push(`${kind}: ${g.toFixed(1)}x`);
    }
    assert.deepEqual(slow, [], `64 KB in one piece costs more than ${FACTOR}x the same in ${PIECES} pieces`);
  });
}
