// /settings: the panel sets what the typed options set, from one definition, in every language.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import type { View } from '../../src/domain/view.ts';
import { CONTROLS, POSTING_OPTIONS, SETTING_OPTIONS, type SettingCommand } from '../../src/alerts/settings.ts';
import { LOCALES } from '../../src/i18n/index.ts';
import subscribe from '../../commands/subscribe.ts';
import alerts from '../../commands/alerts.ts';
import digest from '../../commands/digest.ts';
import autocard from '../../commands/autocard.ts';
import language from '../../commands/language.ts';
import { action, asCard, asError, harness, plain } from './harness.ts';
import { MODAL_LABEL_MAX, MODAL_TITLE_MAX } from '../../src/views/render/discord-modal.ts';
import { BUTTON_LABEL_MAX, SELECT_OPTION_LABEL_MAX, SELECT_PLACEHOLDER_MAX } from '../../src/views/render/discord.ts';
import { PLACEHOLDER_MAX } from '../../src/adapters/telegram/prompt.ts';
import { BUTTON_TEXT_MAX } from '../../src/views/render/telegram.ts';

const h = await harness();
after(() => h.close());

const admin = (chatId: string, userId = 'admin-1', locale?: string): Caller => ({
  platform: 'console',
  userId,
  chatId,
  chatType: 'group',
  ...(locale ? { locale } : {}),
  canManage: async () => true,
});
const member = (chatId: string): Caller => ({ ...admin(chatId, 'member-1'), canManage: async () => false });

/** Presses the button labelled `label`; `answer` is what its modal or forced reply would carry. */
async function press(view: View, label: string, who: Caller, answer?: string): Promise<View> {
  const a = action(view, label);
  return h.dispatcher.action(a.id!, who, answer === undefined ? {} : { answer });
}

test('every typed option of /subscribe, /alerts, /digest, /autocard and /language is one the panel sets', () => {
  const commands = { subscribe, alerts, digest, autocard, language };
  for (const [name, command] of Object.entries(commands)) {
    // The same objects: the commands take their options from the one definition (and /subscribe
    // its posting options, which are not panel settings).
    const settings = SETTING_OPTIONS[name as SettingCommand] as Record<string, unknown>;
    const own = command.options as Record<string, unknown>;
    const posting = name === 'subscribe' ? (POSTING_OPTIONS as Record<string, unknown>) : {};
    for (const key of Object.keys(own)) assert.equal(own[key], settings[key] ?? posting[key], `/${name} ${key}`);
    assert.deepEqual(Object.keys(own).sort(), [...Object.keys(settings), ...Object.keys(posting)].sort());
    const typed = Object.keys(settings).sort();
    const byPanel = new Set(
      CONTROLS.filter((c) => c.command === name).flatMap((c) =>
        c.kind === 'set' ? Object.keys(c.raw) : [c.option, ...Object.keys(c.kind === 'ask' ? (c.raw ?? {}) : {})],
      ),
    );
    assert.deepEqual(
      typed.filter((o) => !byPanel.has(o)),
      [],
      `/${name}: options no panel control sets`,
    );
    for (const [o, opt] of Object.entries(command.options)) {
      const spec = (opt as { spec: { example?: string; choices?: readonly string[] } }).spec;
      assert.ok(spec.example !== undefined || spec.choices, `/${name} ${o} has an example`);
    }
  }
});

test('settings by buttons alone store what the typed options store', async () => {
  const panelChat = admin('panel-a');
  const typedChat = admin('typed-a');
  let v = await h.dispatcher.text('/settings', panelChat);
  assert.match(plain(asCard(v!).description), /Alerts: off/);
  v = await press(v!, 'Presets', panelChat);
  v = await press(v, 'Early gems', panelChat);
  // The preset shows what it sets before it is applied.
  assert.match(plain(asCard(v).description), /Maximum market cap.*1m/);
  assert.equal(await h.store.subscriptions.get('console:panel-a'), undefined, 'nothing stored before Apply');
  v = await press(v, 'Apply', panelChat);
  v = await press(v, 'Filters', panelChat);
  const ask = action(v, 'Token score').ask;
  assert.equal(ask?.value, '50', 'the modal starts from the current value');
  v = await press(v, 'Token score', panelChat, '80');
  assert.match(plain(asCard(v).description), /Token score at least 80/);
  v = await press(v, 'Back', panelChat);
  v = await press(v, 'Chains', panelChat);
  v = await press(v, 'Solana', panelChat);
  v = await press(v, 'Back', panelChat);
  v = await press(v, 'KOLs', panelChat);
  v = await press(v, 'Only these KOLs', panelChat, '@cobie,@ansem');
  v = await press(v, 'Back', panelChat);
  v = await press(v, 'Quiet hours', panelChat);
  v = await press(v, 'Quiet hours', panelChat, '23:00-07:00');
  v = await press(v, 'Back', panelChat);
  v = await press(v, 'Digest', panelChat);
  v = await press(v, 'Weekly', panelChat);
  v = await press(v, 'Time', panelChat, '18:30');
  const last = asCard(v);
  assert.match(plain(last.description), /weekly, mon at 18:30/);

  for (const line of [
    '/subscribe token_score:50 kol_score:80 max_mcap:1m min_liquidity:10k max_age:3d',
    '/subscribe token_score:80',
    '/subscribe chains:aptos,bsc,base,sui',
    '/subscribe only:@cobie,@ansem',
    '/alerts quiet 23:00-07:00',
    '/digest weekly',
    '/digest weekly at:18:30',
  ]) {
    const r = await h.dispatcher.text(line, typedChat);
    assert.notEqual(r?.kind, 'error', line);
  }
  const byPanel = await h.store.subscriptions.get('console:panel-a');
  const byTyping = await h.store.subscriptions.get('console:typed-a');
  assert.ok(byPanel && byTyping);
  assert.deepEqual(byPanel.filters, byTyping.filters);
  assert.deepEqual(byPanel.quiet, byTyping.quiet);
  assert.deepEqual({ ...byPanel.digest, since: 0 }, { ...byTyping.digest, since: 0 });
});

test("a member's press changes nothing and says why; a bad number is refused with an example", async () => {
  const chat = admin('panel-b');
  let v = (await h.dispatcher.text('/settings', chat))!;
  v = await press(v, 'Alerts', chat);
  v = await press(v, 'Turn alerts on', chat);
  v = await press(v, 'Back', chat);
  v = await press(v, 'Filters', chat);
  const before = await h.store.subscriptions.get('console:panel-b');
  const denied = asError(await press(v, 'Token score', member('panel-b'), '10'));
  assert.match(denied.message, /admin|manage/i);
  const prompt = await h.dispatcher.prompt(action(v, 'Token score').id!, member('panel-b'));
  assert.ok('view' in prompt, 'no modal for a member');
  const bad = asError(await press(v, 'Token score', chat, '150'));
  assert.match(bad.message, /150/);
  assert.match(bad.example ?? '', /token_score:\d+/);
  const bad2 = asError(await press(v, 'Followers', chat, 'lots'));
  assert.match(bad2.example ?? '', /\/subscribe/);
  assert.deepEqual(await h.store.subscriptions.get('console:panel-b'), before);
});

test('two admins pressing at once both keep their change', async () => {
  const a = admin('panel-c', 'admin-a');
  const b = admin('panel-c', 'admin-b');
  let v = (await h.dispatcher.text('/settings', a))!;
  v = await press(v, 'Alerts', a);
  v = await press(v, 'Turn alerts on', a);
  v = await press(v, 'Back', a);
  v = await press(v, 'Filters', a);
  await Promise.all([
    press(v, 'Token score', a, '81'),
    press(v, 'KOL score', b, '91'),
    press(v, 'Followers', a, '5000'),
    press(v, 'Cooldown', b, '15'),
  ]);
  const f = (await h.store.subscriptions.get('console:panel-c'))!.filters;
  assert.deepEqual([f.minTokenScore, f.minKolScore, f.minFollowers, f.cooldownMinutes], [81, 91, 5000, 15]);
});

/** Every page of the panel, as a reader in `locale` sees it. */
async function everyPage(locale: string): Promise<View[]> {
  const chat = admin(`panel-l-${locale}`, 'admin-l', locale);
  await h.dispatcher.text(`/language ${locale}`, chat);
  await h.dispatcher.text('/subscribe', chat);
  const main = (await h.dispatcher.text('/settings', chat))!;
  const pages = [main];
  for (const a of (main.actions ?? []).filter((x) => !x.ask && x.options.page !== 'done'))
    pages.push(await h.dispatcher.action(a.id!, chat));
  const presets = pages.find((p) => (p.actions ?? []).some((a) => a.options.preset !== undefined))!;
  for (const a of presets.actions ?? [])
    if (a.options.preset !== undefined) pages.push(await h.dispatcher.action(a.id!, chat));
  return pages;
}

test('every panel label, modal title and field fits its platform in all eight languages', async () => {
  for (const locale of LOCALES) {
    const pages = await everyPage(locale);
    let asks = 0;
    for (const page of pages) {
      const card = asCard(page);
      for (const a of card.actions ?? []) {
        assert.ok(a.label.length <= BUTTON_LABEL_MAX && a.label.length <= BUTTON_TEXT_MAX, `${locale}: ${a.label}`);
        assert.ok(a.label.length <= SELECT_OPTION_LABEL_MAX && (a.pick ?? '').length <= SELECT_PLACEHOLDER_MAX);
        if (!a.ask) continue;
        asks++;
        assert.ok(a.ask.title.length <= MODAL_TITLE_MAX, `${locale} modal title: ${a.ask.title}`);
        assert.ok(a.ask.label.length <= MODAL_LABEL_MAX, `${locale} modal label: ${a.ask.label}`);
        assert.ok(a.ask.hint.length <= 100, `${locale} hint: ${a.ask.hint}`);
        assert.ok([...a.ask.example].length <= PLACEHOLDER_MAX, `${locale} Telegram placeholder: ${a.ask.example}`);
      }
      assert.ok((card.actions ?? []).length <= 25, `${locale}: at most 25 buttons on a page`);
    }
    assert.ok(asks >= 20, `${locale}: ${asks} values asked for`);
    if (locale !== 'en') {
      const english = pages
        .flatMap((p) => (p.actions ?? []).map((a) => a.label))
        .filter((l) => /Back|Done|Apply/.test(l));
      assert.deepEqual(english, [], `${locale}: no English button`);
    }
  }
});

test('a filter changed after quiet hours and a digest keeps both (typed or pressed)', async () => {
  const chat = admin('panel-q');
  for (const line of ['/subscribe', '/alerts quiet 23:00-07:00', '/digest daily at:08:00', '/subscribe token_score:75'])
    assert.notEqual((await h.dispatcher.text(line, chat))?.kind, 'error', line);
  let v = (await h.dispatcher.text('/settings', chat))!;
  v = await press(v, 'Filters', chat);
  await press(v, 'KOL score', chat, '70');
  const sub = (await h.store.subscriptions.get('console:panel-q'))!;
  assert.deepEqual([sub.filters.minTokenScore, sub.filters.minKolScore], [75, 70]);
  assert.deepEqual(sub.quiet, { from: 23 * 60, to: 7 * 60, tz: 'UTC' });
  assert.equal(sub.digest?.at, 8 * 60);
});

test('an expired panel says so and names /settings', async () => {
  const chat = admin('panel-x');
  const old = asError(await h.dispatcher.action('a:settings:AAAAAAAAAAAA', chat));
  assert.match(old.message, /\/settings/);
  assert.equal(old.example, '/settings');
  const prompt = await h.dispatcher.prompt('a:?settings:AAAAAAAAAAAA', chat);
  assert.ok('view' in prompt && prompt.view.kind === 'error' && prompt.view.example === '/settings');
});

test('with a private link (Telegram) a group gets the link and "Open here"; a channel only the link', async () => {
  const capabilities = { pictures: false, buttons: true, privateLink: (p: string) => `https://t.me/bot?start=${p}` };
  const inGroup = asCard((await h.dispatcher.text('/settings', admin('-1007'), { capabilities }))!);
  assert.deepEqual(
    inGroup.links?.map((l) => l.url),
    ['https://t.me/bot?start=set_-1007'],
  );
  const here = await h.dispatcher.action(action(inGroup, 'Open here').id!, admin('-1007'), { capabilities });
  assert.match(plain(asCard(here).description), /Alerts: off/);
  const channel: Caller = { ...admin('-1008'), chatType: 'channel' };
  const inChannel = asCard((await h.dispatcher.text('/settings', channel, { capabilities }))!);
  assert.equal(inChannel.links?.length, 1);
  assert.deepEqual(inChannel.actions ?? [], [], 'no "Open here" in a channel');
  // Opening in place by hand is refused in a channel too: the link again.
  const forced = asCard(await h.dispatcher.run('settings', { here: true }, channel, { capabilities }));
  assert.equal(forced.links?.length, 1);
});
