/**
 * Deterministic chart inputs shaped like real API answers, for the chart
 * timing script (scripts/bench-charts.ts) and the chart tests. Seeded, so
 * every run draws the same picture. (The sandbox makes its own data.)
 */
import type { MindmapInput } from './mindmapLayout.ts';
import type { MomentumInput } from './momentum.ts';
import type { WinRateInput } from './winRate.ts';
import { WINDOWS } from './windows.ts';

/** mulberry32: tiny, fast, good enough for sample data. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYMBOLS = [
  'PEPE',
  'WIF',
  'BONK',
  'POPCAT',
  'MOODENG',
  'FARTCOIN',
  'GIGA',
  'JUP',
  'PNUT',
  'GOAT',
  'MEW',
  'BOME',
  'SLERF',
  'MYRO',
  'TRUMP',
  'AI16Z',
  'ZEREBRO',
  'GRIFFAIN',
  'CHILLGUY',
  'SPX',
  'RETARDIO',
  'MICHI',
  'PONKE',
  'WEN',
  'SAMO',
  'NEIRO',
  'ACT',
  'LUCE',
  'FWOG',
  'HARAMBE',
  'USDC',
  'SOL',
  'RAY',
  'ORCA',
  'DRIFT',
  'KMNO',
  'TNSR',
  'PYTH',
  'JTO',
  'W',
  'BODEN',
  'TREMP',
  'DADDY',
  'MOTHER',
  'SIGMA',
  'BILLY',
  'SELFIE',
  'LOCKIN',
  'KEKIUS',
  'ANDY',
  'BRETT',
  'TOSHI',
  'DEGEN',
  'MOG',
  'TURBO',
  'APU',
  'HOPPY',
  'LADYS',
  'WOJAK',
  'BITCOIN',
];

export function sampleMindmap(count: number, seed = 1): MindmapInput {
  const rnd = seeded(seed);
  const ids = Array.from({ length: count }, (_, i) => String(1000 + i * 7));
  const nodes = ids.map((id, i) => ({ id, value: i === 0 ? 900 : Math.round(5 + 800 * rnd() ** 2) }));
  const edges: { source: string; target: string; value: number }[] = [];
  for (let i = 1; i < count; i++)
    edges.push({ source: ids[0]!, target: ids[i]!, value: Math.round(1 + 120 * rnd() ** 1.5) });
  for (let k = 0; k < count; k++) {
    const a = ids[1 + Math.floor(rnd() * (count - 1))]!;
    const b = ids[1 + Math.floor(rnd() * (count - 1))]!;
    if (a !== b) edges.push({ source: a, target: b, value: Math.round(1 + 40 * rnd()) });
  }
  const tokens: Record<string, { symbol: string; name: string }> = {};
  ids.forEach((id, i) => {
    const symbol = SYMBOLS[i % SYMBOLS.length]! + (i >= SYMBOLS.length ? String(i) : '');
    tokens[id] = { symbol, name: `${symbol} token` };
  });
  return { centerId: ids[0]!, nodes, edges, tokens };
}

export function sampleWinRate(seed = 2): WinRateInput {
  const rnd = seeded(seed);
  const summary = Object.fromEntries(
    WINDOWS.map((w, i) => [w, Math.min(1, Math.max(0, 0.35 + 0.03 * i + (rnd() - 0.5) * 0.2))]),
  ) as WinRateInput['summary'];
  return {
    title: '@cryptokol · win rate after shill',
    summary,
    scores: [
      { label: 'Score v2', value: '78.4' },
      { label: 'Rank', value: '#12' },
      { label: 'Accuracy', value: '71.2' },
      { label: 'Engagement', value: '64.9' },
      { label: 'Speed', value: '82.0' },
      { label: 'Tokens shilled', value: '143' },
    ],
  };
}

export function sampleMomentum(count = 8, seed = 3): MomentumInput {
  const rnd = seeded(seed);
  return {
    title: '@cryptokol · price after shill',
    tokens: Array.from({ length: count }, (_, i) => {
      const init = (rnd() * 10 ** -(2 + Math.floor(rnd() * 8))).toPrecision(6);
      let level = 1;
      const after: Record<string, string | null> = {};
      for (const w of WINDOWS) {
        level *= Math.exp((rnd() - 0.48) * 0.6);
        after[w] = (Number(init) * level).toPrecision(6);
      }
      return { symbol: SYMBOLS[(i * 3) % SYMBOLS.length]!, priceInit: init, after };
    }),
  };
}
