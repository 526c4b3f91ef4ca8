/**
 * Alert latency end to end, where users see it: the paced reader against a sandbox whose live
 * feed makes a tweet visible at a known time and answers every request (feed, market) at a
 * realistic spread (180 ms median, 900 ms p99, log-normal), delivering through the real Telegram
 * sender (grammY, the pacer) and the real discord.js client against the platform fakes, with
 * their limits. Measured per platform: (accepted by the platform) - (visible in the feed), the
 * upstream's own indexing outside the figure; and the bot's own part, from the read that saw the
 * tweet answered to the send accepted. At the default budget (20 reads a minute) and at 60.
 */
import { REST } from 'discord.js';
import { createKolClient } from '../src/api/index.ts';
import { createDelivery } from '../src/alerts/delivery.ts';
import { createWatcher } from '../src/alerts/watcher.ts';
import { DEFAULT_FILTERS } from '../src/alerts/filters.ts';
import { createDiscordSender } from '../src/adapters/discord/sender.ts';
import { createTelegramAdapter } from '../src/adapters/telegram/index.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { localLease } from '../src/store/lease.ts';
import { openStore } from '../src/store/index.ts';
import { startDiscordFake } from '../test/fakes/discord/index.ts';
import { startTelegramFake } from '../test/fakes/telegram/index.ts';
import { summary, type Row } from './stats.ts';

const RUN_MS = 120_000;
/** Tweets visible in the last 15 s are left out: their alerts may still be on their way. */
const TAIL_MS = 15_000;
const FEED_RATE = 0.5;
/** The upstream's own indexing delay: outside the measured figure. */
const INDEX_DELAY_MS = 5_000;
const TG_CHATS = ['1000001', '1000002', '-1000003'];
const DC_CHANNELS = ['810000000000000001', '810000000000000002', '810000000000000003'];

async function measure(perMinute: number) {
  const sb = await startSandbox({
    live: { tweetsPerSecond: FEED_RATE, indexDelayMs: INDEX_DELAY_MS },
    faults: { latencyMs: 180, latencyP99Ms: 900 },
  });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const store = await openStore('memory:');
  const log = silentLogger();
  const telegram = await startTelegramFake({ knownChatsOnly: false });
  const discord = await startDiscordFake({
    guilds: [{ id: '910000000000000001', channels: DC_CHANNELS.map((id) => ({ id })) }],
  });
  const tg = createTelegramAdapter({
    token: telegram.token,
    apiRoot: telegram.apiRoot,
    dispatcher: undefined as never,
    store,
    log,
  });
  const rest = new REST({ api: discord.apiBase }).setToken(discord.token);
  const dc = createDiscordSender(rest, log);
  const open = { ...DEFAULT_FILTERS, minTokenScore: 0, minKolScore: 0, minFollowers: 0, cooldownMinutes: 0 };
  for (const [platform, ids] of [
    ['telegram', TG_CHATS],
    ['discord', DC_CHANNELS],
  ] as const)
    for (const chatId of ids)
      await store.subscriptions.put({
        id: `${platform}:${chatId}`,
        platform,
        chatId,
        isGroup: chatId.startsWith('-'),
        filters: open,
        mutedTokens: [],
        pausedUntil: null,
        startAfter: null,
        disabled: null,
        createdBy: 'bench',
        createdAt: 0,
        updatedAt: 0,
      });
  const start = Date.now();
  /** First acceptance of each tweet's alert, per platform; the bot's own part of each alert. */
  const acceptedAt = { telegram: new Map<string, number>(), discord: new Map<string, number>() };
  const own: number[] = [];
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [tg.sender, dc],
    log,
    onResult(e, r) {
      if (r.kind !== 'sent' || (e.platform !== 'telegram' && e.platform !== 'discord')) return;
      const at = Date.now();
      // Entry ids begin with the feed's tweet id; a merged message's members are its alerts.
      const ids = e.content.kind === 'merged' ? e.content.members : e.content.kind === 'alert' ? [e.id] : [];
      for (const entry of ids) {
        const id = entry.split(':')[0]!;
        if (!acceptedAt[e.platform].has(id)) acceptedAt[e.platform].set(id, at);
      }
      if (e.content.kind === 'alert' && e.readAt !== undefined) own.push(at - e.readAt);
    },
  });
  const watcher = createWatcher({
    api,
    subscriptions: store.subscriptions,
    outbox: store.outbox,
    state: store.watch,
    pages: store.pages,
    delivery,
    lease: localLease(),
    log,
    feedRequestsPerMinute: perMinute,
  });
  watcher.start();
  await new Promise((r) => setTimeout(r, RUN_MS));
  await watcher.stop();
  const out = {} as Record<'telegram' | 'discord', ReturnType<typeof summary> & { missing: number }>;
  for (const platform of ['telegram', 'discord'] as const) {
    const delays: number[] = [];
    let missing = 0;
    for (const t of sb.data.tweets) {
      if (t.indexedMs === undefined || t.indexedMs < start + 10_000 || t.indexedMs > start + RUN_MS - TAIL_MS) continue;
      const at = acceptedAt[platform].get(String(t.id));
      if (at === undefined) missing++;
      else delays.push(at - t.indexedMs);
    }
    out[platform] = { ...summary(delays), missing };
  }
  await tg.stop().catch(() => {});
  await store.close();
  await api.close();
  await sb.close();
  await telegram.close();
  await discord.close();
  return { ...out, own: summary(own) };
}

export async function benchLatency(): Promise<Row[]> {
  const [paced, fast] = [await measure(20), await measure(60)];
  const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
  const rows: Row[] = [];
  for (const platform of ['telegram', 'discord'] as const) {
    const r = paced[platform];
    rows.push({
      area: 'latency',
      metric: `${platform}, default budget (20 reads/min): visible in feed -> accepted (p50 / p99)`,
      value: `${s(r.p50)} / ${s(r.p99)} (${r.n} alerts, ${r.missing} missing)`,
      target: 'p50 < 1.8 s, p99 < 3.6 s',
      ok: r.p50 < 1800 && r.p99 < 3600,
    });
  }
  rows.push({
    area: 'latency',
    metric: "bot's own part, default budget: read answered -> accepted (p50 / p99), market at 180 ms median",
    value: `${s(paced.own.p50)} / ${s(paced.own.p99)} (${paced.own.n} sends)`,
    target: 'p99 < 300 ms',
    ok: paced.own.p99 < 300,
  });
  for (const platform of ['telegram', 'discord'] as const) {
    const r = fast[platform];
    rows.push({
      area: 'latency',
      metric: `${platform}, 60 reads/min: visible in feed -> accepted (p50 / p99)`,
      value: `${s(r.p50)} / ${s(r.p99)} (${r.n} alerts, ${r.missing} missing)`,
      target: 'p50 < 1 s',
      ok: r.p50 < 1000,
    });
  }
  return rows;
}
