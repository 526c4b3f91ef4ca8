// Every picture the bot draws, shown 390 px wide (a phone in portrait): every text run stays at
// least 11 px tall. Measured on the SVG before rasterising: font-size times the scale 390 / width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  callCardSvg,
  callsSvg,
  mindmapSvg,
  momentumSvg,
  priceStripSvg,
  winRateSvg,
} from '../../../src/views/charts/index.ts';
import { sampleMindmap, sampleMomentum, sampleWinRate } from '../../../src/views/charts/samples.ts';

const PHONE = 390;
const MIN_PX = 11;

/** Each text run's height in px when the picture is drawn PHONE px wide, with its text. */
export function phoneTextHeights(svg: string): { text: string; px: number }[] {
  const width = Number(/<svg\b[^>]*\swidth="([\d.]+)"/.exec(svg)![1]);
  assert.doesNotMatch(svg, /transform=/, 'no transform may scale text behind the measure');
  return [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const size = /font-size="([\d.]+)"/.exec(m[1]!);
    assert.ok(size, `text without its own font-size: ${m[2]}`);
    return { text: m[2]!, px: (Number(size[1]) * PHONE) / width };
  });
}

const calls = callsSvg({
  title: 'Calls here · last 7d',
  subtitle: '12 calls · hit rate 17% (peak reached 2x) · median now 1x · best: $PENGUIN by @nft_bro, peak 2.2x',
  threshold: 2,
  legend: { peak: 'peak', now: 'now' },
  rows: Array.from({ length: 15 }, (_, i) => ({
    label: `$TOKEN${i} · @a_rather_long_handle`,
    peak: 1 + i / 5,
    now: 0.2 + i / 10,
    figures: `${(1 + i / 5).toFixed(1)}x · ${(0.2 + i / 10).toFixed(2)}x`,
  })),
});

const PICTURES: Record<string, string> = {
  'price strip': priceStripSvg({ symbol: 'PEPE', changes: { m5: -0.53, h1: 2.1, h4: null, h24: -12.4 } }),
  mindmap: mindmapSvg(sampleMindmap(20)),
  'dense mindmap': mindmapSvg(sampleMindmap(60)),
  'calls chart': calls,
  'win-rate chart': winRateSvg(sampleWinRate()),
  'momentum chart': momentumSvg(sampleMomentum(8)),
  'call card': callCardSvg({
    title: '$PENGUIN · Penguin · Solana',
    subtitle: 'called by @alice · a day ago',
    multiple: '2.2x',
    trend: 'up',
    boxes: [
      { label: 'At the call', value: '$1.2M', sub: 'market cap' },
      { label: 'Peak', value: '$2.9M', sub: '2.4x' },
      { label: 'Now', value: '$2.6M', sub: '2.2x' },
    ],
    series: [1, 1.4, 2.4, 2.2],
    footnote: 'Market caps from the analytics API. Not financial advice.',
  }),
};

for (const [name, svg] of Object.entries(PICTURES)) {
  test(`${name}: every text run is at least ${MIN_PX} px tall on a ${PHONE} px wide phone`, () => {
    const runs = phoneTextHeights(svg);
    assert.ok(runs.length > 0);
    const small = runs.filter((r) => r.px < MIN_PX - 1e-9).map((r) => `${r.text} (${r.px.toFixed(1)} px)`);
    assert.deepEqual(small, []);
  });
}

test('the measure itself: a 12 px label on a 1000 px wide picture is 4.7 px on a phone', () => {
  const [run] = phoneTextHeights('<svg width="1000" height="10"><text font-size="12">x</text></svg>');
  assert.equal(run!.px.toFixed(2), '4.68');
});

test('the narrow layouts still leave as sharp pictures as before: every kind is drawn 1000 px wide', async () => {
  const { drawChart } = await import('../../../src/views/charts/draw.ts');
  const { decodePng } = await import('./png.ts');
  for (const [kind, input] of [
    ['winrate', sampleWinRate()],
    ['mindmap', sampleMindmap(8)],
  ] as const)
    assert.equal(decodePng(drawChart(kind, input as never)).width, 1000, kind);
});
