/**
 * The community pages (#40): a board page served at 200 requests/s over HTTP,
 * from the page cache and built each time (p50 / p99), the call card preview
 * image cold (drawn) and cached, and a crawl of 100,000 made-up URLs: the
 * upstream requests it cost (target 0) and the heap it leaves (bounded by the
 * page cache, not by the URLs seen).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { createApp } from '../src/app.ts';
import { serveWeb } from '../src/app/web.ts';
import { loadConfig } from '../src/config.ts';
import { boardOf } from '../src/core/membercalls.ts';
import { silentLogger } from '../src/log.ts';
import { memberCall } from '../src/store/membercalls.ts';
import { PAGE_CACHE_ENTRIES, PAGE_TTL_MS } from '../src/web/site.ts';
import { ms, summary, type Row } from './stats.ts';

/** Requests at a steady rate (open loop: a slow answer does not slow the next request), each timed. */
async function atRate(perSecond: number, n: number, one: (i: number) => Promise<void>): Promise<number[]> {
  const times: Promise<number>[] = [];
  const gap = 1000 / perSecond;
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const due = start + i * gap;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const t0 = performance.now();
    times.push(one(i).then(() => performance.now() - t0));
  }
  return Promise.all(times);
}

export async function benchWeb(crawl = 100_000): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-bench-web-'));
  let clock = Date.now();
  const app = await createApp(loadConfig({ STORE_URL: `sqlite:${join(dir, 'web.sqlite')}` }), silentLogger(), {
    sandboxLiveRate: 0,
    dispatcher: { now: () => clock, userLimit: { count: 1e9, windowMs: 1000 } },
  });
  const web = await serveWeb({ url: undefined, host: '127.0.0.1', port: 0, fallbackPort: false }, app, silentLogger());
  try {
    // A busy board: 40 members, 5 calls each, over 100 tokens.
    const chat = '-1001';
    const board = boardOf('telegram', chat);
    await app.store.web.open('telegram', chat, 'bench', clock, 'Bench community');
    await app.store.members.setOn(board, true);
    const tokens = app.sandbox!.data.tokens.filter((t) => t.marketcap > 0).slice(0, 100);
    const ids: string[] = [];
    for (let m = 0; m < 40; m++)
      for (let k = 0; k < 5; k++) {
        const t = tokens[(m * 5 + k) % tokens.length]!;
        const call = memberCall({
          board,
          platform: 'telegram',
          chatId: chat,
          messageId: String(m * 5 + k),
          member: { id: String(m), name: `@member${m}` },
          token: { chain: t.chain_id, address: t.address, symbol: t.symbol, name: t.name },
          marketCap: t.marketcap,
          liquidity: t.liquidity,
          at: clock - (m * 5 + k) * 60_000,
          points: app.store.members.points,
          nonce: `${m}-${k}`,
        });
        const r = await app.store.members.call(call);
        if (r.kind === 'recorded') ids.push(r.call.id);
      }
    // Keep-alive connections, as a proxy in front of the bot holds them (not one connection per request).
    const pool = new Pool(web.url, { connections: 32 });
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const r = await pool.request({ method: 'GET', path, headers });
      await r.body.arrayBuffer();
      if (r.statusCode !== 200 && r.statusCode !== 304) throw new Error(`${path}: ${r.statusCode}`);
    };
    await get('/c/bench'); // warm: the first build, the code paths compiled
    // One request at a time: what a request costs the bot, without the queue an open loop builds on a busy machine.
    const alone: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t0 = performance.now();
      await get('/c/bench');
      alone.push(performance.now() - t0);
    }
    const serial = summary(alone);
    const cached = summary(await atRate(200, 2_000, () => get('/c/bench')));
    const built = summary(
      await atRate(200, 400, async () => {
        clock += PAGE_TTL_MS; // every request finds its page expired: built from the store
        await get('/c/bench?period=all');
      }),
    );
    const cold: number[] = [];
    for (const id of ids.slice(0, 20)) {
      const t0 = performance.now();
      await get(`/c/bench/call/${encodeURIComponent(id)}/card.png`);
      cold.push(performance.now() - t0);
    }
    const warm = summary(
      await atRate(200, 1_000, (i) => get(`/c/bench/call/${encodeURIComponent(ids[i % 20]!)}/card.png`)),
    );
    const coldS = summary(cold);

    // The crawl, in process (the site's own fetch: what a request costs the bot, not the HTTP client).
    const upstream = app.sandbox!.requests.length;
    const junk = () => randomBytes(6).toString('base64url');
    const shapes = [
      () => `/c/${junk()}`,
      () => `/c/bench/call/${junk()}`,
      () => `/c/bench/member/${junk()}`,
      () => `/c/bench?period=${junk()}&${junk()}=1`,
      () => `/${junk()}`,
    ];
    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < crawl; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, async (_, k) => {
          const r = await web.site.fetch(new Request(`http://bench${shapes[(i + k) % shapes.length]!()}`));
          await r.arrayBuffer();
        }),
      );
    await pool.close();
    (globalThis as { gc?: () => void }).gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
    return [
      {
        area: 'web',
        metric: 'board page, cached, one request at a time: p50 / p99',
        value: `${ms(serial.p50)} / ${ms(serial.p99)}`,
      },
      {
        area: 'web',
        metric: 'board page, cached, 200 req/s: p50 / p99',
        value: `${ms(cached.p50)} / ${ms(cached.p99)}`,
        target: 'p99 < 20 ms',
        ok: cached.p99 < 20,
      },
      {
        area: 'web',
        metric: 'board page, built each time, 200 req/s: p50 / p99',
        value: `${ms(built.p50)} / ${ms(built.p99)}`,
        target: 'p99 < 100 ms',
        ok: built.p99 < 100,
      },
      { area: 'web', metric: 'call card PNG, cold (drawn): p50 / p99', value: `${ms(coldS.p50)} / ${ms(coldS.p99)}` },
      {
        area: 'web',
        metric: 'call card PNG, cached, 200 req/s: p50 / p99',
        value: `${ms(warm.p50)} / ${ms(warm.p99)}`,
      },
      {
        area: 'web',
        metric: `crawl of ${crawl.toLocaleString('en')} made-up URLs: upstream requests`,
        value: String(app.sandbox!.requests.length - upstream),
        target: '0',
        ok: app.sandbox!.requests.length === upstream,
      },
      {
        area: 'web',
        metric: 'heap after the crawl (change; pages cached)',
        value: `${mib(heapAfter)} (${heapAfter >= heapBefore ? '+' : ''}${mib(heapAfter - heapBefore)}; ${web.site.cache.size} of ${PAGE_CACHE_ENTRIES})`,
        target: 'bounded by the page cache',
      },
    ];
  } finally {
    await web.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}
