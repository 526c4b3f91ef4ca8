/**
 * Command path: /token and /kol through the real core against the sandbox with
 * a fixed added upstream latency. Overhead = total minus the time the upstream
 * was busy (the union of the call intervals), so parallel calls count once.
 */
import { createKolClient, type CallEvent } from '../src/api/index.ts';
import { createDispatcher } from '../src/core/dispatch.ts';
import { loadCommands } from '../src/core/registry.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { openStore } from '../src/store/index.ts';
import { ms, summary, type Row } from './stats.ts';
import { sharedChartPool } from '../src/views/charts/pool.ts';

const LATENCY = 20;

export async function benchCommands(iterations = 200): Promise<Row[]> {
  const sb = await startSandbox({ faults: { latencyMs: LATENCY } });
  const intervals: [number, number][] = [];
  const mk = (cache: boolean) =>
    createKolClient({
      baseUrl: sb.url,
      apiKey: sb.apiKey,
      ...(cache ? {} : { cacheTtlMs: false as const }),
      onCall: (e: CallEvent) => {
        if (e.outcome !== 'cache') {
          const end = performance.now();
          intervals.push([end - e.ms, end]);
        }
      },
    });
  const api = mk(false);
  const cached = mk(true);
  const store = await openStore('memory:');
  const commands = await loadCommands();
  const log = silentLogger();
  const limit = { count: 1e9, windowMs: 1000 };
  const d = createDispatcher({ charts: sharedChartPool(), commands, api, store, log, userLimit: limit });
  const dc = createDispatcher({ charts: sharedChartPool(), commands, api: cached, store, log, userLimit: limit });
  const caller = {
    platform: 'console' as const,
    userId: 'bench',
    chatId: 'bench',
    chatType: 'private' as const,
    canManage: async () => true,
  };
  const token = sb.data.tokens.find((t) => t.chain_id === 'solana')!;
  const kol = sb.data.kols[0]!;
  const lines = { token: `/token solana ${token.address}`, kol: `/kol @${kol.username}` };

  const busy = (from: number, to: number) => {
    const xs = intervals
      .filter(([s, e]) => e > from && s < to)
      .map(([s, e]) => [Math.max(s, from), Math.min(e, to)] as [number, number])
      .sort((a, b) => a[0] - b[0]);
    let total = 0;
    let cur: [number, number] | undefined;
    for (const x of xs) {
      if (!cur || x[0] > cur[1]) {
        if (cur) total += cur[1] - cur[0];
        cur = [...x];
      } else cur[1] = Math.max(cur[1], x[1]);
    }
    return total + (cur ? cur[1] - cur[0] : 0);
  };

  const rows: Row[] = [];
  // "One upstream call": the slower of the two calls the card makes, each timed alone.
  const timeOne = async (call: () => Promise<unknown>) => {
    const xs: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await call();
      xs.push(performance.now() - t0);
    }
    return summary(xs).p50;
  };
  const oneUpstream = Math.max(
    await timeOne(() => api.getTokenAnalytics({ tokenAddress: token.address, chainId: 'solana', limit: 20 })),
    await timeOne(() => api.getTweetsByToken({ chainId: 'solana', tokenAddress: token.address, limit: 4 })),
  );
  for (const [name, line] of Object.entries(lines)) {
    for (let i = 0; i < 20; i++) await d.text(line, caller); // warm up JIT and connections
    const totals: number[] = [];
    const overheads: number[] = [];
    for (let i = 0; i < iterations; i++) {
      intervals.length = 0;
      const t0 = performance.now();
      const view = await d.text(line, caller);
      const t1 = performance.now();
      if (view?.kind === 'error') throw new Error(`${line}: ${view.message}`);
      totals.push(t1 - t0);
      overheads.push(t1 - t0 - busy(t0, t1));
    }
    const tot = summary(totals);
    const ov = summary(overheads);
    rows.push({ area: 'command', metric: `/${name} total p50 / p99`, value: `${ms(tot.p50)} / ${ms(tot.p99)}` });
    rows.push({
      area: 'command',
      metric: `/${name} overhead p50 / p99`,
      value: `${ms(ov.p50, 3)} / ${ms(ov.p99, 3)}`,
      target: 'p99 < 2 ms',
      ok: ov.p99 < 2,
    });
    if (name === 'token') {
      const ratio = tot.p50 / oneUpstream;
      rows.push({
        area: 'command',
        metric: '/token (2 parallel calls) vs its slower call alone',
        value: `${ratio.toFixed(3)}x (${ms(oneUpstream)})`,
        target: '< 1.1x',
        ok: ratio < 1.1,
      });
    }
    const hits: number[] = [];
    await dc.text(line, caller);
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      await dc.text(line, caller);
      hits.push(performance.now() - t0);
    }
    const h = summary(hits);
    rows.push({ area: 'command', metric: `/${name} cache hit p50 / p99`, value: `${ms(h.p50, 3)} / ${ms(h.p99, 3)}` });
  }
  // Sandbox server time per typical request (moved here from a timed test): an accidental O(n^2) shows at once.
  sb.clearFaults();
  const kolId = sb.data.kols[0]!.twitter_id;
  const paths = [
    '/v2/tweets',
    '/v2/tokens/analytics',
    '/v2/x-users/analytics',
    `/v2/x-users/${kolId}/tokens`,
    '/v2/x-users/win-rate',
    `/v2/x-users/${kolId}/score`,
  ];
  sb.resetRequests();
  for (let i = 0; i < 240; i++)
    await fetch(`${sb.url}${paths[i % paths.length]}`, { headers: { 'x-api-key': sb.apiKey } }).then((r) =>
      r.arrayBuffer(),
    );
  const server = summary(sb.requests.slice(paths.length).map((r) => r.ms));
  rows.push({
    area: 'command',
    metric: 'sandbox server time per typical request p50 / p99',
    value: `${ms(server.p50, 3)} / ${ms(server.p99, 3)}`,
    target: 'p50 < 1 ms',
    ok: server.p50 < 1,
  });
  await api.close();
  await cached.close();
  await store.close();
  await sb.close();
  return rows;
}
