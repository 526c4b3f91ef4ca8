/**
 * The community page over HTTP: an admin turns it on with /web on, a visitor
 * reads the board, /web off makes the same address 404; members' and upstream
 * names show as text, never as markup; the headers forbid inline script.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metaOf, tableOf, textOf, webHarness } from './harness.ts';

test('an admin turns the page on, visitors read the board, /web off makes the address 404', async (t) => {
  const w = await webHarness(t);
  const admin = w.member('1', 'Ada', { admin: true });
  const member = w.member('2', 'Bob');
  assert.match(textOf(await w.send(admin, '/web')), /no community page/);
  assert.match(textOf(await w.send(member, '/web on')), /Only admins/);
  const on = textOf(await w.send(admin, '/web on alpha-club'));
  assert.ok(on.includes(`${w.web.url}/c/alpha-club`), on);
  assert.match(textOf(await w.send(member, '/web')), /\/c\/alpha-club/);

  const page = await w.get('/c/alpha-club');
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<h1 dir="auto">Alpha Club<\/h1>/);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline|https?:/);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  assert.ok(page.headers.get('referrer-policy'));
  assert.doesNotMatch(html, /<script>|<script [^>]*>[^<]/, 'no inline script');
  assert.equal(metaOf(html)['og:url'], `${w.web.url}/c/alpha-club`);

  assert.match(textOf(await w.send(admin, '/web off')), /is gone from now on/);
  assert.equal((await w.get('/c/alpha-club')).status, 404, 'the address answers 404 from then on');
  assert.equal((await w.get('/c/alpha-club?period=30d')).status, 404);
});

test('a page name is checked, and one community cannot take another’s', async (t) => {
  const w = await webHarness(t);
  const a = w.member('1', 'Ada', { admin: true });
  const b = w.member('9', 'Eve', { admin: true, chatId: '-100999' });
  assert.match(textOf(await w.send(a, '/web on A')), /3-40 lowercase/);
  assert.match(textOf(await w.send(a, '/web on -x-')), /3-40 lowercase/);
  assert.match(textOf(await w.send(a, '/web on ../../etc')), /3-40 lowercase/);
  await w.send(a, '/web on alpha');
  assert.match(textOf(await w.send(b, '/web on alpha')), /belongs to another community/);
  const random = textOf(await w.send(b, '/web on'));
  const slug = /\/c\/([a-z2-7]{16})\b/.exec(random)?.[1];
  assert.ok(slug, `a random 16-character slug: ${random}`);
  assert.equal((await w.get(`/c/${slug}`)).status, 200);
  assert.equal((await w.get('/c/alpha')).status, 200, 'the first community keeps its page');
  await w.send(a, '/web on alpha-two');
  assert.equal((await w.get('/c/alpha')).status, 404, 'a new name: the old address is gone');
  assert.equal((await w.get('/c/alpha-two')).status, 200);
  assert.doesNotMatch(textOf(await w.send(b, '/web on alpha')), /belongs to another/, 'and free to take');
});

test('names from members and from the upstream show as text, never as markup', async (t) => {
  const w = await webHarness(t);
  const admin = w.member('1', 'Ada', { admin: true });
  await w.send(admin, '/callboard on');
  await w.send(admin, '/web on html-test');
  const tokens = w.app.sandbox!.data.tokens.filter((x) => x.chain_id === 'solana' && x.marketcap > 0).slice(0, 3);
  tokens[0]!.symbol = '<script>alert(1)</script>';
  tokens[0]!.name = '"><img src=x onerror=alert(2)>';
  const name = '"><img src=x onerror=alert(3)><script>alert(4)</script>';
  const evil = w.member('666', name);
  for (const x of tokens) await w.send(evil, `/mycall ${x.address}`);

  const board = await (await w.get('/c/html-test?period=all')).text();
  assert.deepEqual(
    tableOf(board, 'board').map((r) => r['member']),
    [name],
    'the member is ranked under their name, as text',
  );
  const memberLink = /<th scope="row"[^>]*data-col="member"><a href="([^"]+)">/.exec(board)?.[1];
  assert.ok(memberLink, 'the member links to their page');
  const mine = await (await w.get(memberLink.replace(/&amp;/g, '&'))).text();
  assert.ok(
    tableOf(mine, 'stats').some((r) => r['token'] === '$<script>alert(1)</script>'),
    'the token shows under its symbol, as text',
  );
  const callLink = /href="(\/c\/html-test\/call\/[^"]+)">[^<]*\$&lt;script&gt;/.exec(mine)?.[1];
  assert.ok(callLink, 'the call of that token links to its page');
  const call = await (await w.get(callLink)).text();
  for (const html of [board, mine, call]) {
    assert.doesNotMatch(html, /<script>alert|<img src=x/, 'no member or upstream text becomes markup');
  }
  assert.match(call, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(call, /&quot;&gt;&lt;img src=x onerror=alert\(2\)&gt;/);
});

test('the pages take no body and no method but GET and HEAD: refused before a byte is read', async (t) => {
  const w = await webHarness(t);
  const { request } = await import('node:http');
  const send = (method: string, headers: Record<string, string>, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${w.web.url}/c/any`, { method, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
  assert.equal(await send('POST', { 'content-type': 'text/plain' }, 'x'), 405);
  assert.equal(await send('GET', { 'content-length': '5' }, 'hello'), 413);
  assert.equal(await send('GET', { 'transfer-encoding': 'chunked' }, 'hello'), 413);
  assert.equal((await w.get('/c/any')).status, 404, 'a plain GET is answered');
  const head = await fetch(`${w.web.url}/static/site.css`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.match(head.headers.get('content-type') ?? '', /text\/css/);
});
