/**
 * A community's page end to end on Telegram, as its members see it: a member's
 * pastes recorded through grammY and the Bot API fake, the admin's /web on, then
 * in Chromium the board lists that member with the figures /lb gives in the chat,
 * the member's call page draws its chart, the page's preview tags name a PNG that
 * is the bot's call card of that call, and /web off makes the same URL 404.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serveWeb } from '../../src/app/web.ts';
import { isSolanaAddress } from '../../src/domain/chains.ts';
import { translator } from '../../src/i18n/index.ts';
import { callCardPicture } from '../../src/pictures/cards.ts';
import { silentLogger } from '../../src/log.ts';
import { group, rig, type Rig } from '../adapters/telegram/helpers.ts';
import { browserSkip, launchBrowser, openPage } from '../helpers/browser.ts';
import type { FakeChat, FakeUser } from '../fakes/telegram/index.ts';
import { boardRow, isPng, lbRowMatches, previewOf } from './pages.ts';

const skip = browserSkip();
const PICTURES = { pictures: true, buttons: true };
const ADMIN = { id: 424242, first_name: 'Tester', username: 'tester' };
const ALICE = { id: 5001, first_name: 'Alice', username: 'alice' };

async function say(r: Rig, chat: FakeChat, from: FakeUser, text: string, match: RegExp) {
  const last = r.fake.messages(chat.id).at(-1)?.message_id ?? 0;
  r.fake.sendText({ chat, from, text });
  return r.fake.waitForMessage(chat.id, (m) => m.message_id > last && match.test(m.text ?? ''));
}

test('Telegram: a member’s calls on the community page in Chromium, as /lb says, previewed by its call card; /web off: 404', {
  skip,
  timeout: 180_000,
}, async (t) => {
  // One clock for the commands, the follow-ups, the market walk and the pages: the card drawn in
  // the chat and the one the page serves read the same "since", so they are the same picture.
  let clock = Date.now();
  const now = () => clock;
  const r = await rig(t, { fake: { privacyMode: false }, marketClock: now, clock: now, autoCardsPerMinute: 100 });
  const web = await serveWeb(
    { url: undefined, host: '127.0.0.1', port: 0, fallbackPort: false },
    r.app,
    silentLogger(),
  );
  t.after(() => web.close());
  const g = group(-9401, 'Alpha Degens');
  r.fake.setMember(g.id, ADMIN.id, 'administrator');
  await say(r, g, ADMIN, '/callboard on', /^Call board on/);

  // Alice pastes three tokens (the board ranks members with 3 calls or more); one pumps 3x.
  const toks = r.sb.data.tokens.filter((x) => x.chain_id === 'solana' && isSolanaAddress(x.address) && x.marketcap > 0);
  const mine = toks.slice(0, 3);
  for (const tok of mine) await say(r, g, ALICE, `aping ${tok.address}`, /Call recorded: @alice/);
  const watcher = r.app.startAlerts([r.adapter.sender], { followupNow: now });
  mine[0]!.marketcap *= 3;
  clock += 6 * 60_000;
  await watcher.tick();

  const on = await say(r, g, ADMIN, '/web on', /page is on/);
  const url = on.text!.match(/https?:\/\/\S+\/c\/[a-z0-9-]+/)?.[0];
  assert.ok(url?.startsWith(web.url), on.text);
  const lb = await say(r, g, ALICE, '/lb 7d', /Top callers/);

  const browser = await launchBrowser(t);
  const page = await openPage(browser, { width: 390 });
  const res = await page.goto(url!);
  assert.equal(res?.status(), 200);
  const row = await boardRow(page, '@alice');
  assert.equal(row.calls, '3');
  assert.ok(lbRowMatches(lb.text!, row), `the board's row ${JSON.stringify(row)} is /lb's:\n${lb.text}`);

  // Her page, then her best call's page: the chart of its follow-ups.
  await page.locator('#board a', { hasText: '@alice' }).click();
  await page.waitForURL(/\/member\/alice$/);
  const best = mine[0]!;
  await page.locator('#member-calls a', { hasText: best.symbol }).click();
  await page.waitForURL(/\/call\//);
  assert.match((await page.locator('h1').textContent()) ?? '', /called by @alice/);
  const chart = page.locator('svg#call-chart');
  assert.ok(await chart.isVisible(), 'the chart is drawn');
  assert.equal(await chart.getAttribute('data-points'), '2', 'the call and its 5-minute follow-up');
  assert.match((await page.locator('[data-fig="multiple"]').textContent()) ?? '', /^3x/);

  // The preview tags: absolute, a large-image card, and the image is the call card the chat gets.
  const preview = await previewOf(page);
  assert.equal(preview.twitterCard, 'summary_large_image');
  assert.ok(preview.image.startsWith(`${web.url}/c/`), preview.image);
  const image = await page.request.get(preview.image);
  assert.equal(image.status(), 200);
  assert.equal(image.headers()['content-type'], 'image/png');
  const served = await image.body();
  assert.ok(isPng(served), 'a PNG');
  // The call card the bot draws for that call (the picture /stats's "Call card" button asks for).
  const call = (await r.app.store.members.list(`telegram:${g.id}`, 0)).find((c) => c.token.address === best.address)!;
  const en = translator('en');
  const card = await callCardPicture(
    { capabilities: PICTURES, log: silentLogger(), charts: r.app.charts, t: en },
    call,
    en,
    clock,
  );
  assert.ok(card.picture?.png && Buffer.from(card.picture.png).equals(served), 'the page’s preview is the call’s card');

  // Off: the same address is gone.
  const callUrl = page.url();
  await say(r, g, ADMIN, '/web off', /page is off/);
  for (const gone of [url!, callUrl, preview.image]) assert.equal((await page.goto(gone))?.status(), 404, gone);
});
