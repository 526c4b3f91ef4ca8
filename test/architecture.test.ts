/**
 * Imports run one way. These rules are read from the source, so a new
 * back-edge fails here instead of waiting for someone to notice it.
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

/** Every relative module a file imports or re-exports (static and dynamic), as a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => relative(root, resolve(root, dirname(file), s)));
}

function edges(dir: string, forbidden: (target: string) => boolean): string[] {
  return sources(dir).flatMap((f) =>
    importsOf(f)
      .filter(forbidden)
      .map((t) => `${f} -> ${t}`),
  );
}

test('the import reader sees what a file imports', () => {
  const seen = importsOf('src/alerts/delivery.ts');
  assert.ok(seen.includes('src/store/subscriptions.ts'), seen.join(', '));
  assert.ok(seen.length >= 4);
});

test('nothing in src/store imports src/alerts', () => {
  assert.deepEqual(
    edges('src/store', (t) => t.startsWith('src/alerts/')),
    [],
  );
});

/** Leaf modules (the root helpers and the list of locales) that every layer may use: they import no project code above the API. */
const FOUNDATION = new Set(['src/log.ts', 'src/config.ts', 'src/startup.ts', 'src/i18n/locales.ts']);

test('the foundation modules import nothing of the project but the API helpers', () => {
  for (const f of FOUNDATION)
    assert.deepEqual(
      importsOf(f).filter((t) => !t.startsWith('src/api/')),
      [],
      f,
    );
});

test('the store sits below everything but the API types: it imports no views, core, commands or adapters', () => {
  assert.deepEqual(
    edges('src/store', (t) => !t.startsWith('src/store/') && !t.startsWith('src/api/') && !FOUNDATION.has(t)),
    [],
  );
});

test('nothing in src/alerts imports the dispatcher', () => {
  assert.deepEqual(
    edges('src/alerts', (t) => t === 'src/core/dispatch.ts'),
    [],
  );
});

test('the core imports no command, adapter or alert code', () => {
  assert.deepEqual(
    edges('src/core', (t) => t.startsWith('commands/') || t.startsWith('src/adapters/') || t.startsWith('src/alerts/')),
    [],
  );
});

test('subscriptions change only through src/alerts/subscriptions.ts', () => {
  const writers = [...sources('src'), ...sources('commands')]
    .filter((f) => f !== 'src/alerts/subscriptions.ts' && !f.startsWith('src/store/'))
    .filter((f) => /\bsub(?:scription)?s\.(?:put|delete)\(/.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(writers, []);
});
