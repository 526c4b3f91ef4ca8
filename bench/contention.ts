/**
 * Pictures must not stall everyone else: p99 of a text-only command (/token
 * without its picture) idle, then while 20 picture commands (/mindmap, 50
 * nodes, every one a cache miss) are drawn concurrently, in the worker pool and,
 * for comparison, on the main thread as before the pool.
 */
import { createKolClient } from '../src/api/index.ts';
import type { Caller } from '../src/core/command.ts';
import { createDispatcher } from '../src/core/dispatch.ts';
import { loadCommands } from '../src/core/registry.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { openStore } from '../src/store/index.ts';
import { drawChart } from '../src/views/charts/draw.ts';
import type { ChartPool } from '../src/domain/charts.ts';
import { createChartPool } from '../src/views/charts/pool.ts';
import { ms, summary, type Row } from './stats.ts';

const CONCURRENT = 20;
/** More distinct requests than an app's picture cache holds (50), cycled in order: every draw would miss it. */
const DISTINCT = 64;

export async function benchContention(iterations = 400): Promise<Row[]> {
  const sb = await startSandbox({ live: false });
  // Picture commands read a warm API cache, so the load is the drawing alone.
  const cached = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheMaxEntries: 1_000 });
  const uncached = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const store = await openStore('memory:');
  const commands = await loadCommands();
  const pool = createChartPool();
  const inline: ChartPool = {
    draw: async (kind, input) => drawChart(kind, input),
    stats: () => ({ running: 0, queued: 0, refused: 0 }),
    close: async () => {},
  };
  const mk = (api: typeof cached, charts: ChartPool) =>
    createDispatcher({ commands, api, store, log: silentLogger(), userLimit: { count: 1e9, windowMs: 1000 }, charts });
  const caller: Caller = {
    platform: 'console',
    userId: 'bench',
    chatId: 'bench',
    chatType: 'private',
    canManage: async () => true,
  };
  const text = { capabilities: { pictures: false, buttons: true } };
  const pics = { capabilities: { pictures: true, buttons: true } };

  const { tokens, tweets } = sb.data;
  const mentions = new Map<number, number>();
  for (const t of tweets) for (const id of t.tokenIds) mentions.set(id, (mentions.get(id) ?? 0) + 1);
  const big = tokens
    .filter((t) => t.chain_id === 'solana')
    .sort((a, b) => (mentions.get(b.id) ?? 0) - (mentions.get(a.id) ?? 0))[0]!;
  const pictureLines = Array.from(
    { length: DISTINCT },
    (_, i) => `/mindmap solana ${big.address} hours:${700 - i} limit:50`,
  );
  // The burst has lines of its own, so none would be in a picture cache yet.
  const burstLines = Array.from(
    { length: CONCURRENT },
    (_, i) => `/mindmap solana ${big.address} hours:${300 - i} limit:50`,
  );
  const textLine = `/token solana ${tokens.find((t) => t.chain_id === 'solana' && t !== big)!.address}`;

  const textOnly = mk(uncached, pool);
  /** Times the text command; answers that are errors (timed out upstream calls) are counted too. */
  const timeText = async (n = iterations) => {
    const xs: number[] = [];
    let failed = 0;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const v = await textOnly.text(textLine, caller, text);
      xs.push(performance.now() - t0);
      if (!v || v.kind === 'error') failed++;
    }
    return { xs, failed };
  };
  /** Keeps CONCURRENT picture commands in flight until `run` settles; counts pictures drawn. */
  const underLoad = async (charts: ChartPool, n: number) => {
    const d = mk(cached, charts);
    let stop = false;
    let next = 0;
    let drawn = 0;
    let without = 0;
    const loops = Array.from({ length: CONCURRENT }, async () => {
      while (!stop) {
        const v = await d.text(pictureLines[next++ % DISTINCT]!, caller, pics);
        if (v && v.kind !== 'error' && v.picture) drawn++;
        else without++;
      }
    });
    // Let every loop have its first picture under way before timing.
    await new Promise((r) => setImmediate(r));
    const { xs, failed } = await timeText(n);
    stop = true;
    await Promise.all(loops);
    return { xs, failed, drawn, without };
  };

  /**
   * The old way, for comparison: one burst of CONCURRENT pictures drawn on the
   * main thread, timing the text command until the burst is done (continuous
   * load would hold it for seconds).
   */
  const burst = async (charts: ChartPool) => {
    const d = mk(cached, charts);
    let done = false;
    let drawn = 0;
    const all = Promise.all(
      burstLines.map(async (l) => ((await d.text(l, caller, pics))?.kind !== 'error' ? drawn++ : 0)),
    ).then(() => (done = true));
    const xs: number[] = [];
    let failed = 0;
    while (!done) {
      const r = await timeText(1);
      xs.push(...r.xs);
      failed += r.failed;
    }
    await all;
    return { xs, failed, drawn };
  };

  try {
    for (const line of [...pictureLines, ...burstLines]) await mk(cached, inline).text(line, caller, text); // warm the API cache
    for (let i = 0; i < 20; i++) await textOnly.text(textLine, caller, text); // JIT, connections
    await Promise.all(pictureLines.slice(0, 4).map((l) => mk(cached, pool).text(l, caller, pics))); // start the workers

    const idle = summary((await timeText()).xs);
    const pooled = await underLoad(pool, iterations);
    const main = await burst(inline);
    const p = summary(pooled.xs);
    const m = summary(main.xs);
    const goal = 1.5 * idle.p99 + 5;
    return [
      {
        area: 'contention',
        metric: `text command (${textLine.split(' ')[0]}, no picture) idle p50 / p99`,
        value: `${ms(idle.p50)} / ${ms(idle.p99)}`,
      },
      {
        area: 'contention',
        metric: `same, ${CONCURRENT} pictures drawing in the worker pool p50 / p99 (${pooled.drawn} drawn, ${pooled.without} without, ${pooled.failed} text errors)`,
        value: `${ms(p.p50)} / ${ms(p.p99)}`,
        target: `p99 < 1.5x idle + 5 ms (${ms(goal)})`,
        ok: p.p99 < goal && pooled.failed === 0,
      },
      {
        area: 'contention',
        metric: `same, a burst of ${CONCURRENT} pictures drawn on the main thread (no pool) p50 / max (${main.drawn} drawn, ${main.xs.length} runs)`,
        value: `${ms(m.p50)} / ${ms(Math.max(...main.xs))}`,
      },
    ];
  } finally {
    await pool.close();
    await cached.close();
    await uncached.close();
    await store.close();
    await sb.close();
  }
}

// Runs on its own too: node bench/contention.ts
if (import.meta.main) {
  const { printTable } = await import('./stats.ts');
  process.stdout.write(`${printTable(await benchContention())}\n`);
}
