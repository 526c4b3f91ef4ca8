/**
 * The README is a front page and the rest lives in docs/: a reader follows links
 * between them, so every relative link and image must land on a file that exists
 * and, where it names a section, on a heading of that file (GitHub's anchors).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Text outside fenced code blocks and code spans, where a `](` is not a link. */
const prose = (md: string): string => md.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(md).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('every relative link and image in the README and docs/ reaches a file, and a section that exists', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const md = readFileSync(join(root, page), 'utf8');
    for (const [, target] of prose(md).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? join(root, page) : resolve(root, dirname(page), path);
      if (!existsSync(file)) {
        broken.push(`${page}: ${target} (no file ${relative(root, file)})`);
        continue;
      }
      if (anchor !== undefined && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${page}: ${target} (no such section in ${relative(root, file)})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('the README stays a front page: at most 250 lines, linking every page in docs/', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  assert.ok(readme.trimEnd().split('\n').length <= 250, 'README.md over 250 lines: move the detail into docs/');
  const unlinked = pages.filter((p) => p !== 'README.md' && !readme.includes(`](${p})`));
  assert.deepEqual(unlinked, []);
});
