/**
 * A community's page end to end on Discord, as its members see it: a member's
 * pastes recorded through discord.js and the Discord fake (Message Content on),
 * the channel manager's /web on, then in Chromium the board lists that member
 * with the figures /lb gives in the channel, the member's call page draws its
 * chart, the preview tags name the bot's call card of that call as a PNG, and
 * /web off makes the same URLs 404.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deployCommands } from '../../src/adapters/discord/deploy.ts';
import { serveWeb } from '../../src/app/web.ts';
import { isSolanaAddress } from '../../src/domain/chains.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { translator } from '../../src/i18n/index.ts';
import { silentLogger } from '../../src/log.ts';
import { callCardPicture } from '../../src/pictures/cards.ts';
import {
  MANAGER,
  MANAGER_PERMISSIONS,
  publicAnswer,
  startHarness,
  type Harness,
  until,
} from '../adapters/discord/harness.ts';
import type { FakeMessage } from '../fakes/discord/index.ts';
import { browserSkip, launchBrowser, openPage } from '../helpers/browser.ts';
import { boardRow, isPng, lbRowMatches, previewOf } from './pages.ts';

const skip = browserSkip();
const ALICE = { id: '1000000000000000101', username: 'alice' };

/** What the channel reads in an answer: its content and its embeds' words. */
function said(m: FakeMessage): string {
  const embeds = m.embeds as { title?: string; description?: string; fields?: { name: string; value: string }[] }[];
  return [
    m.content,
    ...embeds.flatMap((e) => [e.title, e.description, ...(e.fields ?? []).flatMap((f) => [f.name, f.value])]),
  ]
    .filter(Boolean)
    .join('\n');
}

async function slash(h: Harness, channelId: string, name: string, options: Record<string, string>, admin = false) {
  const handle = await h.fake.sendCommand({
    name,
    channelId,
    user: admin ? MANAGER : ALICE,
    ...(admin ? { memberPermissions: MANAGER_PERMISSIONS } : {}),
    options: Object.entries(options).map(([k, value]) => ({ name: k, type: 3, value })),
  });
  return said(await publicAnswer(handle));
}

test('Discord: a member’s calls on the community page in Chromium, as /lb says, previewed by its call card; /web off: 404', {
  skip,
  timeout: 180_000,
}, async (t) => {
  let clock = Date.now();
  const now = () => clock;
  const h = await startHarness({
    fake: { messageContentIntent: true },
    adapter: { messageContent: true },
    clock: now,
    marketClock: now,
  });
  t.after(() => h.close());
  await deployCommands({
    token: h.fake.token,
    applicationId: h.fake.applicationId,
    apiBase: h.fake.apiBase,
    registry: await loadCommands(),
  });
  const web = await serveWeb(
    { url: undefined, host: '127.0.0.1', port: 0, fallbackPort: false },
    h.app,
    silentLogger(),
  );
  t.after(() => web.close());
  const channel = h.channels[0]!;
  assert.match(await slash(h, channel, 'callboard', { action: 'on' }, true), /^Call board on/);

  // Alice pastes three tokens (the board ranks members with 3 calls or more); one pumps 3x.
  const toks = h.app.sandbox!.data.tokens.filter(
    (x) => x.chain_id === 'solana' && isSolanaAddress(x.address) && x.marketcap > 0,
  );
  const mine = toks.slice(0, 3);
  const cards = () => h.fake.channelMessages(channel).filter((m) => /Call recorded: alice/.test(m.content));
  for (const [i, tok] of mine.entries()) {
    h.fake.postMessage({ channelId: channel, content: `aping ${tok.address}`, author: ALICE });
    await until(() => cards().length === i + 1 || undefined, `the card of paste ${i + 1}`);
  }
  const watcher = h.app.startAlerts([h.adapter.sender], { followupNow: now });
  mine[0]!.marketcap *= 3;
  clock += 6 * 60_000;
  await watcher.tick();

  const on = await slash(h, channel, 'web', { action: 'on' }, true);
  const url = on.match(/https?:\/\/[^\s)>]+\/c\/[a-z0-9-]+/)?.[0];
  assert.ok(url?.startsWith(web.url), on);
  const lb = await slash(h, channel, 'lb', { period: '7d' });

  const browser = await launchBrowser(t);
  const page = await openPage(browser, { width: 1280 });
  assert.equal((await page.goto(url!))?.status(), 200);
  const row = await boardRow(page, 'alice');
  assert.equal(row.calls, '3');
  assert.ok(lbRowMatches(lb, row), `the board's row ${JSON.stringify(row)} is /lb's:\n${lb}`);

  await page.locator('#board a', { hasText: 'alice' }).click();
  await page.waitForURL(/\/member\/alice$/);
  const best = mine[0]!;
  await page.locator('#member-calls a', { hasText: best.symbol }).click();
  await page.waitForURL(/\/call\//);
  assert.match((await page.locator('h1').textContent()) ?? '', /called by alice/);
  const chart = page.locator('svg#call-chart');
  assert.ok(await chart.isVisible(), 'the chart is drawn');
  assert.equal(await chart.getAttribute('data-points'), '2', 'the call and its 5-minute follow-up');
  assert.match((await page.locator('[data-fig="multiple"]').textContent()) ?? '', /^3x/);

  const preview = await previewOf(page);
  assert.equal(preview.twitterCard, 'summary_large_image');
  assert.ok(preview.image.startsWith(`${web.url}/c/`), preview.image);
  const image = await page.request.get(preview.image);
  assert.equal(image.status(), 200);
  assert.equal(image.headers()['content-type'], 'image/png');
  const served = await image.body();
  assert.ok(isPng(served), 'a PNG');
  const call = (await h.app.store.members.list(`discord:${channel}`, 0)).find((c) => c.token.address === best.address)!;
  const en = translator('en');
  const card = await callCardPicture(
    { capabilities: { pictures: true, buttons: true }, log: silentLogger(), charts: h.app.charts, t: en },
    call,
    en,
    clock,
  );
  assert.ok(card.picture?.png && Buffer.from(card.picture.png).equals(served), 'the page’s preview is the call’s card');

  const callUrl = page.url();
  assert.match(await slash(h, channel, 'web', { action: 'off' }, true), /page is off/);
  for (const gone of [url!, callUrl, preview.image]) assert.equal((await page.goto(gone))?.status(), 404, gone);
});
