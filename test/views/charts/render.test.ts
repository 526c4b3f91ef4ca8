import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPng } from '../../../src/views/charts/index.ts';
import { FONT_FAMILY } from '../../../src/views/charts/font.ts';
import { decodePng, pixel, pngStats } from './png.ts';
import { externalReferences } from './svgCheck.ts';

const svgWith = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">${body}</svg>`;

test('the test PNG decoder reads back exactly what was painted', () => {
  const img = decodePng(
    renderPng(
      svgWith(
        '<rect width="200" height="100" fill="#000000"/><rect x="100" width="100" height="50" fill="#ff0000"/><rect y="50" width="100" height="50" fill="#00ff00"/>',
      ),
    ),
  );
  assert.equal(img.width, 200);
  assert.equal(img.height, 100);
  assert.deepEqual(pixel(img, 150, 25), [255, 0, 0, 255]);
  assert.deepEqual(pixel(img, 50, 75), [0, 255, 0, 255]);
  assert.deepEqual(pixel(img, 50, 25), [0, 0, 0, 255]);
  assert.deepEqual(pixel(img, 150, 75), [0, 0, 0, 255]);
  assert.throws(() => decodePng(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])));
});

test('text is drawn with the shipped font, identically every time', () => {
  const bg = '<rect width="200" height="100" fill="#000"/>';
  const blank = renderPng(svgWith(bg));
  const text = svgWith(`${bg}<text x="10" y="60" font-size="30" fill="#fff">Hello</text>`);
  const a = renderPng(text);
  assert.ok(
    pngStats(decodePng(a)).distinctColours > pngStats(decodePng(blank)).distinctColours + 10,
    'glyphs were painted',
  );
  assert.deepEqual(renderPng(text), a);
  const named = renderPng(
    svgWith(`${bg}<text x="10" y="60" font-size="30" fill="#fff" font-family="${FONT_FAMILY}">Hello</text>`),
  );
  assert.deepEqual(named, a, 'no family given falls back to the same shipped font');
});

test('width option scales the picture and keeps its aspect ratio', () => {
  const img = decodePng(renderPng(svgWith('<rect width="200" height="100" fill="#123456"/>'), { width: 500 }));
  assert.equal(img.width, 500);
  assert.equal(img.height, 250);
});

test('the reference checker used by the chart tests does catch remote references', () => {
  assert.notDeepEqual(externalReferences('<svg><image href="http://x/y.png"/></svg>'), []);
  assert.notDeepEqual(externalReferences('<svg><rect fill="url(https://x/p)"/></svg>'), []);
  assert.deepEqual(
    externalReferences(
      '<svg xmlns="http://www.w3.org/2000/svg"><text>see https://x</text><rect fill="url(#g)"/></svg>',
    ),
    [],
  );
});

test('text drawn as glyph outlines looks like resvg drawing the same text with the font', async () => {
  const { Resvg } = await import('@resvg/resvg-js');
  const { FONT_FILES } = await import('../../../src/views/charts/font.ts');
  const { textToPaths } = await import('../../../src/views/charts/textPaths.ts');
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160"><rect width="400" height="160" fill="#000"/>' +
    '<text x="10" y="40" font-size="30" fill="#fff">Hamburg 0123 é Ωж</text>' +
    '<text x="200" y="90" font-size="26" fill="#fff" font-weight="bold" text-anchor="middle">BOLD &amp; &lt;mid&gt;</text>' +
    '<text x="390" y="140" font-size="20" fill="#fff" text-anchor="end">right edge</text></svg>';
  assert.doesNotMatch(textToPaths(svg), /<text/, 'all three became paths');
  const ours = decodePng(renderPng(svg));
  const native = decodePng(
    new Resvg(svg, { font: { fontFiles: [...FONT_FILES], loadSystemFonts: false, defaultFontFamily: FONT_FAMILY } })
      .render()
      .asPng(),
  );
  let inkOurs = 0;
  let inkNative = 0;
  let differ = 0;
  let absDiff = 0;
  for (let i = 0; i < ours.rgba.length; i += 4) {
    const a = ours.rgba[i]!;
    const b = native.rgba[i]!;
    if (a > 128) inkOurs++;
    if (b > 128) inkNative++;
    if (Math.abs(a - b) > 128) differ++;
    absDiff += Math.abs(a - b);
  }
  // resvg applies the font's kerning and we do not, so a few edge pixels move.
  assert.ok(inkOurs > 2000, 'text was painted');
  assert.ok(Math.abs(inkOurs - inkNative) / inkNative < 0.03, `ink ${inkOurs} vs ${inkNative}`);
  assert.ok(differ / inkNative < 0.02, `${differ} pixels differ strongly`);
  assert.ok(absDiff / (inkNative * 255) < 0.09, `mean difference ${absDiff / (inkNative * 255)}`);
});

test('transparent areas come out with straight (not premultiplied) colour, like resvg writes them', async () => {
  const { Resvg } = await import('@resvg/resvg-js');
  const svg = svgWith(
    '<rect width="100" height="100" fill="#ff8040" fill-opacity="0.5"/><circle cx="150" cy="50" r="40" fill="#20c0ff"/>',
  );
  const ours = decodePng(renderPng(svg));
  const theirs = decodePng(new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng());
  const [r, g, b, a] = pixel(ours, 50, 50);
  assert.ok(
    Math.abs(a - 128) <= 1 && Math.abs(r - 255) <= 1 && Math.abs(g - 128) <= 2 && Math.abs(b - 64) <= 2,
    `${[r, g, b, a]}`,
  );
  assert.deepEqual(pixel(ours, 190, 95), [0, 0, 0, 0], 'empty corner stays fully transparent');
  let worst = 0;
  for (let i = 0; i < ours.rgba.length; i++) worst = Math.max(worst, Math.abs(ours.rgba[i]! - theirs.rgba[i]!));
  assert.ok(worst <= 2, `differs from resvg's own encoder by ${worst}`);
});
