import { test } from 'node:test';
import { translator } from '../../../src/i18n/index.ts';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decimalRatio, momentumSeries, momentumSvg, renderPng, WINDOWS } from '../../../src/views/charts/index.ts';
import type { MomentumToken } from '../../../src/views/charts/index.ts';
import { sampleMomentum } from '../../../src/views/charts/samples.ts';
import { SERIES_COLOURS } from '../../../src/views/charts/theme.ts';
import { countColour, decodePng, looksDrawn, pngStats } from './png.ts';
import { coordinates, externalReferences, textContents } from './svgCheck.ts';

test('ratios of tiny and long decimal prices keep their precision', () => {
  assert.equal(decimalRatio('0.000000024690', '0.000000012345'), 2);
  assert.equal(
    decimalRatio(
      '0.000000000000000000000000000000000000000000000000001',
      '0.0000000000000000000000000000000000000000000000000005',
    ),
    2,
  );
  assert.equal(decimalRatio('1e-400', '1e-401'), 10, 'below the double range on both sides');
  assert.ok(Math.abs(decimalRatio('1.00000000000000000000000001', '1')! - 1) < 1e-15);
  assert.equal(decimalRatio('0', '5'), 0);
  assert.equal(decimalRatio('5', '0'), null);
  assert.equal(decimalRatio('5', '0.000'), null);
  assert.equal(decimalRatio('abc', '1'), null);
  assert.equal(decimalRatio('-1', '1'), null);
  assert.equal(decimalRatio('', '1'), null);
});

test('ratios agree with floating point wherever floats are exact enough', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 999_999_999 }),
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 1, max: 999_999_999 }),
      fc.integer({ min: 0, max: 30 }),
      (ma, ea, mb, eb) => {
        const a = (ma / 10 ** ea).toFixed(ea + 9);
        const b = (mb / 10 ** eb).toFixed(eb + 9);
        const expected = (ma / mb) * 10 ** (eb - ea);
        const got = decimalRatio(a, b)!;
        return Math.abs(got - expected) <= Math.abs(expected) * 1e-6;
      },
    ),
    { numRuns: 300 },
  );
});

const token = (symbol: string, priceInit: string, f: (i: number) => string | null): MomentumToken => ({
  symbol,
  priceInit,
  after: Object.fromEntries(WINDOWS.map((w, i) => [w, f(i)])),
});

test('the legend names each token with its latest change; tokens without a start price are left out', () => {
  const svg = momentumSvg({
    title: 'KOL momentum',
    tokens: [
      token('DOUBLE', '0.000000012345', () => '0.000000024690'),
      token('HALF', '4', (i) => (i <= 3 ? '2' : null)),
      token('NOSTART', '0', () => '1'),
      token('JUNK', 'n/a', () => '1'),
    ],
  });
  const texts = textContents(svg);
  assert.ok(texts.includes('DOUBLE') && texts.includes('+100% after 7d'));
  assert.ok(texts.includes('HALF') && texts.includes('-50.0% after 1h'));
  assert.ok(!texts.includes('NOSTART') && !texts.includes('JUNK'));
  assert.match(
    texts.join(' '),
    /2 tokens without a start price left out/,
    'the subtitle says so (on as many lines as it takes)',
  );
  assert.ok(texts.includes('0%'), 'zero line labelled');
});

test('at most eight lines, each in its own colour', () => {
  const many = sampleMomentum(12, 4);
  const { series } = momentumSeries(many.tokens);
  assert.equal(series.length, 8);
  assert.deepEqual(
    series.map((s) => s.symbol),
    many.tokens.slice(0, 8).map((t) => t.symbol),
  );
  const svg = momentumSvg(many);
  const strokes = [...svg.matchAll(/<path d="[^"]*" fill="none" stroke="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
  assert.equal(strokes.length, 8);
  assert.equal(new Set(strokes).size, 8);
});

test('a moonshot or a rug is clamped inside the plot and marked hollow', () => {
  const svg = momentumSvg({
    title: 'extremes',
    tokens: [
      token('MOON', '0.000001', () => '5'),
      token('RUG', '1', () => '0.0000001'),
      token('FLAT', '1', () => '1.01'),
    ],
  });
  const height = Number(/height="(\d+)"/.exec(svg)![1]);
  for (const y of coordinates(svg, 'y')) assert.ok(y >= 0 && y <= height, `y ${y} off canvas`);
  for (const x of coordinates(svg, 'x')) assert.ok(x >= 0 && x <= 600, `x ${x} off canvas`);
  assert.ok((svg.match(/r="5" fill="#12161f"/g) ?? []).length >= 22, 'clamped points drawn hollow');
  const texts = textContents(svg);
  assert.ok(texts.includes('+9,900%') && texts.includes('-99%'), 'axis reaches the clamp limits');
  assert.ok(texts.includes('+500M% after 7d'));
});

test('hostile symbols are escaped; the picture renders with visible lines', () => {
  const input = sampleMomentum(8, 5);
  const hostile = {
    ...input,
    title: `<script>alert(1)</script>`,
    tokens: input.tokens.map((t, i) => (i === 0 ? { ...t, symbol: `<script>&"'` } : t)),
  };
  const svg = momentumSvg(hostile);
  assert.doesNotMatch(svg, /<script/);
  assert.ok(textContents(svg).includes(`<script>&"'`));
  assert.deepEqual(externalReferences(svg), []);
  const img = decodePng(renderPng(svg));
  assert.equal(img.width, 600);
  assert.ok(img.height > 600, 'taller than wide: the legend sits under the plot');
  assert.ok(looksDrawn(img));
  for (const c of SERIES_COLOURS.slice(0, 8))
    assert.ok(countColour(img, c, 16) > 150, `line colour ${c} barely visible`);
});

test('no tokens at all still gives a readable picture', () => {
  const svg = momentumSvg({ title: 'empty', tokens: [] });
  assert.ok(textContents(svg).includes('No price data yet'));
  const img = decodePng(renderPng(svg));
  assert.equal(img.width, 600);
  assert.ok(pngStats(img).inkShare > 0.005, 'axes and text are painted');
});

test('legend names are not cut: a long one is set smaller; one symbol on two chains is told apart by chain', async () => {
  const { momentumChart } = await import('../../../src/views/cards/pictureInputs.ts');
  const long = momentumSvg({ title: 'KOL', tokens: [token('DOGEWIFHATMOON', '1', () => '2')] });
  assert.ok(textContents(long).includes('DOGEWIFHATMOON'), 'the whole name');
  const now = Date.UTC(2026, 10, 25, 12);
  const item = (chain: string, hours: number) =>
    ({
      token_symbol: 'PEPE',
      token_name: 'Pepe',
      token_chain_id: chain,
      shill_timestamp: new Date(now - hours * 3_600_000).toISOString(),
      price_init: '1',
      price_after5m: '1.1',
      price_after1h: '1.2',
    }) as unknown as Parameters<typeof momentumChart>[1][number];
  const chart = momentumChart('KOL', [item('solana', 3), item('base', 4)], 'recent', now, translator('en'));
  const names = chart.tokens.map((t) => t.symbol);
  assert.ok(names.some((n) => n.includes('solana')) && names.some((n) => n.includes('base')), names.join(' | '));
  assert.equal(new Set(names).size, 2);
});
