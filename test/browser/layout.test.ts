/**
 * The community pages as phones and desktops draw them, in Chromium: the board,
 * a member's page and a call page at 390 and 1280 px, in English, Chinese and
 * Russian (the community's language, set with /language), for a community whose
 * members and tokens are named in Latin, Chinese, Cyrillic and Arabic script,
 * some of them long. Measured from the page's element boxes: nothing reaches past
 * the viewport, no text covers other text, nothing under 12 px, no sideways
 * scroll; and axe-core finds no serious or critical violation, light and dark.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serveWeb } from '../../src/app/web.ts';
import { isSolanaAddress } from '../../src/domain/chains.ts';
import { silentLogger } from '../../src/log.ts';
import { group, rig, type Rig } from '../adapters/telegram/helpers.ts';
import type { FakeChat, FakeUser } from '../fakes/telegram/index.ts';
import { axeViolations, browserSkip, launchBrowser, layoutReport, openPage } from '../helpers/browser.ts';
import { until } from '../helpers/wait.ts';

const skip = browserSkip();
const ADMIN = { id: 424242, first_name: 'Tester', username: 'tester' };
const MEMBERS: FakeUser[] = [
  { id: 6001, first_name: 'Alice', username: 'alice' },
  { id: 6002, first_name: '龙哥' },
  { id: 6003, first_name: 'Максимилиан Криптовалютович', username: 'maximilian_the_long_named_caller' },
  { id: 6004, first_name: 'محمد العربي' },
];
/** Token names as communities write them: Chinese, Cyrillic, Arabic, and one long unbroken name. */
const NAMES = [
  ['龙币', '龙币 Dragon Coin'],
  ['МЕМКОИН', 'Мемкоин Народный'],
  ['عملة', 'عملة الصحراء'],
  ['SUPERCALIFRAGILISTIC', 'Supercalifragilisticexpialidociousmooncoinoftheyear'],
] as const;
const LANGUAGES = ['en', 'zh', 'ru'] as const;

async function say(r: Rig, chat: FakeChat, from: FakeUser, text: string, match: RegExp) {
  const last = r.fake.messages(chat.id).at(-1)?.message_id ?? 0;
  r.fake.sendText({ chat, from, text });
  return r.fake.waitForMessage(chat.id, (m) => m.message_id > last && match.test(m.text ?? ''));
}

test('the board, a member and a call at 390 and 1280 px in en, zh and ru: nothing overflows or overlaps; axe finds nothing serious', {
  skip,
  timeout: 600_000,
}, async (t) => {
  let clock = Date.now();
  const now = () => clock;
  const r = await rig(t, { fake: { privacyMode: false }, marketClock: now, clock: now, autoCardsPerMinute: 1_000 });
  const web = await serveWeb(
    { url: undefined, host: '127.0.0.1', port: 0, fallbackPort: false },
    r.app,
    silentLogger(),
  );
  t.after(() => web.close());
  const g = group(-9501, 'Альфа 龙 Community العربية');
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  await say(r, g, ADMIN, '/callboard on', /^Call board on/);
  await say(r, g, ADMIN, '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0', /./);

  // Three calls per member (the board ranks from 3), every token its own; four named in other scripts.
  const toks = r.sb.data.tokens.filter((x) => x.chain_id === 'solana' && isSolanaAddress(x.address) && x.marketcap > 0);
  for (const [i, [symbol, name]] of NAMES.entries()) Object.assign(toks[i * 3]!, { symbol, name });
  for (const [m, member] of MEMBERS.entries())
    for (const tok of toks.slice(m * 3, m * 3 + 3)) await say(r, g, member, `in ${tok.address}`, /Call recorded/);
  // KOL alerts on four more tokens: the scorecard and the latest alerts.
  const watcher = r.app.startAlerts([r.adapter.sender], { followupNow: now, cron: '0 0 1 1 *' });
  await watcher.tick(); // the feed's head: what came before the subscription is not alerted
  for (const [i, tok] of toks.slice(12, 16).entries())
    r.sb.addTweets(1, { token: tok.id, kol: r.sb.data.kols[i]!.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await until(
    async () => (await r.app.store.calls.list(`telegram:${g.id}`, 0)).length >= 4,
    'four alerts tracked as calls',
  );
  // Follow-ups: some pump, some fall, so the figures and the charts have something to draw.
  toks[0]!.marketcap *= 3.2;
  toks[4]!.marketcap *= 0.4;
  toks[12]!.marketcap *= 2.5;
  clock += 6 * 60_000;
  await watcher.tick();
  clock += 60 * 60_000;
  await watcher.tick();

  const on = await say(r, g, ADMIN, '/web on', /https?:\/\//);
  const board = on.text!.match(/https?:\/\/\S+\/c\/[a-z0-9-]+/)![0];
  const browser = await launchBrowser(t);
  const first = await openPage(browser, { width: 1280 });
  await first.goto(board);
  // What the pages hold: every member ranked, the four alerts listed, names as written.
  assert.equal(await first.locator('#board tbody tr').count(), MEMBERS.length);
  assert.equal(await first.locator('#latest tbody tr').count(), 4);
  for (const name of ['@alice', '龙哥', '@maximilian_the_long_named_caller', 'محمد العربي'])
    assert.equal(await first.locator('#board [data-col="member"]', { hasText: name }).count(), 1, name);
  const member = new URL((await first.locator('#board a').first().getAttribute('href'))!, board).href;
  await first.goto(member);
  const call = new URL((await first.locator('#member-calls a').first().getAttribute('href'))!, board).href;
  await first.context().close();

  const problems: string[] = [];
  for (const lang of LANGUAGES) {
    await say(r, g, ADMIN, `/language ${lang}`, /./);
    for (const [what, url] of [
      ['board', board],
      ['member', member],
      ['call', call],
    ] as const) {
      for (const width of [390, 1280]) {
        const dark = width === 1280;
        const page = await openPage(browser, { width, dark });
        assert.equal((await page.goto(url))?.status(), 200, url);
        assert.equal(await page.locator('html').getAttribute('lang'), lang === 'zh' ? 'zh' : lang);
        const where = `${what} in ${lang} at ${width} px${dark ? ', dark' : ''}`;
        const layout = await layoutReport(page);
        for (const o of layout.overflowing) problems.push(`${where}: overflows: ${o}`);
        for (const o of layout.overlapping) problems.push(`${where}: overlaps: ${o}`);
        for (const o of layout.tooSmall) problems.push(`${where}: too small: ${o}`);
        if (layout.scrollsSideways) problems.push(`${where}: scrolls sideways`);
        for (const v of await axeViolations(page))
          problems.push(`${where}: axe ${v.impact} ${v.id}: ${v.help} at ${v.where.join(', ')}`);
        await page.context().close();
      }
    }
  }
  assert.deepEqual(problems, []);
});
