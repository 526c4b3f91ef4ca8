// Every command, error and first button in each of the eight languages through the real grammY
// bot and the Bot API fake: accepted by the fake (its length, HTML and button checks), in the
// language (no English left, not the English answer), pictures and buttons where English has
// them, upstream names intact. Then an alert in each language, and its first button.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCALES, type Locale } from '../../../src/i18n/index.ts';
import { CAPTION_MAX, TABLE_WIDTH, TEXT_MAX } from '../../../src/views/render/telegram.ts';
import { displayWidth } from '../../../src/views/text.ts';
import type { FakeChat, FakeUser, SentMessage } from '../../fakes/telegram/index.ts';
import { eventually, rig, type Rig } from '../../adapters/telegram/helpers.ts';
import { PATIENCE_MS, untilStalled } from '../../helpers/wait.ts';
import { englishLeft, OTHER_LOCALES, script, TYPED_ONLY, type Step } from './script.ts';

/** A Telegram user's language_code as the apps send it. */
const CODE: Record<Locale, string> = {
  en: 'en',
  zh: 'zh-hans',
  ru: 'ru',
  es: 'es',
  'pt-BR': 'pt-br',
  tr: 'tr',
  vi: 'vi',
  ko: 'ko',
};
const NEVER = '0 0 1 1 *';

type Shown = Pick<SentMessage, 'text' | 'entities' | 'reply_markup'>;

/** What the reader sees: the text without code spans (syntax, not words), and the button labels. */
function visible(m: Shown): string {
  const text = m.text ?? '';
  const cut = (m.entities ?? []).filter((e) => ['code', 'pre'].includes(e.type)).sort((a, b) => b.offset - a.offset);
  let out = text;
  for (const e of cut) out = `${out.slice(0, e.offset)} ${out.slice(e.offset + e.length)}`;
  const labels = (m.reply_markup?.inline_keyboard ?? []).flat().map((b) => b.text);
  return [out, ...labels].join('\n');
}

/** The lines of the monospace blocks (tables): they must fit a phone's width in every language. */
const tableLines = (ms: readonly SentMessage[]): string[] =>
  ms.flatMap((m) =>
    (m.entities ?? [])
      .filter((e) => e.type === 'pre')
      .flatMap((e) => (m.text ?? '').slice(e.offset, e.offset + e.length).split('\n')),
  );

const callbacks = (m: SentMessage) =>
  (m.reply_markup?.inline_keyboard ?? []).flat().filter((b) => b.callback_data !== undefined);

interface Answer {
  readonly step: Step;
  readonly messages: SentMessage[];
  /** What the messages showed before any button was pressed (a press may edit them). */
  shown: string;
  /** What pressing the answer's first button brought: an edit, a new message or a notice. */
  pressed?: string;
}

/**
 * What the bot has done so far: its Bot API calls (long polls aside) and its upstream requests.
 * Steps run side by side and queue for one picture worker, so a step's answer may wait behind
 * others' work, longer on a loaded machine: the waits below fail only when this stops moving.
 */
function progressOf(r: Rig): () => number {
  let seen = 0;
  let calls = 0;
  return () => {
    for (; seen < r.fake.requests.length; seen++) if (r.fake.requests[seen]!.method !== 'getUpdates') calls++;
    return calls + r.sb.requests.length;
  };
}

/** Runs the script for one language; private steps each in a chat of their own, admin steps in one group. */
async function run(r: Rig, locale: Locale, steps: readonly Step[], n: number): Promise<Answer[]> {
  const user: FakeUser = { id: 70_000 + n * 1000, first_name: 'Ada', language_code: CODE[locale] };
  const group: FakeChat = { id: -(70_000 + n * 1000), type: 'group', title: 'Degens' };
  r.fake.setMember(group.id, user.id, 'administrator');
  const answers: Answer[] = [];
  const progress = progressOf(r);
  const ask = async (step: Step, i: number): Promise<void> => {
    const chat: FakeChat = step.admin ? group : { id: user.id + 1 + i, type: 'private' };
    if (step.fault) r.sb.setFaults(step.fault);
    try {
      // A private step has its chat to itself; the group's steps run one after another.
      const before = r.fake.messages(chat.id).length;
      r.fake.sendText({ chat, text: step.line, from: { ...user, id: step.admin ? user.id : chat.id } });
      await untilStalled(
        () => r.fake.messages(chat.id).length > before,
        progress,
        `${locale} ${step.line}: its answer`,
      );
    } finally {
      if (step.fault) r.sb.clearFaults();
    }
    answers[i] = { step, messages: [], shown: '' };
  };
  // The group's steps in order (a subscription first); private ones a few at a time.
  const inGroup = steps.map((s, i) => [s, i] as const).filter(([s]) => s.admin);
  const alone = steps.map((s, i) => [s, i] as const).filter(([s]) => !s.admin && !s.fault);
  const groupRun = (async () => {
    for (const [s, i] of inGroup) await ask(s, i);
  })();
  for (let k = 0; k < alone.length; k += 6) await Promise.all(alone.slice(k, k + 6).map(([s, i]) => ask(s, i)));
  await groupRun;
  for (const [s, i] of steps.map((s, i) => [s, i] as const).filter(([s]) => s.fault)) await ask(s, i);
  // Each step's messages: its own chat's, or the group's in the order the steps ran.
  const groupMessages = r.fake.messages(group.id);
  assert.equal(groupMessages.length, inGroup.length, `${locale}: one answer per group step`);
  for (const [k, [, i]] of inGroup.entries()) answers[i]!.messages.push(groupMessages[k]!);
  steps.forEach((s, i) => {
    if (!s.admin) answers[i]!.messages.push(...r.fake.messages(user.id + 1 + i));
  });
  for (const a of answers) a.shown = a.messages.map(visible).join('\n');
  // The first button of every answer that has one, pressed by the asker.
  for (const a of answers) {
    const m = a.messages.find((x) => callbacks(x).length > 0);
    if (!m) continue;
    const seen = r.fake.messages(m.chat_id).length;
    const edits = m.edits.length;
    const q = r.fake.pressButton({
      chatId: m.chat_id,
      messageId: m.message_id,
      data: callbacks(m)[0]!.callback_data!,
      from: { ...user, id: m.chat_id > 0 ? m.chat_id : user.id },
    });
    a.pressed = await untilStalled(
      () => {
        const now = r.fake.messages(m.chat_id);
        const notice = r.fake.answersFor(q).find((x) => x.text)?.text;
        if (now.length > seen) return now.slice(seen).map(visible).join('\n');
        if (m.edits.length > edits) return visible(m);
        return notice;
      },
      progress,
      `${locale} ${a.step.line}: what its first button does`,
    );
  }
  return answers;
}

test('every command, error and first button in every language, through grammY and the Bot API fake', async (t) => {
  const r = await rig(t);
  const steps = [...script(r.sb, r.app.dispatcher.commands), ...TYPED_ONLY.map((line) => ({ line, admin: false }))];
  const english = await run(r, 'en', steps, 0);
  const text = (a: Answer) => a.shown;
  for (const a of english) {
    assert.ok(a.messages.length > 0 && text(a).length > 10, `en ${a.step.line} answered`);
    for (const line of tableLines(a.messages)) assert.ok(displayWidth(line) <= TABLE_WIDTH, `en: ${line}`);
  }
  assert.ok(
    english.filter((a) => a.messages.some((m) => m.photo)).length >= 10,
    'English answers carry pictures (cards, charts)',
  );
  assert.ok(english.filter((a) => a.pressed).length >= 20, 'many answers have a button to press');
  assert.ok(english.filter((a) => tableLines(a.messages).length > 0).length >= 10, 'tables in monospace');
  for (const [n, locale] of OTHER_LOCALES.entries()) {
    const sent = r.fake.requests.length;
    const answers = await run(r, locale, steps, n + 1);
    for (const [i, a] of answers.entries()) {
      const en = english[i]!;
      const what = `${locale} ${a.step.line}`;
      assert.notEqual(text(a), text(en), `${what}: not the English answer`);
      assert.deepEqual(englishLeft(text(a), r.sb, locale), [], what);
      assert.equal(
        a.messages.some((m) => m.photo),
        en.messages.some((m) => m.photo),
        `${what}: a picture where English has one`,
      );
      assert.deepEqual(
        a.messages.map((m) => callbacks(m).length),
        en.messages.map((m) => callbacks(m).length),
        `${what}: the same buttons`,
      );
      for (const m of a.messages) assert.ok((m.text ?? '').length <= (m.isCaption ? CAPTION_MAX : TEXT_MAX), what);
      for (const line of tableLines(a.messages))
        assert.ok(displayWidth(line) <= TABLE_WIDTH, `${what}: a table line wider than ${TABLE_WIDTH}: ${line}`);
      for (const name of a.step.intact ?? []) assert.ok(text(a).includes(name), `${what}: ${name} as written`);
      if (en.pressed) {
        assert.ok(a.pressed, `${what}: its first button answers`);
        assert.deepEqual(englishLeft(a.pressed, r.sb, locale), [], `${what}: after the press`);
        assert.notEqual(a.pressed, en.pressed, `${what}: the press answers in the language`);
      }
    }
    // The fake refuses what Telegram refuses (length after parsing, HTML, button data): nothing was.
    const refused = r.fake.requests.slice(sent).filter((q) => q.status >= 400);
    assert.deepEqual(refused, [], `${locale}: every request accepted`);
  }
});

test('an alert in each language reaches its group within the limits, and its first button answers there', async (t) => {
  const r = await rig(t);
  const kol = r.sb.data.kols.find((k) => k.follower_count >= 20_000)!;
  const groups = LOCALES.map((locale, n) => {
    const admin: FakeUser = { id: 80_000 + n, first_name: 'Ada', language_code: CODE[locale] };
    const chat: FakeChat = { id: -(80_000 + n), type: 'group', title: 'Degens' };
    r.fake.setMember(chat.id, admin.id, 'administrator');
    return { locale, admin, chat };
  });
  for (const g of groups) await r.ask(g.chat, '/subscribe', g.admin);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  const sent = r.fake.requests.length;
  r.sb.addTweets(1, { token: r.sb.data.tokens[30]!.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  const alerts = await Promise.all(groups.map((g) => r.fake.waitForMessage(g.chat.id, undefined, PATIENCE_MS)));
  const english = visible(alerts[0]!);
  assert.match(english, / shilled by /);
  for (const [n, g] of groups.entries()) {
    const m = alerts[n]!;
    assert.ok((m.text ?? '').length <= (m.isCaption ? CAPTION_MAX : TEXT_MAX));
    assert.ok(visible(m).includes(kol.username), `${g.locale}: the KOL as written`);
    if (g.locale === 'en') continue;
    assert.notEqual(visible(m), english, `${g.locale}: not the English alert`);
    assert.deepEqual(englishLeft(visible(m), r.sb, g.locale), [], g.locale);
    const first = callbacks(m)[0];
    assert.ok(first, `${g.locale}: the alert has a button`);
    const q = r.fake.pressButton({
      chatId: g.chat.id,
      messageId: m.message_id,
      data: first.callback_data!,
      from: g.admin,
    });
    const answer = await eventually(
      () => r.fake.answersFor(q)[0] && (r.fake.messages(g.chat.id).at(-1) ?? m),
      `${g.locale}: the alert's button answers`,
    );
    assert.deepEqual(englishLeft(visible(answer), r.sb, g.locale), [], `${g.locale}: after the press`);
  }
  assert.deepEqual(
    r.fake.requests.slice(sent).filter((q) => q.status >= 400),
    [],
    'every alert accepted',
  );
});

test("the bot's own refusals in every language: the flood notice and a forged button", async (t) => {
  const r = await rig(t, { userLimit: { count: 1, windowMs: 600_000 } });
  const said = new Map<Locale, { flood: string; forged: string }>();
  for (const [n, locale] of LOCALES.entries()) {
    const user: FakeUser = { id: 90_000 + n, first_name: 'Ada', language_code: CODE[locale] };
    const chat: FakeChat = { id: user.id, type: 'private' };
    const list = await r.ask(chat, '/kols', user);
    const flood = await r.ask(chat, '/tweets', user);
    // A page button replayed onto another message of the chat (a modified client).
    const q = r.fake.pressButton({
      chatId: chat.id,
      messageId: flood.message_id,
      data: callbacks(list)[0]!.callback_data!,
      from: user,
      unchecked: true,
    });
    const forged = await eventually(() => r.fake.answersFor(q).find((a) => a.text)?.text, `${locale}: the refusal`);
    said.set(locale, { flood: visible(flood), forged });
  }
  const en = said.get('en')!;
  assert.match(en.flood, /You're sending commands quickly/);
  assert.equal(en.forged, 'This button does not belong to this message.');
  for (const locale of OTHER_LOCALES) {
    const { flood, forged } = said.get(locale)!;
    assert.notEqual(flood, en.flood, locale);
    assert.notEqual(forged, en.forged, locale);
    assert.deepEqual(englishLeft(`${flood}\n${forged}`, r.sb, locale), [], locale);
  }
});
