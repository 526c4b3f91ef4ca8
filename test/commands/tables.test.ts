import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { compact, pct, usd } from '../../src/i18n/english.ts';
import { action, asError, asTable, column, harness } from './harness.ts';

const h = await harness();
after(() => h.close());

const { kols, tokens } = h.sandbox.data;
const byName = new Map(kols.map((k) => [`@${k.username}`, k]));
const kolOf = (cell: string) => {
  const k = byName.get(cell);
  assert.ok(k, `unknown KOL ${cell}`);
  return k;
};
const desc = (xs: readonly number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);

test('/kols sort:winrate lists KOLs by descending win rate, with short columns', async () => {
  const table = asTable(await h.send('/kols sort:winrate'));
  assert.equal(table.rows.length, 10);
  assert.deepEqual(
    table.columns.map((c) => c.label),
    ['Rank', 'KOL', 'Score', 'Win%', 'SmartF'],
  );
  const rates = column(table, 'kol').map((c) => kolOf(c).stat.win_rate);
  assert.ok(desc(rates), `not descending: ${rates.join(', ')}`);
  const best = Math.max(...kols.map((k) => k.stat.win_rate));
  assert.equal(rates[0], best);
  // The rate with its sample (the tokens operation 9 counts for the KOL).
  assert.match(table.rows[0]!.win!, new RegExp(`^${pct(best, 'fraction', { decimals: 0 })} of \\d+$`));
  // Ranked by win rate, KOLs need 5 tokens (min_tokens:0 lists every KOL).
  const all = asTable(await h.send('/kols sort:winrate min_tokens:0'));
  assert.match(all.footer ?? '', new RegExp(`^1-10 of ${kols.length}`));
  const ranked = Number(/^1-10 of (\d+)/.exec(table.footer ?? '')?.[1]);
  assert.ok(ranked > 0 && ranked <= kols.length, table.footer);
  assert.match(
    asTable(await h.send('/kols sort:winrate min_tokens:5')).footer ?? '',
    new RegExp(`^1-10 of ${ranked} `),
  );
});

test('Next shows the next rows with the same options; Previous goes back', async () => {
  const first = asTable(await h.send('/kols sort:followers limit:5'));
  const next = asTable(await h.press(first, 'Next'));
  const both = [...column(first, 'kol'), ...column(next, 'kol')];
  const expected = [...kols]
    .sort((a, b) => b.stat.smart_follower_count - a.stat.smart_follower_count || b.id - a.id)
    .slice(0, 10)
    .map((k) => compact(k.stat.smart_follower_count));
  assert.deepEqual([...column(first, 'smart'), ...column(next, 'smart')], expected);
  assert.equal(new Set(both).size, 10, 'no row repeats across pages');
  assert.match(next.footer ?? '', /^6-10 of /);
  assert.deepEqual(action(next, 'Next').options, { sort: 'followers', limit: 5, offset: 10 });
  const back = asTable(await h.press(next, 'Previous'));
  assert.deepEqual(column(back, 'kol'), column(first, 'kol'));
  assert.equal(
    (first.actions ?? []).some((a) => a.label.includes('Previous')),
    false,
  );
});

test('/kols filters: search, labels, min win rate in percent, ranking ascending', async () => {
  const named = asTable(await h.send('/kols search:crypto limit:25'));
  assert.ok(named.rows.length > 0);
  for (const cell of column(named, 'kol')) {
    const k = kolOf(cell);
    assert.ok(`${k.username} ${k.display_name}`.toLowerCase().includes('crypto'), cell);
  }
  const alpha = asTable(await h.send('/kols labels:alpha min_winrate:50 limit:25'));
  for (const cell of column(alpha, 'kol')) {
    assert.ok(kolOf(cell).labels.includes('alpha'));
    assert.ok(kolOf(cell).stat.win_rate >= 0.5);
  }
  const ranked = asTable(await h.send('/kols sort:ranking limit:3'));
  assert.deepEqual(column(ranked, 'rank'), ['#1', '#2', '#3']);
  const none = asTable(await h.send('/kols search:zzzzqqq'));
  assert.equal(none.rows.length, 0);
  assert.equal(none.description, 'No KOL matches these filters.');
});

test('/kols mistakes name the option and show an example', async () => {
  assert.equal(asError(await h.send('/kols sort:winrat')).message, "Unknown sort 'winrat'. Did you mean winrate?");
  assert.match(asError(await h.send('/kols limit:50')).message, /limit must be between 1 and 25/);
  const upside = asError(await h.send('/kols min_winrate:80 max_winrate:20'));
  assert.equal(upside.message, 'min_winrate (80) is above max_winrate (20).');
  assert.ok(upside.example?.startsWith('/kols'));
});

test('/tokens lists tokens by the chosen sort with filters and pages', async () => {
  const table = asTable(await h.send('/tokens chain:solana sort:mcap limit:5'));
  const sol = tokens.filter((t) => t.chain_id === 'solana').sort((a, b) => b.marketcap - a.marketcap || b.id - a.id);
  assert.deepEqual(
    column(table, 'mcap'),
    sol.slice(0, 5).map((t) => usd(t.marketcap)),
  );
  assert.deepEqual(
    column(table, 'token'),
    sol.slice(0, 5).map((t) => `$${t.symbol}`),
  );
  assert.match(table.footer ?? '', new RegExp(`^1-5 of ${sol.length}`));
  const next = asTable(await h.press(table, 'Next'));
  assert.deepEqual(
    column(next, 'mcap'),
    sol.slice(5, 10).map((t) => usd(t.marketcap)),
  );
  const big = asTable(await h.send('/tokens min_mcap:1m sort:change24h order:asc limit:25'));
  const changes = column(big, 'h24').map((c) => Number(c.replace('%', '')));
  assert.ok(
    changes.every((c, i) => i === 0 || changes[i - 1]! <= c),
    changes.join(' '),
  );
  assert.ok(
    column(big, 'mcap').every((m) => /M|B/.test(m)),
    'every market cap is at least $1M',
  );
  assert.match(big.footer ?? '', new RegExp(`of ${tokens.filter((t) => t.marketcap >= 1e6).length} `));
  const fresh = asTable(await h.send('/tokens sort:new new:24'));
  const young = tokens.filter((t) => t.createdMs >= Date.now() - 24 * 3_600_000).length;
  assert.match(fresh.footer ?? '', new RegExp(`of ${young} `));
});

test('/winrate sorts by a window and keeps the sorted window in view', async () => {
  const table = asTable(await h.send('/winrate sort:4h limit:5'));
  assert.ok(table.columns.some((c) => c.key === '4h'));
  const rates = column(table, '4h').map((c) => Number(c.replace(/% of \d+$/, '')));
  assert.ok(desc(rates), rates.join(' '));
  const next = asTable(await h.press(table, 'Next'));
  assert.match(next.footer ?? '', /^6-10 · /);
  const nextRates = column(next, '4h').map((c) => Number(c.replace(/% of \d+$/, '')));
  assert.ok(nextRates[0]! <= rates.at(-1)!, 'the next page carries on where the first stopped');
  assert.match(
    asError(await h.send('/winrate start:yesterday')).message,
    /start must be a date like 2024-05-01 or a duration/,
  );
  const recent = asTable(await h.send('/winrate start:7d chain:base'));
  assert.match(recent.title, /base/);
});

test('/projects pages by cursor; Previous returns to the page before', async () => {
  const first = asTable(await h.send('/projects limit:4'));
  assert.equal(first.rows.length, 4);
  const second = asTable(await h.press(first, 'Next'));
  const third = asTable(await h.press(second, 'Next'));
  assert.notDeepEqual(column(second, 'who'), column(first, 'who'));
  const back = asTable(await h.press(third, 'Previous'));
  assert.deepEqual(column(back, 'who'), column(second, 'who'));
  const start = asTable(await h.press(back, 'Previous'));
  assert.deepEqual(column(start, 'who'), column(first, 'who'));
  const smart = [...column(first, 'smart'), ...column(second, 'smart')];
  const top = [...kols].sort((a, b) => b.stat.smart_follower_count - a.stat.smart_follower_count).slice(0, 8);
  assert.deepEqual(
    smart,
    top.map((k) => compact(k.stat.smart_follower_count)),
  );
});

test('/kols sorted by a value the fixed columns do not show adds that column, in order', async () => {
  const h2 = await harness();
  try {
    const view = asTable(await h2.send('/kols sort:rug limit:5'));
    assert.ok(
      view.columns.some((c) => c.label === 'Rug%'),
      'the sorted value is shown',
    );
    const rates = view.rows.map((r) => Number(r['sorted']!.replace('%', '')));
    assert.deepEqual(
      rates,
      [...rates].sort((a, b) => b - a),
      'descending, as sorted',
    );
  } finally {
    await h2.close();
  }
});

test('/winrate reaches the v2 score sorts and bounds of the spec', async () => {
  const h2 = await harness();
  try {
    const view = asTable(await h2.send('/winrate sort:engagement_v2 min_consistency:40 max_auc:90 limit:3'));
    assert.equal(view.rows.length, 3);
    const q = h2.sandbox.requests.filter((r) => r.rawQuery.includes('eScoreV2')).at(-1)!;
    assert.match(q.rawQuery, /sortField=eScoreV2/);
    assert.match(q.rawQuery, /minLScoreV2=40/);
    assert.match(q.rawQuery, /maxAScoreV2=90/);
  } finally {
    await h2.close();
  }
});
