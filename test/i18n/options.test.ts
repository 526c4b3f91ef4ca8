// `/help <command>` in another language describes every option in that language, not the command's English.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import type { OptionSpec } from '../../src/core/options.ts';
import kols from '../../commands/kols.ts';
import token from '../../commands/token.ts';
import { asCard, harness, plain } from '../commands/harness.ts';
import { englishIn } from '../helpers/english.ts';
import { CATALOGUES } from '../../src/i18n/index.ts';

const h = await harness();
after(() => h.close());

const COMMANDS = [token, kols];

/** Each option a user sets, with its English from the catalogue (the registry hands it out from there). */
const englishOf = (c: (typeof COMMANDS)[number]): [string, string][] =>
  Object.entries(c.options as Record<string, { spec: OptionSpec }>)
    .filter(([, o]) => !o.spec.internal)
    .map(([name]) => [name, (CATALOGUES.en.options as Record<string, Record<string, string>>)[c.name]![name]!]);

const caller = (locale: Caller['locale']): Caller => ({
  platform: 'telegram',
  userId: `opts-${locale}`,
  chatId: `opts-${locale}`,
  chatType: 'private',
  locale,
  canManage: async () => false,
});

/** The help card's text for each option, by option name. */
async function optionTexts(command: string, locale: Caller['locale']): Promise<Map<string, string>> {
  const card = asCard((await h.dispatcher.text(`/help ${command}`, caller(locale)))!);
  return new Map((card.fields ?? []).map((f) => [plain(f.name).split(' ')[0]!, plain(f.value)]));
}

test('an English caller reads the English option descriptions (the check below can fail)', async () => {
  for (const c of COMMANDS) {
    const texts = await optionTexts(c.name, 'en');
    for (const [name, english] of englishOf(c)) assert.ok(texts.get(name)?.includes(english), `/${c.name} ${name}`);
  }
});

test('/help token and /help kols show no English option description to a Russian or Chinese caller', async () => {
  for (const locale of ['ru', 'zh'] as const) {
    for (const c of COMMANDS) {
      const view = (await h.dispatcher.text(`/help ${c.name}`, caller(locale)))!;
      assert.deepEqual(englishIn(view), [], `${locale} /help ${c.name}`);
      const texts = await optionTexts(c.name, locale);
      for (const [name, english] of englishOf(c)) {
        const text = texts.get(name);
        assert.ok(text, `${locale} /help ${c.name}: ${name} is listed`);
        assert.ok(!text.includes(english), `${locale} /help ${c.name} ${name}: “${text}”`);
      }
    }
  }
});
