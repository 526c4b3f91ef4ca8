/**
 * A million subscriptions on one machine (issue #42), on SQLite and on Redis (a
 * redis-server of its own, as the tests start one): a fresh process opens the store,
 * reads and indexes every subscription, matches feed pages and applies single changes
 * (bench/scale-child.ts). `SCALE_N` sets the size (default 1,000,000).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createKolClient, type TweetListItem } from '../src/api/index.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { redisAvailable, startRedis } from '../test/helpers/redis.ts';
import { ms, summary, type Row } from './stats.ts';

const CHILD = new URL('./scale-child.ts', import.meta.url).pathname;

interface Held {
  size: number;
  readyMs: number;
  rssReadyMb: number;
  rssMb: number;
  reads: number[];
  matched: number;
  inIndex: number[];
  endToEnd: number[];
}

/** Eight feed pages of 30 from the sandbox, as the watcher reads them. */
async function feedPages(file: string): Promise<void> {
  const sb = await startSandbox();
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const pages: TweetListItem[][] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 8; i++) {
    const r = await api.getTweets({ limit: 30, ...(cursor ? { cursor } : {}) });
    pages.push(r.items as TweetListItem[]);
    if (!r.next_cursor) break;
    cursor = r.next_cursor;
  }
  writeFileSync(file, JSON.stringify(pages));
  await api.close();
  await sb.close();
}

function run(args: string[], flags: string[] = []): string {
  return execFileSync(process.execPath, [...flags, CHILD, ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
}

function rows(what: string, n: number, h: Held): Row[] {
  const m = summary(h.reads);
  const c = summary(h.inIndex);
  const e = summary(h.endToEnd);
  const k = `${n.toLocaleString('en-US')} subs, ${what}`;
  return [
    {
      area: 'scale',
      metric: `${k}: match one read of 30 tweets (p50 / p99)`,
      value: `${ms(m.p50)} / ${ms(m.p99)} (up to ${h.matched.toLocaleString('en-US')} matches)`,
      target: 'p99 < 50 ms',
      ok: m.p99 < 50,
    },
    {
      area: 'scale',
      metric: `${k}: one subscription changed, in the index (p50 / p99 / max)`,
      value: `${ms(c.p50, 3)} / ${ms(c.p99, 3)} / ${ms(Math.max(...h.inIndex), 3)}`,
      target: '< 1 ms',
      ok: c.p99 < 1,
    },
    {
      area: 'scale',
      metric: `${k}: one change end to end: store write read back through the journal (p50 / p99)`,
      value: `${ms(e.p50, 3)} / ${ms(e.p99, 3)}`,
    },
    {
      area: 'scale',
      metric: `${k}: process start to every subscription read and indexed`,
      value: ms(h.readyMs, 0),
      target: '< 10 s',
      ok: h.readyMs < 10_000,
    },
    {
      area: 'scale',
      metric: `${k}: RSS when indexed / after the reads and changes`,
      value: `${h.rssReadyMb.toFixed(0)} MB / ${h.rssMb.toFixed(0)} MB`,
      target: n >= 1_000_000 ? '< 600 MB' : '< 150 MB',
      ok: Math.max(h.rssReadyMb, h.rssMb) < (n >= 1_000_000 ? 600 : 150),
    },
  ];
}

export async function benchScale(n = Number(process.env.SCALE_N ?? 1_000_000)): Promise<Row[]> {
  const dir = mkdtempSync(`${tmpdir()}/kolradar-scale-`);
  const out: Row[] = [];
  try {
    const tweets = `${dir}/tweets.json`;
    await feedPages(tweets);
    const hold = (url: string, size: number) => JSON.parse(run(['hold', url, String(size), tweets])) as Held;
    // No V8 flags: the goal holds for a process started plainly.
    const small = `sqlite:${dir}/small.sqlite`;
    run(['fill', small, '100000']);
    out.push(...rows('SQLite', 100_000, hold(small, 100_000)));
    const big = `sqlite:${dir}/big.sqlite`;
    run(['fill', big, String(n)]);
    out.push(...rows('SQLite', n, hold(big, n)));
    if (redisAvailable()) {
      const redis = await startRedis();
      try {
        run(['fill', redis.url, String(n)]);
        out.push(...rows('Redis', n, hold(redis.url, n)));
      } finally {
        await redis.stop();
      }
    } else out.push({ area: 'scale', metric: 'Redis rows', value: 'skipped: no redis-server on PATH' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
