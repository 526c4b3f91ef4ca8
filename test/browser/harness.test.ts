/**
 * The browser harness itself: Chromium starts from the system's binary, renders a
 * page served on 127.0.0.1, and the two measures the page tests rely on can fail:
 * the layout check finds an overflowing box, covered text and tiny type on a page
 * built to have them (and none on a sound one), and axe-core finds a missing
 * alternative text and unreadable contrast.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { axeViolations, browserSkip, launchBrowser, layoutReport, openPage } from '../helpers/browser.ts';

const skip = browserSkip();

const SOUND = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Board</title>
<link rel="stylesheet" href="/style.css"></head><body><main><h1>Top callers</h1>
<table><caption>Last 7 days</caption><thead><tr><th scope="col">Member</th><th scope="col">Hit rate</th></tr></thead>
<tbody><tr><td>@alice 龙币</td><td>67% of 3</td></tr><tr><td>@боб</td><td>50% of 4</td></tr></tbody></table>
<p class="sr-only">Screen-reader text drawn over the heading, clipped to nothing</p></main></body></html>`;

const STYLE = `body { font: 16px/1.4 sans-serif; margin: 0 16px; color: #111; background: #fff; }
h1 { margin-top: 0; } table { border-collapse: collapse; width: 100%; } td, th { padding: 4px; text-align: left; }
.sr-only { position: absolute; top: 0; left: 16px; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }`;

const BROKEN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Broken</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font: 16px sans-serif; margin: 0"><h1>Broken</h1>
<div id="wide" style="width: 2000px">A row wider than any phone</div>
<div style="position: relative; height: 40px"><span id="one" style="position: absolute; left: 0">First label</span>
<span id="two" style="position: absolute; left: 10px">Second label</span></div>
<p id="tiny" style="font-size: 9px">Fine print</p>
<img src="/chart.png" width="10" height="10">
<p style="color: #bbb; background: #fff">Pale words on white</p></body></html>`;

let server: Server;
let base: string;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = createServer((req, res) => {
    const [type, body] =
      req.url === '/style.css'
        ? ['text/css', STYLE]
        : req.url === '/broken'
          ? ['text/html; charset=utf-8', BROKEN]
          : req.url === '/'
            ? ['text/html; charset=utf-8', SOUND]
            : ['text/plain', 'not found'];
    res.writeHead(body === 'not found' ? 404 : 200, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('a page served locally renders in Chromium: its heading, its table and its stylesheet', { skip }, async () => {
  const page = await openPage(browser, { width: 390 });
  const res = await page.goto(`${base}/`);
  assert.equal(res?.status(), 200);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Top callers');
  assert.deepEqual(await page.locator('tbody td:first-child').allTextContents(), ['@alice 龙币', '@боб']);
  // The stylesheet applied: the table fills the 390 px viewport less the body's 16 px margins.
  assert.equal((await page.locator('table').boundingBox())?.width, 390 - 32);
  const shot = await page.screenshot();
  assert.deepEqual([...shot.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a screenshot is a PNG');
});

test('the layout check passes a sound page at 390 and 1280 px, screen-reader text left out', { skip }, async () => {
  for (const width of [390, 1280]) {
    const page = await openPage(browser, { width });
    await page.goto(`${base}/`);
    assert.deepEqual(await layoutReport(page), {
      overflowing: [],
      overlapping: [],
      tooSmall: [],
      scrollsSideways: false,
    });
  }
});

test('the layout check names the overflowing box, the covered labels and the fine print', { skip }, async () => {
  const page = await openPage(browser, { width: 390 });
  await page.goto(`${base}/broken`);
  const report = await layoutReport(page);
  assert.equal(report.scrollsSideways, true);
  assert.ok(
    report.overflowing.some((o) => o.startsWith('<div#wide> spans 0..2000 px of a 390 px viewport')),
    report.overflowing.join('\n'),
  );
  assert.equal(report.overlapping.length, 1, report.overlapping.join('\n'));
  assert.match(report.overlapping[0]!, /^"First label" \(<span#one>\) covers "Second label" \(<span#two>\)/);
  assert.deepEqual(report.tooSmall, ['"Fine print" in <p#tiny> at 9 px']);
});

test('axe-core runs in the page: none on a sound page, missing alt text and poor contrast on a broken one', {
  skip,
}, async () => {
  const page = await openPage(browser, { width: 1280 });
  await page.goto(`${base}/`);
  assert.deepEqual(await axeViolations(page), []);
  await page.goto(`${base}/broken`);
  const found = (await axeViolations(page)).map((v) => v.id).sort();
  assert.deepEqual(found, ['color-contrast', 'image-alt']);
});
