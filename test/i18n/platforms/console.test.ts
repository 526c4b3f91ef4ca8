// Every command, error and first button in each of the eight languages through the console adapter
// (the terminal `npm start` runs, here in-process on streams): in the language (no English left, not
// the English answer), pictures and numbered buttons where English has them, upstream names intact,
// and the console's own words (a missing button, pictures, alerts) from the catalogue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { consoleSender } from '../../../src/adapters/console/sender.ts';
import { startConsole } from '../../../src/adapters/console/index.ts';
import { createApp, type App } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { translator, type Locale } from '../../../src/i18n/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { englishLeft, OTHER_LOCALES, script, TYPED_ONLY, type Step } from './script.ts';

const NEVER = '0 0 1 1 *';
/** The terminal's language as LANG carries it. */
const LANG: Record<Locale, string> = {
  en: 'en_US.UTF-8',
  zh: 'zh_CN.UTF-8',
  ru: 'ru_RU.UTF-8',
  es: 'es_ES.UTF-8',
  'pt-BR': 'pt_BR.UTF-8',
  tr: 'tr_TR.UTF-8',
  vi: 'vi_VN.UTF-8',
  ko: 'ko_KR.UTF-8',
};

/** Typed lines in one console session; resolves with each answer as it was written. */
async function session(app: App, locale: Locale, lines: string[], pictureDir: string): Promise<string[]> {
  const writes: string[] = [];
  const output = new Writable({
    write(chunk, _enc, done) {
      writes.push(String(chunk));
      done();
    },
  });
  const c = startConsole({
    dispatcher: app.dispatcher,
    input: Readable.from(lines.map((l) => `${l}\n`)),
    output,
    colour: false,
    pictureDir,
    locale: LANG[locale],
    languages: app.store.languages,
  });
  await c.done;
  return writes;
}

/** What the reader takes for words: not the saved pictures' paths. */
const visible = (s: string) => s.replace(/\S+\.png\b/g, ' ');

interface Answer {
  readonly step: Step;
  readonly shown: string;
  readonly picture: boolean;
  readonly buttons: number;
  readonly pressed?: string;
}

async function run(locale: Locale, dir: string): Promise<{ answers: Answer[]; sb: NonNullable<App['sandbox']> }> {
  const app = await createApp(loadConfig({ STORE_URL: 'memory:', WATCH_CRON: NEVER }), silentLogger(), {
    sandboxLiveRate: 0,
    dispatcher: { userLimit: { count: 10_000, windowMs: 1000 }, panelLimit: { count: 10_000, windowMs: 1000 } },
  });
  try {
    const steps: Step[] = [
      ...script(app.sandbox!, app.dispatcher.commands),
      ...TYPED_ONLY.map((line) => ({ line, admin: false })),
    ];
    const answers: Answer[] = [];
    const t = translator(locale);
    const pictureLine = new RegExp(
      `^${t('console.picture', { alt: '.+', path: '\\S+\\.png' }).replace(/[[\]]/g, '\\$&')}$`,
      'm',
    );
    for (const step of steps) {
      if (step.fault) app.sandbox!.setFaults(step.fault);
      let writes: string[];
      try {
        writes = await session(app, locale, [step.line], dir);
      } finally {
        if (step.fault) app.sandbox!.clearFaults();
      }
      const shown = writes.join('');
      const buttons = [...shown.matchAll(/^\[\d+\] | {2}\[\d+\] /gm)].length;
      // The first button, pressed by typing its number after the answer (a command again: a session
      // remembers the buttons of its own last answer only).
      const pressed =
        buttons > 0 && !step.fault ? (await session(app, locale, [step.line, '1'], dir)).slice(1).join('') : undefined;
      answers.push({ step, shown, picture: pictureLine.test(shown), buttons, ...(pressed ? { pressed } : {}) });
    }
    return { answers, sb: app.sandbox! };
  } finally {
    await app.close();
  }
}

test('every command, error and first button in every language, through the console', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-i18n-console-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { answers: english } = await run('en', dir);
  for (const a of english) assert.ok(a.shown.trim().length > 10, `en ${a.step.line} answered`);
  assert.ok(english.filter((a) => a.picture).length >= 10, 'English answers save pictures');
  assert.ok(english.filter((a) => a.pressed).length >= 20, 'many answers have a button to press');
  for (const locale of OTHER_LOCALES) {
    const { answers, sb } = await run(locale, dir);
    assert.equal(answers.length, english.length);
    for (const [i, a] of answers.entries()) {
      const en = english[i]!;
      const what = `${locale} ${a.step.line}`;
      assert.notEqual(a.shown, en.shown, `${what}: not the English answer`);
      assert.deepEqual(englishLeft(visible(a.shown), sb, locale), [], what);
      assert.equal(a.picture, en.picture, `${what}: a picture where English has one`);
      assert.equal(a.buttons, en.buttons, `${what}: the same buttons`);
      for (const name of a.step.intact ?? []) assert.ok(a.shown.includes(name), `${what}: ${name} as written`);
      if (en.pressed) {
        assert.ok(a.pressed, `${what}: its first button answers`);
        assert.deepEqual(englishLeft(visible(a.pressed), sb, locale), [], `${what}: after the press`);
        assert.notEqual(a.pressed, en.pressed, `${what}: the press answers in the language`);
      }
    }
  }
});

test("the console's own words in every language: a missing button, a failure to show, an alert and its update", async (t) => {
  const app = await createApp(loadConfig({ STORE_URL: 'memory:', WATCH_CRON: NEVER }), silentLogger(), {
    sandboxLiveRate: 0,
  });
  t.after(() => app.close());
  const english = (await session(app, 'en', ['42'], tmpdir())).join('');
  assert.equal(english, 'No button 42 on the last reply.\n');
  const view = { kind: 'text', text: 'x' } as const;
  for (const locale of OTHER_LOCALES) {
    const said = (await session(app, locale, ['42'], tmpdir())).join('');
    assert.equal(said, `${translator(locale)('console.noButton', { n: '42' })}\n`);
    assert.notEqual(said, english);
    assert.deepEqual(englishLeft(said, app.sandbox!, locale), [], locale);
    const out: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        out.push(String(chunk));
        done();
      },
    });
    const sender = consoleSender(sink, false, { languages: app.store.languages, locale: LANG[locale] });
    await sender.send('console', view, 'n1');
    await sender.edit!('console', '1', view);
    assert.deepEqual(
      out.map((s) => s.split('\n')[1]),
      [`🔔 ${translator(locale)('console.alert')}`, `🔔 ${translator(locale)('console.alertUpdated', { n: '1' })}`],
    );
  }
  // A picture that cannot be saved is said in the terminal's language, with the reason.
  const failed = (await session(app, 'ru', [`/momentum @${app.sandbox!.data.kols[0]!.username}`], '/dev/null/x')).join(
    '',
  );
  assert.match(failed, /^Не получилось показать ответ: /m);
});
