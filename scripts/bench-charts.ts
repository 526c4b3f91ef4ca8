/**
 * Time to draw each chart: building the SVG, and rasterising it to PNG.
 * Usage: node scripts/bench-charts.ts [runs=25] [--check]
 * With --check it exits 1 when a 50-node mindmap (SVG + PNG) takes 200 ms or more.
 */
import { mindmapSvg, momentumSvg, priceStripSvg, renderPng, winRateSvg } from '../src/views/charts/index.ts';
import { sampleMindmap, sampleMomentum, sampleWinRate } from '../src/views/charts/samples.ts';

const runs = Math.max(1, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 25));
const check = process.argv.includes('--check');
const BUDGET_MS = 200;

const cases: [string, () => string][] = [
  ['mindmap 20 nodes', () => mindmapSvg(sampleMindmap(20, 1))],
  ['mindmap 50 nodes', () => mindmapSvg(sampleMindmap(50, 1))],
  ['win rate', () => winRateSvg(sampleWinRate())],
  ['momentum 8 tokens', () => momentumSvg(sampleMomentum(8))],
  ['price strip', () => priceStripSvg({ symbol: 'PEPE', changes: { m5: 1.2, h1: -3.4, h4: 12.5, h24: -40.1 } })],
];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

// Warm up: font tables are read and parsed on first use.
for (const [, draw] of cases) renderPng(draw());

const rows: { name: string; svg: number; png: number; total: number; min: number; kb: number }[] = [];
for (const [name, draw] of cases) {
  const svgT: number[] = [];
  const pngT: number[] = [];
  const totalT: number[] = [];
  let size = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const svg = draw();
    const t1 = performance.now();
    size = renderPng(svg).byteLength;
    const t2 = performance.now();
    svgT.push(t1 - t0);
    pngT.push(t2 - t1);
    totalT.push(t2 - t0);
  }
  rows.push({
    name,
    svg: median(svgT),
    png: median(pngT),
    total: median(totalT),
    min: Math.min(...totalT),
    kb: size / 1024,
  });
}

const pad = (s: string, n: number): string => s.padStart(n);
console.log(`chart timings, median of ${runs} runs (Node ${process.version})`);
// The minimum shows the cost on an idle machine; the median includes whatever else the host was doing.
console.log(
  `${'picture'.padEnd(20)}${pad('svg ms', 9)}${pad('png ms', 9)}${pad('total ms', 10)}${pad('min ms', 9)}${pad('png KB', 9)}`,
);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(20)}${pad(r.svg.toFixed(2), 9)}${pad(r.png.toFixed(2), 9)}${pad(r.total.toFixed(2), 10)}${pad(r.min.toFixed(2), 9)}${pad(r.kb.toFixed(0), 9)}`,
  );
}
const big = rows.find((r) => r.name === 'mindmap 50 nodes')!;
const ok = big.total < BUDGET_MS;
console.log(
  `mindmap 50 nodes: median ${big.total.toFixed(1)} ms, min ${big.min.toFixed(1)} ms (budget ${BUDGET_MS} ms) ${ok ? 'OK' : 'OVER BUDGET'}`,
);
if (check && !ok) process.exitCode = 1;
