/**
 * Alert latency end to end, side by side in one run: the default paced reader
 * (FEED_REQUESTS_PER_MINUTE=20) and the old fixed tick (WATCH_CRON every 30 s),
 * each against its own sandbox whose live feed makes a tweet visible at a known
 * time and answers every request with a realistic latency (150 ms median, 1 s
 * p99, log-normal). Measured: (alert handed to the platform) - (tweet visible in
 * the feed), so the upstream's own indexing delay is outside the figure, and the
 * feed requests per minute each reader spent.
 */
import { createKolClient } from '../src/api/index.ts';
import { createDelivery, type Sender } from '../src/alerts/delivery.ts';
import { createWatcher } from '../src/alerts/watcher.ts';
import { DEFAULT_FILTERS } from '../src/alerts/filters.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { localLease } from '../src/store/lease.ts';
import { openStore } from '../src/store/index.ts';
import { summary, type Row } from './stats.ts';

/** Long enough for several 30 s ticks; both readers run at once. */
const RUN_MS = 150_000;
/** Tweets visible in the last 45 s are left out: the old tick may not have come round yet. */
const TAIL_MS = 45_000;
const FEED_RATE = 0.5;
/** The upstream's own indexing delay: outside the measured figure. */
const INDEX_DELAY_MS = 5_000;

async function measure(mode: 'paced' | 'cron') {
  const sb = await startSandbox({
    live: { tweetsPerSecond: FEED_RATE, indexDelayMs: INDEX_DELAY_MS },
    faults: { latencyMs: 150, latencyP99Ms: 1_000 },
  });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const store = await openStore('memory:');
  await store.subscriptions.put({
    id: 'console:bench',
    platform: 'console',
    chatId: 'bench',
    isGroup: false,
    filters: { ...DEFAULT_FILTERS, minTokenScore: 0, minKolScore: 0, minFollowers: 0, cooldownMinutes: 0 },
    mutedTokens: [],
    pausedUntil: null,
    startAfter: null,
    disabled: null,
    createdBy: 'bench',
    createdAt: 0,
    updatedAt: 0,
  });
  const start = Date.now();
  const sentAt = new Map<string, number>();
  /** Visible in the feed to first read, per tweet. */
  const toRead: number[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(_chat, view) {
      const at = Date.now();
      for (const m of JSON.stringify(view).matchAll(/status\/(\d+)/g)) if (!sentAt.has(m[1]!)) sentAt.set(m[1]!, at);
      return { kind: 'sent', messageId: String(sentAt.size) };
    },
  };
  const log = silentLogger();
  const delivery = createDelivery({ outbox: store.outbox, subscriptions: store.subscriptions, senders: [sender], log });
  const watcher = createWatcher({
    api,
    subscriptions: store.subscriptions,
    outbox: store.outbox,
    state: store.watch,
    pages: store.pages,
    delivery,
    lease: localLease(),
    log,
    ...(mode === 'cron' ? { cron: '*/30 * * * * *' } : {}),
    onTick: (r) => {
      // Past the first reads (the seeded history) only: live tweets, tweet times to the second.
      if (Date.now() > start + 10_000) for (const d of r.firstReadMs) toRead.push(d - INDEX_DELAY_MS);
    },
  });
  const before = sb.count('8');
  watcher.start();
  await new Promise((r) => setTimeout(r, RUN_MS));
  const feedPerMinute = ((sb.count('8') - before) * 60_000) / (Date.now() - start);
  await watcher.stop();
  const delays: number[] = [];
  let missing = 0;
  for (const t of sb.data.tweets) {
    if (t.indexedMs === undefined || t.indexedMs < start + 5_000 || t.indexedMs > start + RUN_MS - TAIL_MS) continue;
    const at = sentAt.get(t.twitter_id);
    if (at === undefined) missing++;
    else delays.push(at - t.indexedMs);
  }
  await store.close();
  await api.close();
  await sb.close();
  return { ...summary(delays), feedPerMinute, missing, read: summary(toRead) };
}

export async function benchLatency(): Promise<Row[]> {
  const [paced, cron] = await Promise.all([measure('paced'), measure('cron')]);
  const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
  const row = (name: string, r: typeof paced, goal: boolean): Row => ({
    area: 'latency',
    metric: `${name}: visible in feed -> alert sent (p50 / p99), feed requests/min`,
    value: `${s(r.p50)} / ${s(r.p99)} (${r.n} alerts, ${r.missing} missing; first read ${s(r.read.p50)} / ${s(r.read.p99)}), ${r.feedPerMinute.toFixed(1)}/min`,
    ...(goal ? { target: 'p50 < 2 s, p99 < 5 s', ok: r.p50 < 2000 && r.p99 < 5000 && r.missing === 0 } : {}),
  });
  return [row('default budget (20/min)', paced, true), row('old 30 s tick (WATCH_CRON)', cron, false)];
}
