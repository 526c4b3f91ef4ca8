import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mindmapLayout, mindmapSvg, renderPng } from '../../../src/views/charts/index.ts';
import type { MindmapInput, MindmapLayout } from '../../../src/views/charts/index.ts';
import { sampleMindmap } from '../../../src/views/charts/samples.ts';
import { decodePng, looksDrawn } from './png.ts';
import { externalReferences, textContents } from './svgCheck.ts';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function overlappingPairs(layout: MindmapLayout): string[] {
  const shown = layout.labels.filter((l) => l.visible);
  const pairs: string[] = [];
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++)
      if (overlap(shown[i]!, shown[j]!)) pairs.push(`${shown[i]!.text} / ${shown[j]!.text}`);
  }
  return pairs;
}

function withSymbols(input: MindmapInput, symbol: (i: number) => string): MindmapInput {
  const tokens: Record<string, { symbol: string; name: string }> = {};
  Object.keys(input.tokens).forEach((id, i) => {
    tokens[id] = { symbol: symbol(i), name: `Name ${i}` };
  });
  return { ...input, tokens };
}

test('at 20 nodes every token is labelled with its symbol and no two labels overlap', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const input = sampleMindmap(20, seed);
    const layout = mindmapLayout(input);
    assert.equal(layout.nodes.length, 20);
    assert.ok(
      layout.labels.every((l) => l.visible),
      `seed ${seed}: a label was hidden`,
    );
    assert.deepEqual(overlappingPairs(layout), [], `seed ${seed}`);
    for (const l of layout.labels) {
      assert.ok(
        l.x >= 0 && l.y >= 0 && l.x + l.width <= layout.width && l.y + l.height <= layout.height,
        `label ${l.text} off canvas`,
      );
    }
    const texts = textContents(mindmapSvg(input));
    for (const t of Object.values(input.tokens)) assert.ok(texts.includes(t.symbol), `missing label ${t.symbol}`);
  }
});

test('at 20 nodes labels also keep off the other circles', () => {
  for (const seed of [1, 2, 3, 4]) {
    const layout = mindmapLayout(sampleMindmap(20, seed));
    for (const l of layout.labels) {
      for (const n of layout.nodes) {
        if (n.id === l.id) continue;
        const nx = Math.max(l.x, Math.min(n.x, l.x + l.width));
        const ny = Math.max(l.y, Math.min(n.y, l.y + l.height));
        assert.ok((nx - n.x) ** 2 + (ny - n.y) ** 2 >= n.r ** 2, `seed ${seed}: label ${l.text} covers node ${n.id}`);
      }
    }
  }
});

test('long symbols at 20 nodes are cut with an ellipsis and still do not overlap', () => {
  const input = withSymbols(sampleMindmap(20, 9), (i) => `VERYLONGSYMBOLNAME${i}WITHMORE`);
  const layout = mindmapLayout(input);
  assert.deepEqual(overlappingPairs(layout), []);
  assert.ok(layout.labels.every((l) => l.visible));
  const cut = layout.labels.filter((l) => l.text.endsWith('…'));
  assert.ok(cut.length >= 19, `only ${cut.length} labels were cut`);
  assert.ok(layout.labels.every((l) => l.width <= 230));
});

test('at 50 nodes labels never overlap and nearly all are shown', () => {
  for (const seed of [1, 2, 3]) {
    const layout = mindmapLayout(sampleMindmap(50, seed));
    assert.equal(layout.nodes.length, 50);
    assert.deepEqual(overlappingPairs(layout), []);
    const shown = layout.labels.filter((l) => l.visible).length;
    assert.ok(shown >= 45, `seed ${seed}: only ${shown} of 50 labels shown`);
  }
});

test('the queried token sits in the middle, largest, and highlighted', () => {
  const input = sampleMindmap(20, 4);
  const layout = mindmapLayout(input);
  const centre = layout.nodes.find((n) => n.center)!;
  assert.equal(centre.id, input.centerId);
  assert.ok(Math.abs(centre.x - layout.width / 2) < 1);
  assert.ok(Math.abs(centre.y - (layout.plot.y + layout.plot.height / 2)) < 1);
  for (const n of layout.nodes) if (!n.center) assert.ok(n.r < centre.r);
  const svg = mindmapSvg(input);
  assert.match(svg, /<circle cx="450" cy="[\d.]+" r="[\d.]+" fill="#f5b942" stroke=/);
});

test('circle size follows value on a sqrt scale and edge width follows link value', () => {
  const layout = mindmapLayout(sampleMindmap(30, 5));
  const others = layout.nodes.filter((n) => !n.center).sort((a, b) => a.value - b.value);
  for (let i = 1; i < others.length; i++) assert.ok(others[i]!.r >= others[i - 1]!.r);
  const big = others[others.length - 1]!;
  const mid = others.find((n) => n.value >= big.value / 4 && n.value <= big.value / 3);
  if (mid) {
    const rMin = 4;
    const ratio = (mid.r - rMin) / (big.r - rMin);
    assert.ok(Math.abs(ratio - Math.sqrt(mid.value / big.value)) < 0.01);
  }
  const edges = [...layout.edges].sort((a, b) => a.value - b.value);
  for (let i = 1; i < edges.length; i++) {
    assert.ok(edges[i]!.width >= edges[i - 1]!.width);
    assert.ok(edges[i]!.opacity >= edges[i - 1]!.opacity);
  }
});

test('the same input always gives the same picture', () => {
  assert.equal(mindmapSvg(sampleMindmap(35, 8)), mindmapSvg(sampleMindmap(35, 8)));
});

test('hostile token text is escaped and the image still renders', () => {
  const input = withSymbols(sampleMindmap(6, 2), (i) => (i === 1 ? `<script>&"'` : `T${i}`));
  const svg = mindmapSvg({ ...input, title: '</svg><image href="http://evil.test/x.png"/>' });
  assert.doesNotMatch(svg, /<script/);
  assert.doesNotMatch(svg, /<image/);
  assert.ok(svg.includes('&lt;script&gt;&amp;&quot;&#39;'));
  assert.ok(textContents(svg).includes(`<script>&"'`));
  assert.deepEqual(externalReferences(svg), []);
  assert.ok(looksDrawn(decodePng(renderPng(svg))));
});

test('control characters and broken surrogates cannot break the XML', () => {
  const input = withSymbols(sampleMindmap(5, 3), (i) => ['A\u0000B', '\uD800X', 'C\u202ED', '\u0007', 'E\nF'][i]!);
  const svg = mindmapSvg(input);
  assert.doesNotMatch(svg, /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  const png = decodePng(renderPng(svg));
  assert.equal(png.width, 900);
  const texts = textContents(svg);
  assert.ok(texts.includes('AB'));
  assert.ok(texts.includes('E F'));
});

test('CJK and emoji symbols render without throwing; emoji the font lacks are dropped', () => {
  // Devanagari is a script no shipped face draws (CJK now has fallback faces: see cjk.test.ts).
  const symbols = ['कुत्ता', '🐸PEPE', '🚀🚀', 'Ωmega', '👨‍👩‍👧', '柴犬🐕', 'ДОГЕ', '🇺🇸USA'];
  const input = withSymbols(sampleMindmap(9, 4), (i) => symbols[i % symbols.length]!);
  const svg = mindmapSvg(input);
  const texts = textContents(svg);
  assert.ok(texts.includes('PEPE'), 'emoji prefix dropped');
  assert.ok(texts.includes('Ωmega') && texts.includes('ДОГЕ') && texts.includes('USA'));
  assert.ok(texts.includes('柴犬'), 'CJK is drawable: kept, its emoji dropped');
  assert.ok(texts.includes('Name 2'), 'emoji-only symbol falls back to the name');
  assert.ok(texts.includes('Name 0'), 'a symbol the font cannot draw falls back to a drawable name');
  const img = decodePng(renderPng(svg));
  assert.equal(img.width, 900);
  assert.equal(img.height, 900);
  assert.ok(looksDrawn(img));
});

test('CJK with no alternative is kept instead of vanishing', () => {
  const input: MindmapInput = {
    centerId: '1',
    nodes: [
      { id: '1', value: 5 },
      { id: '2', value: 3 },
    ],
    edges: [{ source: '1', target: '2', value: 1 }],
    tokens: { '1': { symbol: '中', name: '中文' }, '2': { symbol: '', name: '' } },
  };
  const svg = mindmapSvg(input);
  assert.ok(textContents(svg).includes('中'));
  assert.ok(textContents(svg).includes('#2'), 'a token with no text is labelled by id');
  renderPng(svg);
});

test('odd graphs: missing centre, unknown edge ends, numeric ids, empty graph, huge graph', () => {
  const lonely = mindmapLayout({
    centerId: 7,
    nodes: [],
    edges: [{ source: 7, target: 99, value: 3 }],
    tokens: { '7': { symbol: 'SEVEN', name: 'Seven' } },
  });
  assert.equal(lonely.nodes.length, 1);
  assert.equal(lonely.edges.length, 0);
  const svg = mindmapSvg({ centerId: 7, nodes: [], edges: [], tokens: {} });
  assert.ok(textContents(svg).includes('No linked tokens yet'));
  renderPng(svg);

  const numeric = mindmapLayout({
    centerId: 1,
    nodes: [
      { id: 2, value: 10 },
      { id: 3, value: Number.NaN },
      { id: 2, value: 4 },
    ],
    edges: [
      { source: 1, target: 2, value: 5 },
      { source: 2, target: 1, value: 5 },
      { source: 3, target: 3, value: 9 },
    ],
    tokens: {},
  });
  assert.deepEqual(
    numeric.nodes.map((n) => n.id),
    ['1', '2', '3'],
  );
  assert.equal(numeric.edges.length, 1);
  assert.equal(numeric.edges[0]!.value, 10, 'both directions merged');

  const big = sampleMindmap(200, 6);
  const layout = mindmapLayout(big);
  assert.equal(layout.nodes.length, 60);
  assert.equal(layout.totalNodes, 200);
  assert.match(mindmapSvg(big), /strongest 59 of 199/);
});

test('a 20 and a 50 node map rasterise to real 900x900 pictures with no remote references', () => {
  for (const n of [20, 50]) {
    const svg = mindmapSvg(sampleMindmap(n, 1));
    assert.deepEqual(externalReferences(svg), []);
    const img = decodePng(renderPng(svg));
    assert.equal(img.width, 900);
    assert.equal(img.height, 900);
    assert.ok(looksDrawn(img));
  }
});
