/**
 * Imports run one way. These rules are read from the source, so a new
 * back-edge fails here instead of waiting for someone to notice it.
 *
 * The order, from the floor up (a module imports its own layer and the ones
 * below, never one above):
 *
 *   domain < api < config < store < core < views < pictures < alerts < commands < adapters (and web) < app < bot < main
 *
 * Leaves sit beside the order: any layer may import them, and they import
 * nothing of the project but themselves: i18n (catalogue and formats), log,
 * ops (metrics and the operator's HTTP server) and sandbox (the stand-in
 * upstream, a program of its own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** The relative modules a text imports or re-exports (static, type-only and dynamic). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\bdeclare\s+module\s*)['"](\.[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );
}

/** Every relative module a file imports, as a path from the repository root. */
function importsOf(file: string): string[] {
  return specifiers(readFileSync(join(root, file), 'utf8')).map((s) => relative(root, resolve(root, dirname(file), s)));
}

/** The layers in order, each as the path prefixes it owns. */
const ORDER: readonly (readonly [string, readonly string[]])[] = [
  ['domain', ['src/domain/']],
  ['api', ['src/api/']],
  ['config', ['src/config.ts', 'src/config/', 'src/startup.ts']],
  ['store', ['src/store/']],
  ['core', ['src/core/']],
  ['views', ['src/views/']],
  ['pictures', ['src/pictures/']],
  ['alerts', ['src/alerts/']],
  ['commands', ['commands/']],
  ['adapters', ['src/adapters/', 'src/web/']],
  ['app', ['src/app.ts', 'src/app/']],
  ['bot', ['src/bot.ts']],
  ['main', ['src/main.ts']],
];
const LEAVES: readonly (readonly [string, readonly string[]])[] = [
  ['i18n', ['src/i18n/']],
  ['log', ['src/log.ts']],
  ['ops', ['src/ops/']],
  ['sandbox', ['src/sandbox/']],
];

const owner = (file: string, layers: typeof ORDER) => layers.find(([, ps]) => ps.some((p) => file.startsWith(p)));
const rank = (file: string): number => {
  const l = owner(file, ORDER);
  return l ? ORDER.indexOf(l) : -1;
};
const leaf = (file: string): string | undefined => owner(file, LEAVES)?.[0];

const code = [...sources('src'), ...sources('commands')];

test('the import reader sees static, type-only, multi-line, re-exported, dynamic and merged imports', () => {
  const text = [
    "import { a } from './a.ts';",
    "import type { B } from '../b.ts';",
    'import {\n  c,\n  d,\n} from "./c.ts";',
    "export { e } from './e.ts';",
    "const f = await import('./f.ts');",
    "declare module '../g.ts' {}",
    "import { readFileSync } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(specifiers(text), ['./a.ts', '../b.ts', './c.ts', './e.ts', './f.ts', '../g.ts']);
});

test('every source file belongs to exactly one layer or leaf, so a new folder cannot slip past the order', () => {
  assert.ok(code.length > 100, `only ${code.length} files read`);
  const unplaced = code.filter((f) => rank(f) >= 0 === (leaf(f) !== undefined));
  assert.deepEqual(unplaced, []);
});

test('every layer imports only its own layer, the layers below and the leaves', () => {
  const up = code.flatMap((f) => {
    const r = rank(f);
    if (r < 0) return [];
    return importsOf(f)
      .filter((t) => leaf(t) === undefined && rank(t) > r)
      .map((t) => `${f} (${ORDER[r]![0]}) -> ${t} (${ORDER[rank(t)]?.[0] ?? 'outside'})`);
  });
  assert.deepEqual(up, []);
});

test('the leaves (i18n, log, ops, sandbox) import nothing of the project but themselves', () => {
  const out = code.flatMap((f) => {
    const l = leaf(f);
    if (!l) return [];
    return importsOf(f)
      .filter((t) => leaf(t) !== l)
      .map((t) => `${f} -> ${t}`);
  });
  assert.deepEqual(out, []);
});

test('the rules read real edges: every layer above the floor imports it', () => {
  const importers = new Set(
    code.filter((f) => importsOf(f).some((t) => t.startsWith('src/domain/'))).map((f) => ORDER[rank(f)]?.[0]),
  );
  for (const layer of ['api', 'store', 'core', 'views', 'pictures', 'alerts', 'commands', 'adapters'])
    assert.ok(importers.has(layer), layer);
});

/** Files outside a concept's home (and the store that keeps it) that call one of its writes. */
function writersOf(writes: RegExp, home: readonly string[]): string[] {
  return code
    .filter((f) => !home.includes(f) && !f.startsWith('src/store/'))
    .filter((f) => writes.test(readFileSync(join(root, f), 'utf8')));
}

test('the outbox is written by the alerts layer only (commands queue through it)', () => {
  const writers = code
    .filter((f) => !f.startsWith('src/alerts/') && !f.startsWith('src/store/'))
    .filter((f) => /\boutbox\.(?:enqueue|update|compact|recover)\(/.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(writers, []);
});

test('the test-alert mark is written and read in src/alerts/testAlert.ts only', () => {
  const others = code
    .filter((f) => f !== 'src/alerts/testAlert.ts')
    .filter((f) => /['`]test-/.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(others, []);
});

test('subscriptions change only through src/alerts/subscriptions.ts', () => {
  assert.deepEqual(writersOf(/\bsub(?:scription)?s\.(?:put|delete)\(/, ['src/alerts/subscriptions.ts']), []);
});

test('the layout page (docs/architecture.md) draws the order and the leaves this test enforces', () => {
  const readme = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const drawn = readme.match(/^(main > [a-z >]+)$/m)?.[1]?.split(' > ');
  assert.deepEqual(drawn, ORDER.map(([name]) => name).reverse(), 'the layer line under "Layout"');
  const leaves = readme.match(/^\s+leaves: ([a-z0-9, ]+)$/m)?.[1]?.split(', ');
  assert.deepEqual(
    leaves,
    LEAVES.map(([name]) => name),
  );
});

test('files stay small: none in src or commands over 400 lines (the catalogues excepted: one language each)', () => {
  const long = code
    .filter((f) => !f.startsWith('src/i18n/locales/'))
    .map((f) => [f, readFileSync(join(root, f), 'utf8').trimEnd().split('\n').length] as const)
    .filter(([, lines]) => lines > 400)
    .map(([f, lines]) => `${f}: ${lines} lines`);
  assert.deepEqual(long, []);
});
