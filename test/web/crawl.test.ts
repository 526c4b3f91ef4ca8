/**
 * What visitors cannot do: a crawler walking made-up URLs costs no upstream
 * request and cannot grow the page cache past its bound; a member who runs
 * /callboard forget is gone from every page; /web off empties the cache.
 * (The 100,000-URL crawl and its memory are in the bench: bench/web.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PAGE_CACHE_ENTRIES, PAGE_TTL_MS } from '../../src/web/site.ts';
import { tableOf, webHarness } from './harness.ts';

const junk = () => randomBytes(6).toString('base64url');

test('800 made-up URLs: 404 or a page, no upstream request, the page cache within its bound', async (t) => {
  const w = await webHarness(t);
  const admin = w.member('1', 'Ada', { admin: true });
  await w.send(admin, '/callboard on');
  await w.send(admin, '/web on crawled');
  const tokens = w.app.sandbox!.data.tokens.filter((x) => x.chain_id === 'solana' && x.marketcap > 0);
  for (const x of tokens.slice(0, 3)) await w.send(admin, `/mycall ${x.address}`);
  const before = w.upstream();
  const shapes = [
    () => `/c/${junk()}`,
    () => `/c/crawled/call/${junk()}`,
    () => `/c/crawled/call/${junk()}/card.png`,
    () => `/c/crawled/member/${junk()}`,
    () => `/c/crawled?period=${junk()}&by=${junk()}&${junk()}=1`,
    () => `/${junk()}/${junk()}`,
    () => `/static/${junk()}`,
    () => `/c/crawled/member/ada?x=${junk()}`,
  ];
  const statuses = new Map<number, number>();
  const urls = Array.from({ length: 800 }, (_, i) => shapes[i % shapes.length]!());
  for (let i = 0; i < urls.length; i += 16) {
    const answers = await Promise.all(urls.slice(i, i + 16).map((u) => w.get(u)));
    for (const r of answers) {
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      await r.arrayBuffer();
    }
  }
  assert.deepEqual([...statuses.keys()].sort(), [200, 404], `only pages and 404s: ${JSON.stringify([...statuses])}`);
  assert.equal(statuses.get(200), 200, 'the board (any query) and Ada’s page answer; nothing else does');
  assert.equal(w.upstream(), before, 'no upstream request');
  assert.ok(w.web.site.cache.size <= PAGE_CACHE_ENTRIES, `${w.web.site.cache.size} cached`);
  assert.ok(w.web.site.cache.size <= 3, 'made-up queries share the board’s entries: one board and one member page');
});

test('a member who forgets their calls is gone from the board, their page and their calls’ pages', async (t) => {
  const w = await webHarness(t);
  const admin = w.member('1', 'Ada', { admin: true });
  const bob = w.member('2', 'Bob');
  await w.send(admin, '/callboard on');
  await w.send(admin, '/web on forgetful');
  const tokens = w.app.sandbox!.data.tokens.filter((x) => x.chain_id === 'solana' && x.marketcap > 0);
  for (const x of tokens.slice(0, 3)) await w.send(bob, `/mycall ${x.address}`);
  const board = await (await w.get('/c/forgetful?period=all')).text();
  assert.deepEqual(
    tableOf(board, 'board').map((r) => r['member']),
    ['Bob'],
  );
  const member = await (await w.get('/c/forgetful/member/bob')).text();
  const call = /href="(\/c\/forgetful\/call\/[^"]+)"/.exec(member)?.[1];
  assert.ok(call);
  assert.equal((await w.get(call)).status, 200);

  await w.send(bob, '/callboard forget');
  w.clock.now += PAGE_TTL_MS; // the pages built before it have had their time
  const after = await (await w.get('/c/forgetful?period=all')).text();
  assert.doesNotMatch(after, /Bob/, 'gone from the board');
  assert.equal((await w.get('/c/forgetful/member/bob')).status, 404, 'their page is gone');
  assert.equal((await w.get(call)).status, 404, 'their call’s page is gone');
  assert.equal((await w.get(`${call}/card.png`)).status, 404, 'and its card');
});

test('/web off: the pages leave the cache at the next visit, and the address is 404 at once', async (t) => {
  const w = await webHarness(t);
  const admin = w.member('1', 'Ada', { admin: true });
  await w.send(admin, '/web on gone-soon');
  assert.equal((await w.get('/c/gone-soon')).status, 200);
  assert.equal(w.web.site.cache.size, 1);
  await w.send(admin, '/web off');
  assert.equal((await w.get('/c/gone-soon')).status, 404, 'within the cache’s lifetime, still 404');
  assert.equal(w.web.site.cache.size, 0, 'its pages left the cache');
});

test('the page speaks the chat’s language, else the visitor’s (Accept-Language)', async (t) => {
  const w = await webHarness(t);
  const admin = w.member('1', 'Ada', { admin: true });
  await w.send(admin, '/web on polyglot');
  const zh = await (await w.get('/c/polyglot', { 'accept-language': 'fr;q=0.9, zh-CN;q=0.8, en;q=0.1' })).text();
  assert.match(zh, /<html lang="zh"/);
  assert.match(zh, /成员排行榜/);
  await w.send(admin, '/language ru');
  const ru = await (await w.get('/c/polyglot', { 'accept-language': 'zh-CN' })).text();
  assert.match(ru, /<html lang="ru"/, 'the chat’s language wins');
  assert.match(ru, /Рейтинг участников/);
});
