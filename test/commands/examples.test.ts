// Every example a new user is shown, run as written against the embedded sandbox: each command's
// examples (what /help lists) and the runnable commands in the README and the docs/ pages. None may answer
// with an error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { richText } from '../../src/views/render/common.ts';
import type { View } from '../../src/domain/view.ts';
import { harness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await harness();
});
after(() => h.close());

/** The README and every page under docs/: what a newcomer reads. */
function documentation(): string {
  const docs = new URL('../../docs/', import.meta.url);
  const pages = readdirSync(docs).filter((f) => f.endsWith('.md'));
  return [new URL('../../README.md', import.meta.url), ...pages.map((f) => new URL(f, docs))]
    .map((u) => readFileSync(u, 'utf8'))
    .join('\n');
}

/**
 * The documentation's code spans that are whole commands of this bot with their values (not a bare
 * command name, a `<placeholder>`, `[optional]` or `a|b` form, nor a URL path like /healthz).
 */
function documentedCommands(): string[] {
  const readme = documentation();
  return [...readme.matchAll(/`(\/([a-z]+) [^`]+)`/g)]
    .filter((m) => h.dispatcher.commands.has(m[2]!))
    .map((m) => m[1]!.trim())
    .filter((c) => !/[<>[\]|…]/.test(c) && !c.includes('...'));
}

const said = (v: View): string =>
  v.kind === 'error'
    ? `${v.message} ${v.example ?? ''}`
    : v.kind === 'text'
      ? richText(v.text)
      : `${v.title} ${richText(v.description)}`;

test('every example in /help and the documentation answers against the embedded sandbox, none with an error', async () => {
  const commands = h.dispatcher.commands;
  const examples = (name: string) => commands.get(name)?.examples ?? [];
  // A subscription first (the alert settings act on it); /language with a code and /unsubscribe last.
  const rest = [...commands.keys()].filter((n) => !['subscribe', 'unsubscribe', 'language'].includes(n)).sort();
  const lines = [
    ...examples('subscribe'),
    ...rest.flatMap(examples),
    ...documentedCommands().filter((c) => !/^\/(unsubscribe|language|subscribe)\b/.test(c)),
    ...documentedCommands().filter((c) => /^\/subscribe\b/.test(c)),
    ...examples('language'),
    ...examples('unsubscribe'),
  ];
  assert.ok(lines.length >= 50, `${lines.length} examples`);
  const failed: string[] = [];
  for (const line of new Set(lines)) {
    const view = await h.send(line);
    if (view.kind === 'error') failed.push(`${line} -> ${said(view)}`);
    else if (/not found|^No (token|KOL) /im.test(said(view))) failed.push(`${line} -> ${said(view)}`);
  }
  assert.deepEqual(failed, []);
});
