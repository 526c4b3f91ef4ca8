// Right-to-left names in pictures: an Arabic name is drawn in its reading order and joined, by
// resvg's own text layout (bidi and shaping); everything else keeps the fast glyph-path drawing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPng, winRateSvg } from '../../../src/views/charts/index.ts';
import { textToPaths } from '../../../src/views/charts/textPaths.ts';
import { decodePng } from './png.ts';

/**
 * Where the tall letters are, from 0 (left end of the ink) to 1 (right end): the x-centroid
 * of the ink in the top quarter of the text's ink box, which only ascenders (alef, lam) reach.
 */
function tallInk(png: Uint8Array): number {
  const { width, height, rgba } = decodePng(png);
  // Ink is what differs from the top-left pixel (the background).
  const bg = [...rgba.subarray(0, 3)];
  const ink = (x: number, y: number) => {
    const i = (y * width + x) * 4;
    return Math.abs(rgba[i]! - bg[0]!) + Math.abs(rgba[i + 1]! - bg[1]!) + Math.abs(rgba[i + 2]! - bg[2]!);
  };
  let [x0, x1, y0, y1] = [width, -1, height, -1];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (ink(x, y) > 60) [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
  let sum = 0;
  let n = 0;
  for (let y = y0; y <= y0 + (y1 - y0) / 4; y++)
    for (let x = x0; x <= x1; x++) {
      sum += x * ink(x, y);
      n += ink(x, y);
    }
  return (sum / n - x0) / (x1 - x0);
}

const line = (text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="90"><rect width="320" height="90" fill="#101418"/><text x="20" y="60" font-size="40" fill="#ffffff">${text}</text></svg>`;

test('an Arabic name is drawn right to left: its first letter at the right end', () => {
  // احمد (Ahmad): alef, the one tall letter, comes first; read right to left it stands at the right.
  const ahmad = tallInk(renderPng(line('احمد')));
  assert.ok(ahmad > 0.8, `the alef at ${ahmad.toFixed(2)} of the width, not at the right end`);
  // The same letters in Latin order put the tall letter first on the left: the measure can tell.
  const latin = tallInk(renderPng(line('lnnn')));
  assert.ok(latin < 0.2, `Latin: ${latin.toFixed(2)}`);
});

test('right-to-left and complex scripts go to resvg’s text layout; the rest keeps the glyph paths', () => {
  for (const text of ['احمد', 'متداول العملات', 'שלום', 'नमस्ते', 'สวัสดี', '\u202Bmixed\u202C'])
    assert.match(textToPaths(line(text)), /<text\b/, text);
  for (const text of ['Ahmad', 'Привет', 'Tiếng Việt', '龙币 Dragon', '$PEPE +12%'])
    assert.doesNotMatch(textToPaths(line(text)), /<text\b/, text);
});

test('a chart titled with an Arabic name keeps the name in reading order', () => {
  const summary = Object.fromEntries(
    ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '24h', '7d'].map((w) => [w, 0.5]),
  );
  const svg = winRateSvg({ title: 'احمد', summary } as Parameters<typeof winRateSvg>[0]);
  const drawn = textToPaths(svg);
  assert.match(drawn, /<text\b[^>]*>احمد<\/text>/, 'the name handed to resvg as text, in logical order');
  assert.doesNotMatch(drawn, /<text\b[^>]*>[^<]*[0-9%][^<]*<\/text>/, 'numbers and Latin still drawn as paths');
});
