/**
 * /calls: the figures a channel reads equal figures computed here, from the
 * recorded calls and the market caps the sandbox served; the picture decodes
 * and none of its labels meet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callsHarness, textOf } from './calls-harness.ts';
import { caller } from './harness.ts';
import { callsSvg } from '../../src/views/charts/calls.ts';
import { textWidth } from '../../src/views/charts/font.ts';
import { decodePng, looksDrawn } from '../views/charts/png.ts';
import { MOVED_MULTIPLE } from '../../src/domain/score.ts';

const HOUR = 3_600_000;
const console0 = { ...caller('chat-0'), platform: 'console' as const };

function fmt(x: number): string {
  const digits = x >= 10 ? 0 : x >= 1 ? 1 : 2;
  return `${new Intl.NumberFormat('en', { maximumFractionDigits: digits }).format(x)}x`;
}

test('/calls: summary, rows and KOL ranking equal figures computed from the calls and the sandbox', async (t) => {
  const h = await callsHarness(t, { destinations: 1, followups: [60, 360] });
  const tokens = [0, 1, 2, 3, 4, 5].map((i) => h.shill(i, i % 3));
  await h.cycle();
  const atAlert = tokens.map((x) => x.marketcap);
  const samples: number[][] = tokens.map(() => []);
  for (const step of [HOUR + 60_000, 5 * HOUR]) {
    h.advance(step);
    await h.cycle();
    tokens.forEach((x, i) => {
      samples[i]!.push(x.marketcap);
    });
  }
  // Independently: multiple now = last served / at alert; peak = highest served (or at alert) / at alert.
  const expected = tokens.map((x, i) => {
    const now = samples[i]!.at(-1)! / atAlert[i]!;
    const peak = Math.max(atAlert[i]!, ...samples[i]!) / atAlert[i]!;
    return { symbol: x.symbol, kol: h.sb.data.kols[i % 3]!.username.toLowerCase(), now, peak };
  });
  const hits = expected.filter((e) => e.peak >= 2).length;
  const sortedNow = expected.map((e) => e.now).sort((a, b) => a - b);
  const median = (sortedNow[2]! + sortedNow[3]!) / 2;
  const best = [...expected].sort((a, b) => b.peak - a.peak)[0]!;

  const view = await h.app.dispatcher.run('calls', { period: '7d' }, console0, {
    capabilities: { pictures: true } as never,
  });
  assert.equal(view!.kind, 'table');
  if (view!.kind !== 'table') return;
  const summary = String(view.description);
  assert.ok(summary.includes('6 calls'), summary);
  assert.ok(summary.includes(`hit rate ${Math.round((hits / 6) * 100)}%`), summary);
  assert.ok(summary.includes(`median now ${fmt(median).replace(/x$/, '')}`), `${summary} vs ${median}`);
  // A best call is named only when it moved: a flat best is not news.
  if (best.peak >= MOVED_MULTIPLE)
    assert.ok(summary.includes(`best: $${best.symbol}`) && summary.includes(`peak ${fmt(best.peak)}`), summary);
  else assert.ok(summary.includes('nothing stood out') && !summary.includes('best:'), summary);
  const order = [...expected].sort((a, b) => b.peak - a.peak);
  assert.deepEqual(
    view.rows.map((r) => r['token']),
    order.map((e) => `$${e.symbol}`),
    'best first',
  );
  for (const [i, r] of view.rows.entries()) {
    assert.equal(r['peak'], fmt(order[i]!.peak));
    assert.equal(r['now'], fmt(order[i]!.now));
  }
  // The picture decodes, at the width of the other charts.
  assert.ok(view.picture, 'a picture comes with the first page');
  const img = decodePng(view.picture!.png);
  assert.equal(img.width, 1000);
  assert.ok(looksDrawn(img));

  // Two calls a KOL: below the default minimum (3), so min_calls:2 ranks them.
  const byKol = await h.app.dispatcher.run('calls', { by: 'kol', min_calls: 2 }, console0);
  if (byKol!.kind !== 'table') assert.fail(byKol!.kind);
  const kols = new Map<string, typeof expected>();
  for (const e of expected) kols.set(e.kol, [...(kols.get(e.kol) ?? []), e]);
  assert.deepEqual(new Set(byKol.rows.map((r) => r['kol'])), new Set([...kols.keys()].map((k) => `@${k}`)));
  for (const r of byKol.rows) {
    const mine = kols.get(r['kol']!.slice(1))!;
    assert.equal(r['calls'], String(mine.length));
    const rate = Math.round((mine.filter((e) => e.peak >= 2).length / mine.length) * 100);
    assert.equal(r['hit'], `${rate}% of ${mine.length}`);
  }

  const worst = await h.app.dispatcher.run('calls', { sort: 'worst' }, console0);
  if (worst!.kind !== 'table') assert.fail(worst!.kind);
  assert.equal(worst.rows[0]!['token'], `$${[...expected].sort((a, b) => a.now - b.now)[0]!.symbol}`);

  const denied = await h.app.dispatcher.run(
    'calls',
    { action: 'clear' },
    { ...caller('chat-0', false), platform: 'console' },
  );
  assert.equal(denied!.kind, 'error');
  assert.equal((await h.app.store.calls.list('console:chat-0', 0)).length, 6, 'a member cannot clear it');
  const cleared = await h.app.dispatcher.run('calls', { action: 'clear' }, console0);
  assert.match(textOf(cleared!), /Forgot 6 calls/);
  const empty = await h.app.dispatcher.run('calls', {}, console0);
  assert.match(textOf(empty!), /No calls here in this period yet/);
});

test('the calls picture: long labels are cut to their column, no two labels meet', () => {
  const rows = Array.from({ length: 15 }, (_, i) => ({
    label: `$${'VERYLONGTICKER'.repeat(3)}${i} · @a_very_long_username_${i}`,
    peak: 2 ** ((i % 7) - 2),
    now: 1.5 ** ((i % 5) - 3),
    figures: '12,345x · 0.01x (-99%)',
  }));
  const svg = callsSvg({
    title: 'Calls here · last 7d',
    subtitle: '15 calls · hit rate 40% (peak reached 2x) · median now 0.9x',
    rows,
    threshold: 2,
    legend: { peak: 'peak', now: 'now' },
  });
  const boxes = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" font-size="(\d+)"([^>]*)>([^<]*)<\/text>/g)].map(
    (m) => {
      const size = Number(m[3]);
      const w = textWidth(m[5]!.replace(/&amp;/g, '&'), size);
      const x = Number(m[1]);
      const left = m[4]!.includes('text-anchor="middle"') ? x - w / 2 : m[4]!.includes('text-anchor="end"') ? x - w : x;
      return { text: m[5]!, left, right: left + w, top: Number(m[2]) - size, bottom: Number(m[2]) + 2 };
    },
  );
  assert.ok(boxes.length >= 15 * 2 + 4);
  const meet: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
        meet.push(`${a.text} / ${b.text}`);
    }
  assert.deepEqual(meet, []);
  for (const b of boxes) assert.ok(b.right <= 1000 && b.left >= 0, `${b.text} inside the picture`);
});
