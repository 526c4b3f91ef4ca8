import { after, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { argsFor, splitCommand, validate } from '../../src/core/parse.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { CATALOGUES, translator } from '../../src/i18n/index.ts';
import { helpFor } from '../../src/views/cards/help.ts';
import { silentLogger } from '../../src/log.ts';
import { asCard, asError, asText, caller, field, harness, plain } from './harness.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

const h = await harness();
after(() => h.close());

test('/help lists every command with an example', async () => {
  const text = plain(asText(await h.send('/help')).text);
  for (const c of h.dispatcher.commands.values()) {
    const english = (CATALOGUES.en.commands as Record<string, string>)[c.name];
    assert.ok(text.includes(`/${c.name} — ${english}`), `/${c.name} missing, or not with the catalogue's line`);
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
  assert.match(
    field(card, 'last24h'),
    /^Only KOLs who mentioned a token in the last 24 hours · /,
    "the catalogue's English",
  );
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

/** Writes commands/echo.ts into a fresh folder, `extra` inside its default export. */
async function echoDir(t: TestContext, extra = ''): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-cmd-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const options = new URL('../../src/core/options.ts', import.meta.url).href;
  await writeFile(
    join(dir, 'echo.ts'),
    `import { opt } from '${options}';
const options = { words: opt.string({ required: true, positional: true }), page: opt.integer({ internal: true }) };
export default { name: 'echo', ${extra}options, examples: ['/echo hi'],
  async run({ words }) { return { kind: 'text', text: 'echo: ' + words }; } };
`,
  );
  await writeFile(join(dir, '_shared.ts'), 'export const notACommand = true;\n');
  return dir;
}

const ECHO_TEXTS = { commands: { echo: 'Says it back' }, options: { echo: { words: 'What to say' } } };

test('adding a command is adding one file and its lines in the catalogue', async (t) => {
  const commands = await loadCommands(await echoDir(t), ECHO_TEXTS);
  assert.deepEqual([...commands.keys()], ['echo']);
  const echo = commands.get('echo')!;
  assert.equal(echo.description, 'Says it back');
  assert.deepEqual(echo.optionTexts, { words: 'What to say' }, 'an internal option needs no words');
  const d = createDispatcher({ charts: sharedChartPool(), commands, api: h.api, store: h.store, log: silentLogger() });
  const view = await d.text('/echo "hello there"', caller);
  assert.equal(view?.kind === 'text' ? view.text : undefined, 'echo: hello there');
  const help = helpFor(echo, translator('en'));
  assert.ok(plain(help.description).startsWith('Says it back\n'));
  assert.match(field(help, 'words (required) · by position'), /^What to say · /);
});

test('a command or an option without its line in the catalogue, or with one too long, fails at load by name', async (t) => {
  const dir = await echoDir(t);
  await assert.rejects(
    loadCommands(dir, { commands: {}, options: ECHO_TEXTS.options }),
    /^Error: \/echo: commands\.echo in the catalogue must be 1-100 characters$/,
  );
  await assert.rejects(
    loadCommands(dir, { commands: ECHO_TEXTS.commands, options: {} }),
    /^Error: \/echo: options\.echo\.words in the catalogue must be 1-100 characters$/,
  );
  await assert.rejects(
    loadCommands(dir, { ...ECHO_TEXTS, commands: { echo: 'x'.repeat(101) } }),
    /commands\.echo in the catalogue must be 1-100 characters/,
  );
  // The real commands' words are the catalogue's: one the catalogue lacks does not load.
  await assert.rejects(loadCommands(dir), /^Error: \/echo: commands\.echo in the catalogue/);
});

test('a command file that still carries its own English description fails at load', async (t) => {
  const dir = await echoDir(t, "description: 'Says it back', ");
  await assert.rejects(loadCommands(dir, ECHO_TEXTS), /commands\/echo\.ts: its description belongs in the catalogue/);
});
