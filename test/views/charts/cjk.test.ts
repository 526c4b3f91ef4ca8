// Charts draw Chinese, kana and Korean from fallback faces, and keep Cyrillic and Vietnamese in DejaVu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FALLBACK_FILES, glyphFor, setFallbackFaces, textWidth } from '../../../src/views/charts/font.ts';
import { momentumSvg, renderPng } from '../../../src/views/charts/index.ts';
import { sampleMomentum } from '../../../src/views/charts/samples.ts';
import { decodePng, type DecodedPng } from './png.ts';

function withoutFallbacks<T>(fn: () => T): T {
  setFallbackFaces(false);
  try {
    return fn();
  } finally {
    setFallbackFaces(true);
  }
}

/** One character, white on black, 48 px: the PNG as a user would see it. */
function glyphImage(ch: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" fill="#000"/><text x="4" y="50" font-size="48" fill="#fff">${ch}</text></svg>`;
  return Buffer.from(decodePng(renderPng(svg)).rgba).toString('base64');
}

function differing(
  a: DecodedPng,
  b: DecodedPng,
): { count: number; minX: number; maxX: number; minY: number; maxY: number } {
  assert.equal(a.width, b.width);
  assert.equal(a.height, b.height);
  const box = { count: 0, minX: Infinity, maxX: -1, minY: Infinity, maxY: -1 };
  for (let i = 0; i < a.rgba.length; i += 4) {
    if (a.rgba[i] === b.rgba[i] && a.rgba[i + 1] === b.rgba[i + 1] && a.rgba[i + 2] === b.rgba[i + 2]) continue;
    const x = (i / 4) % a.width;
    const y = Math.floor(i / 4 / a.width);
    box.count++;
    box.minX = Math.min(box.minX, x);
    box.maxX = Math.max(box.maxX, x);
    box.minY = Math.min(box.minY, y);
    box.maxY = Math.max(box.maxY, y);
  }
  return box;
}

test('different Chinese, kana and Korean characters draw differently; without the fallback faces they are all the same box', () => {
  const cjk = ['龙', '币', 'ア', 'ぬ', 'ー', '、', '한', '국'];
  const drawn = cjk.map(glyphImage);
  assert.equal(new Set(drawn).size, cjk.length, 'each character has its own shape');
  const boxes = withoutFallbacks(() => cjk.map(glyphImage));
  assert.equal(new Set(boxes).size, 1, 'one box for all');
  assert.ok(!drawn.includes(boxes[0]!), 'no character is drawn as the box');
  // Cyrillic and Vietnamese never needed a fallback: drawn by DejaVu, each its own shape, either way.
  const dejavu = ['Д', 'м', 'ж', 'ệ', 'ư'];
  assert.equal(new Set(dejavu.map(glyphImage)).size, dejavu.length);
  assert.deepEqual(
    withoutFallbacks(() => dejavu.map(glyphImage)),
    dejavu.map(glyphImage),
  );
});

test('a fallback face is scaled by its own units per em, in measuring as in drawing', () => {
  const han = glyphFor('龙'.codePointAt(0)!, false);
  assert.equal(han.face.unitsPerEm, 1000, 'Noto Sans SC');
  assert.equal(glyphFor('한'.codePointAt(0)!, false).face.unitsPerEm, 1000, 'Noto Sans KR');
  assert.equal(glyphFor('Д'.codePointAt(0)!, false).face.unitsPerEm, 2048, 'DejaVu Sans');
  // CJK glyphs are a full em wide: 2 characters at 20 px measure 40 px, and bold measures the same (drawn regular).
  assert.ok(Math.abs(textWidth('龙币', 20) - 40) < 0.5, `${textWidth('龙币', 20)}`);
  assert.equal(textWidth('한국', 20, true), textWidth('한국', 20));
  assert.notEqual(
    withoutFallbacks(() => textWidth('龙币', 20)),
    textWidth('龙币', 20),
  );
  // Painted ink stays inside the measured width.
  const img = decodePng(
    renderPng(
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><rect width="200" height="40" fill="#000"/><text x="10" y="30" font-size="20" fill="#fff">龙币한국</text></svg>`,
    ),
  );
  let right = 0;
  for (let i = 0; i < img.rgba.length; i += 4) if (img.rgba[i]! > 64) right = Math.max(right, (i / 4) % img.width);
  const measured = 10 + textWidth('龙币한국', 20);
  assert.ok(right <= measured && right > measured - 6, `ink ends at ${right}, measured ${measured}`);
});

test('a chart with a Chinese and a Korean token name and a Russian display name shows the characters, not boxes', () => {
  const base = sampleMomentum(2, 4);
  const input = {
    ...base,
    title: 'Дмитрий Криптонов',
    tokens: [
      { ...base.tokens[0]!, symbol: '龙币' },
      { ...base.tokens[1]!, symbol: '한국토큰' },
    ],
  };
  const svg = momentumSvg(input);
  const shown = decodePng(renderPng(svg));
  const boxed = withoutFallbacks(() => decodePng(renderPng(svg)));
  const d = differing(shown, boxed);
  // Only the token names differ, and by whole glyphs: the legend under the plot, not the plot or the title.
  assert.ok(d.count > 150, `${d.count} pixels differ`);
  const legendTop = Number(/<rect x="16" y="([\d.]+)"[^>]*fill="#1a2030"/.exec(svg)![1]);
  assert.ok(d.minY > legendTop, `differences start at y ${d.minY}, the legend at ${legendTop}`);
  assert.ok(d.minY > 90, `the title row (Russian, DejaVu) is the same in both: differences start at y ${d.minY}`);
  // The Russian title is real Cyrillic in DejaVu, not boxes: each character has a glyph of its own.
  for (const ch of 'Дмитрий Криптонов'.replace(/ /g, '')) assert.ok(glyphFor(ch.codePointAt(0)!, true).glyph !== 0, ch);
  for (const file of FALLBACK_FILES) assert.match(file, /\.ttf$/);
});
