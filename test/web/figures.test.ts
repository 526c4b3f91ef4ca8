/**
 * The page and the chat agree to the digit: for the same store, clock and cached
 * market caps, the board's tables are /lb's and /calls's rows cell for cell, a
 * member's page is /stats's, and a call page's figures are the call card's and
 * /stats's. Alerts become calls through the real watcher and delivery
 * (calls-harness); members' calls through /mycall.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import type { TableView, View } from '../../src/domain/view.ts';
import { silentLogger } from '../../src/log.ts';
import { serveWeb } from '../../src/app/web.ts';
import { callsHarness } from '../alerts/calls-harness.ts';
import { figuresOf, metaOf, tableOf } from './harness.ts';

const table = (v: View | undefined): TableView => {
  assert.equal(v?.kind, 'table', JSON.stringify(v).slice(0, 300));
  return v as TableView;
};

test('board, call and member pages show the figures /lb, /calls and /stats give for the same data', async (t) => {
  const h = await callsHarness(t, { destinations: 1 });
  const web = await serveWeb(
    { url: undefined, host: '127.0.0.1', port: 0, fallbackPort: false },
    h.app,
    silentLogger(),
  );
  t.after(() => web.close());
  const chat = h.chats[0]!;
  const who = (id: string, name: string): Caller => ({
    platform: 'console',
    userId: id,
    chatId: chat,
    chatType: 'group',
    member: { id, name },
    canManage: async () => true,
  });
  const say = (c: Caller, line: string) => h.app.dispatcher.text(line, c);
  await say(who('1', 'Ada'), '/callboard on');
  await say(who('1', 'Ada'), '/web on figures');
  // KOL calls: alerts sent to the chat, then followed up once.
  for (let i = 0; i < 4; i++) h.shill(i, i);
  await h.cycle();
  // Members' calls: three each, so both are ranked.
  const tokens = h.sb.data.tokens.filter((x) => x.chain_id === 'solana' && x.marketcap > 0);
  for (const [i, m] of [who('2', 'Bob'), who('3', '@carol')].entries())
    for (let k = 0; k < 3; k++) await say(m, `/mycall ${tokens[i * 3 + k]!.address}`);
  h.advance(16 * 60_000); // the first follow-ups are due: multiples move
  await h.cycle();

  const ada = who('1', 'Ada');
  const lb = table(await say(ada, '/lb all'));
  const calls = table(await say(ada, '/calls period:all')); // reads "now" (cached 15 s, as the page reads it)
  const byKol = table(await say(ada, '/calls period:all by:kol min_calls:1'));
  assert.equal(lb.rows.length, 2, 'both members ranked');
  assert.equal(calls.rows.length, 4, 'the four alerts are calls');
  const upstream = h.sb.requests.length;

  const board = await (await fetch(`${web.url}/c/figures?period=all`)).text();
  assert.deepEqual(tableOf(board, 'board'), lb.rows, 'the board is /lb, row for row');
  assert.deepEqual(tableOf(board, 'calls-by-call'), calls.rows, 'the scorecard is /calls');
  const kolPage = await (await fetch(`${web.url}/c/figures?period=all&by=kol`)).text();
  assert.deepEqual(
    tableOf(kolPage, 'calls-by-kol').map((r) => r['kol']),
    byKol.rows.filter((r) => Number(r['calls']) >= 3).map((r) => r['kol']),
    'by KOL, with /calls by:kol’s minimum of calls',
  );
  assert.equal(tableOf(board, 'latest').length, 4, 'the latest alerts');

  const stats = table(await say(ada, '/stats @carol'));
  const member = await (await fetch(`${web.url}/c/figures/member/carol`)).text();
  assert.deepEqual(tableOf(member, 'stats'), stats.rows, 'a member’s page is /stats');

  const first = stats.rows[0]!;
  const link = /<a href="(\/c\/figures\/call\/[^"]+)">/.exec(member)?.[1];
  assert.ok(link, 'the member’s newest call links to its page');
  const call = await (await fetch(`${web.url}${link}`)).text();
  const fig = figuresOf(call);
  assert.equal(fig['cap'], first['at'], 'the cap at the call');
  assert.equal(fig['multiple'], first['now'], 'the multiple since, as /stats');
  assert.match(
    fig['peak']!,
    new RegExp(`${first['peak']!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    'the sampled peak',
  );
  assert.equal(fig['who'], '@carol');
  assert.match(call, /<svg id="call-chart"[^>]*data-points="2"/, 'the call and its follow-up, charted');
  assert.equal(h.sb.requests.length, upstream, 'reading the pages sent no upstream request');

  const meta = metaOf(call);
  assert.equal(meta['twitter:card'], 'summary_large_image');
  assert.equal(meta['og:image'], `${web.url}${link}/card.png`);
  const png = await fetch(meta['og:image']!);
  assert.equal(png.status, 200);
  assert.equal(png.headers.get('content-type'), 'image/png');
  const bytes = new Uint8Array(await png.arrayBuffer());
  assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  const etag = png.headers.get('etag')!;
  assert.match(png.headers.get('cache-control') ?? '', /max-age=\d+/);
  const again = await fetch(meta['og:image']!, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304, 'a client holding the card gets 304');
});
