import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { argsFor, splitCommand, validate } from '../../src/core/parse.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { asCard, asError, asText, caller, field, harness, plain } from './harness.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

const h = await harness();
after(() => h.close());

test('/help lists every command with an example', async () => {
  const text = plain(asText(await h.send('/help')).text);
  for (const c of h.dispatcher.commands.values()) {
    assert.ok(text.includes(`/${c.name} — ${c.description}`), `/${c.name} missing`);
    assert.ok(text.includes(c.examples[0]), `example of /${c.name} missing`);
  }
  const start = plain(asText(await h.send('/start')).text);
  assert.match(start, /^Hi, I am kolradar\./);
  assert.ok(start.includes('/kols — '));
});

test('/help <command> shows each option with its type, choices, bounds and default', async () => {
  const card = asCard(await h.send('/help kols'));
  assert.equal(card.title, '/kols');
  assert.ok(plain(card.description).includes('/kols [search] [key:value …]'));
  assert.match(field(card, 'limit'), /whole number|integer/);
  assert.match(field(card, 'limit'), /1-25 · default 10/);
  assert.match(field(card, 'sort'), /one of: score, winrate, followers/);
  assert.match(field(card, 'last24h'), /yes\/no/);
  const token = asCard(await h.send('/help /token'));
  assert.ok(token.fields!.some((f) => f.name === 'address (required) · by position'));
  const typo = asError(await h.send('/help tken'));
  assert.equal(typo.message, 'There is no /tken. Did you mean /token?');
  assert.equal(typo.example, '/help token');
});

test('every example of every command is valid input', () => {
  for (const c of h.dispatcher.commands.values()) {
    for (const example of c.examples) {
      const parsed = splitCommand(example);
      assert.equal(parsed?.name, c.name, example);
      assert.doesNotThrow(() => validate(c, argsFor(c, parsed!.args)), `/${c.name}: ${example}`);
    }
  }
});

test('adding a command is adding one file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-cmd-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const options = new URL('../../src/core/options.ts', import.meta.url).href;
  await writeFile(
    join(dir, 'echo.ts'),
    `import { opt } from '${options}';
const options = { words: opt.string({ description: 'What to say', required: true, positional: true }) };
export default { name: 'echo', description: 'Says it back', options, examples: ['/echo hi'],
  async run({ words }) { return { kind: 'text', text: 'echo: ' + words }; } };
`,
  );
  await writeFile(join(dir, '_shared.ts'), 'export const notACommand = true;\n');
  const commands = await loadCommands(dir);
  assert.deepEqual([...commands.keys()], ['echo']);
  const d = createDispatcher({ charts: sharedChartPool(), commands, api: h.api, store: h.store, log: silentLogger() });
  const view = await d.text('/echo "hello there"', caller);
  assert.equal(view?.kind === 'text' ? view.text : undefined, 'echo: hello there');
});
