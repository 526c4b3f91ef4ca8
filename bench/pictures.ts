/**
 * Pictures: time to draw each one (chart input, SVG and PNG) from real sandbox
 * answers, bypassing the image cache, as a command pays it on a cache miss
 * (drawn RASTER_WIDTH wide, as the render workers draw them).
 */
import { translator } from '../src/i18n/index.ts';
import { createKolClient } from '../src/api/index.ts';
import { mindmapChart, momentumChart, priceStripChart, winRateChart } from '../src/views/cards/pictureInputs.ts';
import { mindmapSvg, momentumSvg, priceStripSvg, renderPng, winRateSvg } from '../src/views/charts/index.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { RASTER_WIDTH } from '../src/views/charts/draw.ts';
import { ms, summary, type Row } from './stats.ts';

const MINDMAP_BUDGET_MS = 200;

export async function benchPictures(runs = 20): Promise<Row[]> {
  const sb = await startSandbox({ live: false });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  try {
    const { tokens, tweets, kols, shills } = sb.data;
    const mentions = new Map<number, number>();
    for (const t of tweets) for (const id of t.tokenIds) mentions.set(id, (mentions.get(id) ?? 0) + 1);
    const token = tokens
      .filter((t) => t.chain_id === 'solana')
      .sort((a, b) => (mentions.get(b.id) ?? 0) - (mentions.get(a.id) ?? 0))[0]!;
    const shillCount = (id: number) => shills.filter((s) => s.kolId === id).length;
    const kol = kols.reduce((best, k) => (shillCount(k.id) > shillCount(best.id) ? k : best));
    const resolved = { xUserId: kol.twitter_id, username: kol.username, row: undefined };

    const mindmap = async (limit: number) => {
      const graph = await api.getTokenMindmap({ chainId: 'solana', address: token.address, timeFrame: 720, limit });
      const centre = Object.values(graph.tokens).find((t) => t.address === token.address);
      return { graph, centre };
    };
    const [small, big, score, momentum, analytics] = await Promise.all([
      mindmap(10),
      mindmap(50),
      api.getKolScore({ xUserId: kol.twitter_id }),
      api.getKolTokens({ xUserId: kol.twitter_id, sortField: '24h', sortOrder: 'DESC' }),
      api.getTokenAnalytics({ tokenAddress: token.address, chainId: 'solana', limit: 5 }),
    ]);
    const item = analytics.items.find((i) => i.token.address === token.address)!;
    const now = Date.now();
    const en = translator('en');
    const moves = momentumChart('bench', momentum.items.slice(0, 10), '24h', now, en);

    const cases: [name: string, nodes: number | undefined, draw: () => Uint8Array][] = [
      [
        `mindmap ${small.graph.nodes.length} nodes`,
        small.graph.nodes.length,
        () => renderPng(mindmapSvg(mindmapChart(small.graph, small.centre, 720, en)), { width: RASTER_WIDTH }),
      ],
      [
        `mindmap ${big.graph.nodes.length} nodes`,
        big.graph.nodes.length,
        () => renderPng(mindmapSvg(mindmapChart(big.graph, big.centre, 720, en)), { width: RASTER_WIDTH }),
      ],
      [
        'win rate + scores',
        undefined,
        () => renderPng(winRateSvg(winRateChart({ kol: resolved, score, momentum }, en)), { width: RASTER_WIDTH }),
      ],
      [
        `momentum ${moves.tokens.length} tokens`,
        undefined,
        () =>
          renderPng(momentumSvg(momentumChart('bench', momentum.items.slice(0, 10), '24h', now, en)), {
            width: RASTER_WIDTH,
          }),
      ],
      [
        'price line',
        undefined,
        () =>
          renderPng(
            priceStripSvg(priceStripChart(item, en) ?? { symbol: 'X', changes: { m5: 1, h1: -2, h4: 3, h24: 4 } }),
            { width: RASTER_WIDTH },
          ),
      ],
    ];
    const rows: Row[] = [];
    for (const [name, nodes, draw] of cases) {
      // Warm-up: the font is parsed and the code paths compiled on first use.
      for (let i = 0; i < 2; i++) draw();
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        bytes = draw().byteLength;
        times.push(performance.now() - t0);
      }
      const s = summary(times);
      const gated = nodes !== undefined && nodes >= 50;
      rows.push({
        area: 'pictures',
        metric: `${name} SVG+PNG p50 / p99 (${(bytes / 1024).toFixed(0)} KB)`,
        value: `${ms(s.p50)} / ${ms(s.p99)}`,
        ...(gated ? { target: `< ${MINDMAP_BUDGET_MS} ms`, ok: s.p50 < MINDMAP_BUDGET_MS } : {}),
      });
    }
    return rows;
  } finally {
    await api.close();
    await sb.close();
  }
}

// Runs on its own too: node bench/pictures.ts
if (import.meta.main) {
  const { printTable } = await import('./stats.ts');
  process.stdout.write(`${printTable(await benchPictures())}\n`);
}
