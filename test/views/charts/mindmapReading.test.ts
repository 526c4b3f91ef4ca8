// The token map as a reader on a phone takes it in: no line runs across a token it does not link
// (it would read as a link), every link is visible, and a key says what a circle's size and a line's
// width stand for. (Labels at least 11 px tall on a phone: phone.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mindmapLayout, mindmapSvg } from '../../../src/views/charts/index.ts';
import { sampleMindmap } from '../../../src/views/charts/samples.ts';
import { chartWords } from '../../../src/views/cards/pictureInputs.ts';
import { translator } from '../../../src/i18n/index.ts';
import { textContents } from './svgCheck.ts';

type P = { x: number; y: number };
const along = (p: P, q: P, c: P | undefined, t: number): P => {
  const k = c ?? { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
  return {
    x: (1 - t) ** 2 * p.x + 2 * (1 - t) * t * k.x + t ** 2 * q.x,
    y: (1 - t) ** 2 * p.y + 2 * (1 - t) * t * k.y + t ** 2 * q.y,
  };
};

test('no line crosses a token it does not link, at 8 to 50 tokens', () => {
  for (const [count, seed] of [
    [8, 1],
    [12, 2],
    [20, 1],
    [20, 2],
    [21, 3],
    [30, 1],
    [50, 2],
  ] as const) {
    const layout = mindmapLayout(sampleMindmap(count, seed));
    const crossings: string[] = [];
    for (const e of layout.edges) {
      const p = { x: e.x1, y: e.y1 };
      const q = { x: e.x2, y: e.y2 };
      for (const n of layout.nodes) {
        if (n.id === e.source || n.id === e.target) continue;
        for (let i = 0; i <= 200; i++) {
          const a = along(p, q, e.bend, i / 200);
          if (Math.hypot(a.x - n.x, a.y - n.y) < n.r) {
            crossings.push(`${e.source}-${e.target} across ${n.id}`);
            break;
          }
        }
      }
    }
    assert.deepEqual(crossings, [], `${count} tokens, seed ${seed}`);
    // The spokes are all there: every linked token keeps its line to the centre.
    const spokes = layout.edges.filter((e) => e.touchesCenter).length;
    assert.equal(spokes, layout.nodes.length - 1);
  }
});

test('every link is at least 1 px wide and clearly opaque on a 390 px phone', () => {
  const layout = mindmapLayout(sampleMindmap(30, 4));
  for (const e of layout.edges) {
    assert.ok((e.width * 390) / layout.width >= 1, `${e.source}-${e.target}: ${e.width} px`);
    assert.ok(e.opacity >= 0.4, `${e.source}-${e.target}: opacity ${e.opacity}`);
  }
});

test('a key under the map says what size and width stand for, with their ranges, in the reader’s language', () => {
  const input = sampleMindmap(12, 6);
  const layout = mindmapLayout(input);
  const values = layout.nodes.filter((n) => !n.center).map((n) => n.value);
  const links = layout.edges.map((e) => e.value);
  const en = textContents(mindmapSvg(input));
  assert.ok(en.includes(`circle size: token weight, ${Math.min(...values)} to ${Math.max(...values)}`), en.join(' | '));
  assert.ok(en.includes(`line width: link strength, ${Math.min(...links)} to ${Math.max(...links)}`), en.join(' | '));
  assert.ok(!en.some((t) => t.includes('= value')), 'no "size = value" left in the subtitle');
  const es = textContents(mindmapSvg({ ...input, words: chartWords(translator('es')) }));
  assert.ok(
    es.some((t) => t.startsWith('tamaño del círculo: peso del token')),
    es.join(' | '),
  );
});
