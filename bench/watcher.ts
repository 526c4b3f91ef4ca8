/**
 * Watcher: matching one feed page against 100,000 subscriptions, the memory of
 * holding them, and the cost of a tick when nothing is new.
 */
import { createKolClient, type TweetListItem } from '../src/api/index.ts';
import { createDelivery } from '../src/alerts/delivery.ts';
import { localLease } from '../src/store/lease.ts';
import { tweetFacts } from '../src/alerts/matcher.ts';
import { compile } from '../src/alerts/subindex.ts';
import { createWatcher } from '../src/alerts/watcher.ts';
import { DEFAULT_FILTERS } from '../src/alerts/filters.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { openStore } from '../src/store/index.ts';
import { ms, summary, type Row } from './stats.ts';
import { randomSubs } from './subs.ts';

/** A fresh process that loads the bot's code, reads 100k subscriptions from a store and compiles them. */
async function childRss(): Promise<number> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/kolradar-mem-`);
  const child = new URL('./memory-child.ts', import.meta.url).pathname;
  try {
    execFileSync(process.execPath, [child, 'fill', `${dir}/s.sqlite`]);
    // Same V8 flags as `npm start`: the young generation is capped there too.
    return Number(
      execFileSync(process.execPath, ['--max-semi-space-size=16', child, 'hold', `${dir}/s.sqlite`], {
        encoding: 'utf8',
      }).trim(),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchWatcher(): Promise<Row[]> {
  const rows: Row[] = [];
  const sb = await startSandbox();
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const page = (await api.getTweets({ limit: 30 })).items as TweetListItem[];
  const facts = page.map((t) => tweetFacts(t)).filter((f) => f !== undefined);

  const subs = randomSubs(100_000);
  const t0 = performance.now();
  const index = compile(subs);
  const compileMs = performance.now() - t0;
  // Side by side, taking turns: the same subscriptions without the market and keyword filters.
  const plain = compile(randomSubs(100_000, false));
  const times: number[] = [];
  const plainTimes: number[] = [];
  let matched = 0;
  let plainMatched = 0;
  for (let i = 0; i < 60; i++) {
    const [which, into] = i % 2 === 0 ? [index, times] : [plain, plainTimes];
    const s = performance.now();
    let n = 0;
    for (const f of facts) n += which.match(f, Date.now()).length;
    into.push(performance.now() - s);
    if (which === index) matched = n;
    else plainMatched = n;
  }
  const m = summary(times);
  const p = summary(plainTimes);
  rows.push({
    area: 'watcher',
    metric: `match 30 tweets x 100k subs, 10% block words, 5% keywords (p50 / p99)`,
    value: `${ms(m.p50)} / ${ms(m.p99)} (${matched} matches)`,
    target: '< 20 ms',
    ok: m.p50 < 20,
  });
  rows.push({
    area: 'watcher',
    metric: `the same without market and keyword filters (p50 / p99)`,
    value: `${ms(p.p50)} / ${ms(p.p99)} (${plainMatched} matches)`,
  });
  rows.push({ area: 'watcher', metric: 'compile 100k subs', value: ms(compileMs) });
  const rss = await childRss();
  rows.push({
    area: 'watcher',
    metric: 'RSS of a process holding 100k subs',
    value: `${rss.toFixed(0)} MB`,
    target: '< 200 MB',
    ok: rss < 200,
  });

  // A quiet tick: one subscription, nothing new in the feed.
  const store = await openStore('memory:');
  await store.subscriptions.put(subs[0]!);
  const log = silentLogger();
  const delivery = createDelivery({ outbox: store.outbox, subscriptions: store.subscriptions, senders: [], log });
  const watcher = createWatcher({
    api,
    subscriptions: store.subscriptions,
    outbox: store.outbox,
    state: store.watch,
    pages: store.pages,
    delivery,
    lease: localLease(),
    log,
    // Ticks driven by hand, back to back: the budget's top, so none waits its turn.
    feedRequestsPerMinute: 600,
  });
  await watcher.tick();
  await watcher.tick();
  const quiet: number[] = [];
  for (let i = 0; i < 50; i++) {
    const s = performance.now();
    await watcher.tick();
    quiet.push(performance.now() - s);
  }
  const q = summary(quiet);
  rows.push({
    area: 'watcher',
    metric: 'tick with nothing new (p50 / p99)',
    value: `${ms(q.p50)} / ${ms(q.p99)} (1 upstream request)`,
  });
  await watcher.stop();
  await store.close();
  await api.close();
  await sb.close();
  rows.push(...(await benchLookups('minimal')), ...(await benchLookups('mix')));
  return rows;
}

/**
 * Extra upstream requests per tick when feed authors are spec-minimal: author
 * lookups (op 7) per new token, and market lookups (op 2) per alerted token.
 * Goal: at most one op-7 request per new token per tick, none for authors seen
 * within the cache lifetime.
 */
async function benchLookups(shape: 'minimal' | 'mix'): Promise<Row[]> {
  const sb = await startSandbox({ authors: shape, live: false });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const store = await openStore('memory:');
  const log = silentLogger();
  const delivery = createDelivery({ outbox: store.outbox, subscriptions: store.subscriptions, senders: [], log });
  const watcher = createWatcher({
    api,
    subscriptions: store.subscriptions,
    outbox: store.outbox,
    state: store.watch,
    pages: store.pages,
    delivery,
    lease: localLease(),
    log,
    // Ticks driven by hand, back to back: the budget's top, so none waits its turn.
    feedRequestsPerMinute: 600,
  });
  // One subscription on the defaults (token >= 70, KOL >= 60, 10,000 followers).
  await store.subscriptions.put({
    ...randomSubs(1)[0]!,
    filters: { ...DEFAULT_FILTERS },
    mutedTokens: [],
    pausedUntil: null,
    startAfter: null,
    disabled: null,
  });
  await watcher.tick();
  const kols = sb.data.kols.filter((k) => k.follower_count >= 10_000).slice(0, 6);
  let next = 100;
  const tick = async (tokens: number, perToken: number) => {
    const before = { op7: sb.count('tweetsByToken'), op2: sb.count('tokenAnalytics') };
    for (let i = 0; i < tokens; i++, next++) {
      for (let j = 0; j < perToken; j++)
        sb.addTweets(1, {
          token: sb.data.tokens[next]!.id,
          kol: kols[(i + j) % kols.length]!.id,
          tokenScore: 90,
          kolScore: 80,
        });
    }
    const r = await watcher.tick();
    return {
      op7: sb.count('tweetsByToken') - before.op7,
      op2: sb.count('tokenAnalytics') - before.op2,
      queued: r.queued,
      held: r.held,
    };
  };
  const cold = await tick(10, 3);
  const warm = await tick(10, 3);
  await watcher.stop();
  await store.close();
  await api.close();
  await sb.close();
  const what = `${shape} feed authors`;
  return [
    {
      area: 'watcher',
      metric: `extra requests, ${what}: tick with 10 new tokens x 3 new authors`,
      value: `${cold.op7} op-7 + ${cold.op2} op-2 (${cold.queued} alerts, ${cold.held} held)`,
      target: '<= 10 op-7',
      ok: cold.op7 <= 10 && cold.held === 0,
    },
    {
      area: 'watcher',
      metric: `extra requests, ${what}: next tick, same authors, 10 new tokens`,
      value: `${warm.op7} op-7 + ${warm.op2} op-2 (${warm.queued} alerts)`,
      target: '0 op-7',
      ok: warm.op7 === 0,
    },
  ];
}
