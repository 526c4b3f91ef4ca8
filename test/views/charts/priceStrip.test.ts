import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priceStripSvg, renderPng } from '../../../src/views/charts/index.ts';
import { THEME } from '../../../src/views/charts/theme.ts';
import { countColour, decodePng, pixel } from './png.ts';
import { externalReferences, textContents } from './svgCheck.ts';

test('each window shows its signed change; unknown and junk values show n/a', () => {
  const svg = priceStripSvg({ symbol: 'PEPE', changes: { m5: 1.234, h1: -4.5, h4: null, h24: Number.NaN } });
  const texts = textContents(svg);
  for (const w of ['5m', '1h', '4h', '24h']) assert.ok(texts.includes(w));
  assert.ok(texts.includes('+1.23%') && texts.includes('-4.50%'));
  assert.equal(texts.filter((t) => t === 'n/a').length, 2);
  assert.ok(texts.includes('PEPE price change'));
});

test('gains are green bars above the line, losses red bars below it', () => {
  const img = decodePng(renderPng(priceStripSvg({ symbol: 'X', changes: { m5: 50, h1: -50, h4: 0, h24: 100 } })));
  assert.equal(img.width, 800);
  assert.equal(img.height, 300);
  const colW = (800 - 80) / 4;
  const colourAt = (col: number, dy: number) =>
    pixel(img, 40 + colW * (col + 0.5), 170 + dy)
      .slice(0, 3)
      .join(',');
  const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)).join(',');
  assert.equal(colourAt(0, -20), hex(THEME.up), '5m gain above the line');
  assert.equal(colourAt(1, 20), hex(THEME.down), '1h loss below the line');
  assert.equal(colourAt(3, -50), hex(THEME.up), '24h bar twice as tall');
  assert.equal(colourAt(0, -36), hex(THEME.background), '5m bar only half as tall');
  assert.ok(countColour(img, THEME.up, 4) > 2000 && countColour(img, THEME.down, 4) > 1000);
});

test('huge moves are written compactly and the symbol is escaped', () => {
  const svg = priceStripSvg({ symbol: `<script>&"'`, changes: { m5: 12345, h1: 0.004, h4: -99.99, h24: 2_500_000 } });
  const texts = textContents(svg);
  assert.ok(
    texts.includes('+12.3K%') && texts.includes('+0.00%') && texts.includes('-99.99%') && texts.includes('+2.5M%'),
    texts.join(' | '),
  );
  assert.ok(texts.includes(`<script>&"' price change`));
  assert.doesNotMatch(svg, /<script/);
  assert.deepEqual(externalReferences(svg), []);
  renderPng(svg);
});
