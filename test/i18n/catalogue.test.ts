import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCommands } from '../../src/core/registry.ts';
import type { OptionSpec } from '../../src/core/options.ts';
import { DEFAULT_FILTERS } from '../../src/alerts/filters.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { PLURAL_SUFFIX } from '../../src/i18n/catalogue.ts';
import { CATALOGUES, LOCALES, translator, type Locale } from '../../src/i18n/index.ts';
import { catalogueTexts } from '../helpers/catalogue.ts';

/** Base key -> { plural form or '' -> text }. */
function grouped(locale: Locale): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, text] of catalogueTexts(locale)) {
    const m = PLURAL_SUFFIX.exec(key);
    const base = m ? key.slice(0, m.index) : key;
    if (!out.has(base)) out.set(base, new Map());
    out.get(base)!.set(m ? m[1]! : '', text);
  }
  return out;
}

const placeholders = (s: string): string[] =>
  [...new Set([...s.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!))].sort();

const english = grouped('en');

test('every language has exactly the English keys', () => {
  assert.ok(english.size > 40, `only ${english.size} keys read from the English source`);
  for (const locale of LOCALES) {
    assert.deepEqual([...grouped(locale).keys()].sort(), [...english.keys()].sort(), locale);
  }
});

test('every language has the plural forms its grammar needs, and no others', () => {
  for (const locale of LOCALES) {
    const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.slice().sort();
    for (const [key, forms] of grouped(locale)) {
      const isPlural = english.get(key)!.has('other');
      if (!isPlural) {
        assert.deepEqual([...forms.keys()], [''], `${locale} ${key}: English has no plural forms here`);
        continue;
      }
      assert.deepEqual([...forms.keys()].sort(), needed, `${locale} ${key}`);
    }
  }
});

test('every text keeps the English placeholders, and no text is empty', () => {
  for (const locale of LOCALES) {
    for (const [key, forms] of grouped(locale)) {
      const wanted = placeholders([...english.get(key)!.values()].join(' ')).filter((p) => p !== 'count');
      for (const [form, text] of forms) {
        assert.ok(text.trim().length > 0, `${locale} ${key} ${form} is empty`);
        // `count` may be written out in a form ("one" = 1 in some languages); every other value must appear.
        assert.deepEqual(
          placeholders(text).filter((p) => p !== 'count'),
          wanted,
          `${locale} ${key}${form ? `_${form}` : ''}: ${text}`,
        );
      }
    }
  }
});

// Texts identical to English are allowed only where the words are the same in that language:
// crypto words those communities write in English (score, token, chain, smart followers, explorer).
const SAME_AS_ENGLISH: Readonly<Record<string, readonly Locale[]>> = {
  'help.range': LOCALES,
  'columns.kolSort.rug': ['zh', 'es', 'pt-BR', 'tr', 'vi'],
  'kolCard.smartFollowers': ['es', 'pt-BR'],
  'kolCard.tokens': ['es', 'pt-BR'],
  'kolCard.score': ['es', 'pt-BR'],
  'kolCard.scoreV2': ['es', 'pt-BR'],
  'kolCard.tokensButton': ['es', 'pt-BR'],
  'tokenCard.smartFollowers': ['es', 'pt-BR'],
  'tokenCard.scores': ['es', 'pt-BR'],
  'columns.token': ['es', 'pt-BR', 'tr', 'vi'],
  'columns.chain': ['es', 'pt-BR', 'vi'],
  'columns.rank': ['es', 'pt-BR'],
  'columns.score': ['es', 'pt-BR'],
  'columns.winPct': ['es', 'pt-BR'],
  'columns.smartF': ['es', 'pt-BR', 'vi'],
  'columns.kolSort.impressions': ['es', 'pt-BR'],
  'columns.kolSort.total': ['es', 'pt-BR'],
  'columns.kolSort.legality': ['es', 'pt-BR'],
  'columns.kolSort.engagement': ['es'],
  'columns.tokenList.liquidity': ['es', 'pt-BR'],
  'columns.tokenList.impressions': ['es', 'pt-BR'],
  'columns.tokenList.followers': ['es', 'pt-BR', 'vi'],
  'columns.tokenList.score': ['es', 'pt-BR'],
  'columns.tokenList.totalscore': ['es', 'pt-BR'],
  'lists.tokens': ['es', 'pt-BR'],
  'lists.winRate': ['es', 'pt-BR'],
  'mindmap.tokenId': ['es', 'pt-BR', 'tr', 'vi'],
  'lookup.inlineScore': ['es', 'pt-BR'],
  'lookup.inlineKolLine': ['es', 'pt-BR'],
  'filters.chains': ['es', 'pt-BR'],
  'filters.kols': ['es', 'pt-BR'],
  'checks.chain': ['es', 'pt-BR', 'vi'],
  'alert.kols': ['es', 'pt-BR'],
  'alert.tweet': ['es', 'pt-BR', 'tr', 'vi'],
  'chart.token': ['es', 'pt-BR', 'tr', 'vi'],
  'chart.shill': ['es', 'pt-BR', 'tr', 'vi'],
  'lookup.fullCard': ['pt-BR'],
  'tokenCard.explorer': ['tr', 'vi'],
  'compact.explorer': ['tr', 'vi'],
  'alert.explorer': ['tr', 'vi'],
  'alert.test': ['tr'],
  // Call tracking: "KOL", "Token" and "call(s)" are the words crypto communities use in these languages too.
  'calls.colKol': LOCALES,
  'calls.colToken': LOCALES,
  'calls.colCalls': LOCALES,
  'board.colCalls': ['es', 'pt-BR'],
  'board.colToken': LOCALES,
  'calls.count': LOCALES,
  // Labels in Discord's choice picker: AUC is an abbreviation everywhere; "win rate" and "ranking" are what the
  // Spanish and Portuguese crypto communities write (as in kolCard and lists above).
  'choices.auc': LOCALES,
  'choices.auc_v2': LOCALES,
  'choices.winrate': ['es', 'pt-BR'],
  'choices.ranking': ['es', 'pt-BR'],
  // The panel's KOL button, tweet kinds and "Auto": the words these communities use too.
  'settings.button.kols': LOCALES,
  'settings.type.tweet': ['pt-BR', 'vi'],
  'settings.type.retweet': ['pt-BR', 'vi'],
  'settings.button.languageAuto': ['es', 'pt-BR'],
  // The community page's title is its name and the bot's; "KOL" and "Token" as under calls above.
  'web.title': LOCALES,
  'web.colKol': LOCALES,
  'web.colToken': LOCALES,
  // "Error" is the Spanish word too.
  'errors.errorLabel': ['es'],
};

test('no English text is left in another language', () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    for (const [key, forms] of grouped(locale)) {
      if (SAME_AS_ENGLISH[key]?.includes(locale)) continue;
      const en = [...english.get(key)!.values()];
      for (const text of forms.values()) assert.ok(!en.includes(text), `${locale} ${key} is still English: ${text}`);
    }
  }
});

test('the plural a reader sees follows their language: ru 1 / 3 / 5 / 21 commands', () => {
  const t = translator('ru');
  assert.deepEqual(
    [1, 3, 5, 21].map((count) => t('help.commands', { count })),
    ['1 команда.', '3 команды.', '5 команд.', '21 команда.'],
  );
  assert.equal(translator('en')('help.commands', { count: 1 }), '1 command.');
  assert.equal(translator('zh')('help.commands', { count: 5 }), '共 5 个命令。');
});

test('every command has a description in every language, within Discord and Telegram limits', async () => {
  const commands = await loadCommands();
  for (const locale of LOCALES) {
    const descriptions = CATALOGUES[locale].commands as Readonly<Record<string, string>>;
    assert.deepEqual(
      Object.keys(descriptions).sort(),
      [...commands.keys()].sort(),
      `${locale}: one description per loaded command`,
    );
    for (const [name, text] of Object.entries(descriptions))
      assert.ok(text.length >= 1 && text.length <= 100, `${locale} /${name}: ${text.length} characters`);
    assert.ok(CATALOGUES[locale].bot.description.length <= 512, `${locale} bot description`);
    assert.ok(CATALOGUES[locale].bot.shortDescription.length <= 120, `${locale} bot short description`);
  }
  // The registry hands out the catalogue's line: there is no other English to drift from.
  for (const c of commands.values())
    assert.equal(c.description, (CATALOGUES.en.commands as Record<string, string>)[c.name], `/${c.name}`);
});

test('option descriptions in the catalogue belong to real options a user sets, and fit Discord', async () => {
  const commands = await loadCommands();
  const en = CATALOGUES.en.options as Readonly<Record<string, Readonly<Record<string, string>>>>;
  for (const [command, options] of Object.entries(en)) {
    const c = commands.get(command);
    assert.ok(c, `/${command} exists`);
    for (const option of Object.keys(options)) {
      const spec = (c.options as Record<string, { spec: OptionSpec }>)[option]?.spec;
      assert.ok(spec && !spec.internal, `/${command} ${option}: an option a user sets`);
    }
    // The registry hands out exactly these lines (it refuses to start without one for each option a user sets).
    assert.deepEqual(c.optionTexts, options, `/${command}`);
  }
  for (const locale of LOCALES) {
    for (const options of Object.values(
      CATALOGUES[locale].options as Readonly<Record<string, Readonly<Record<string, string>>>>,
    )) {
      for (const text of Object.values(options))
        assert.ok(text.length >= 1 && text.length <= 100, `${locale}: ${text}`);
    }
  }
});

test('values are inserted as they are: no HTML escaping, no nested lookups', () => {
  const t = translator('es');
  assert.equal(t('help.noSuch', { name: '<b>x</b>&$t(help.more)' }), 'No existe /<b>x</b>&$t(help.more).');
});

test("the catalogue's option lines name the defaults and bounds the code uses", async () => {
  const commands = await loadCommands();
  let checked = 0;
  for (const c of commands.values()) {
    for (const [name, text] of Object.entries(c.optionTexts)) {
      const spec = (c.options as Record<string, { spec: OptionSpec }>)[name]!.spec;
      const stated = /\(default ([^)]+)\)/.exec(text)?.[1];
      if (stated !== undefined && spec.default !== undefined) {
        assert.equal(stated, String(spec.default), `/${c.name} ${name}: “${text}”`);
        checked++;
      }
      const bounds = /\((-?\d+)-(\d+)\)/.exec(text);
      if (bounds && spec.min !== undefined && spec.max !== undefined) {
        assert.deepEqual([Number(bounds[1]), Number(bounds[2])], [spec.min, spec.max], `/${c.name} ${name}: “${text}”`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 10, `${checked} lines checked`);
  // Alert filters take their defaults from DEFAULT_FILTERS, not from the option.
  const subscribe = CATALOGUES.en.options.subscribe;
  assert.ok(subscribe.chains.endsWith(`: ${CHAINS.join(', ')}`), subscribe.chains);
  assert.ok(subscribe.token_score.endsWith(`(default ${DEFAULT_FILTERS.minTokenScore})`), subscribe.token_score);
  assert.ok(subscribe.kol_score.endsWith(`(default ${DEFAULT_FILTERS.minKolScore})`), subscribe.kol_score);
  assert.ok(subscribe.followers.endsWith(`(default ${DEFAULT_FILTERS.minFollowers})`), subscribe.followers);
  assert.ok(subscribe.cooldown.endsWith(`(default ${DEFAULT_FILTERS.cooldownMinutes})`), subscribe.cooldown);
});
