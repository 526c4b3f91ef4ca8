/**
 * Call tracking: 10,000 alerts over 200 tokens (50 Discord channels each) sent
 * and recorded as calls on SQLite, then all their 1-hour follow-ups due in one
 * minute: upstream requests of the round (target: one per token), the edits
 * through the real discord.js against the fake's limits, a new alert arriving
 * during the edits (target: sent within 1 s), and store bytes per call.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST } from 'discord.js';
import { createFollowups } from '../src/alerts/calls/followups.ts';
import { createDelivery } from '../src/alerts/delivery.ts';
import { createDiscordSender } from '../src/adapters/discord/sender.ts';
import { SlidingWindow } from '../src/adapters/window.ts';
import { createKolClient } from '../src/api/index.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { localLease } from '../src/store/lease.ts';
import { openStore } from '../src/store/index.ts';
import type { AlertContent, OutboxEntry } from '../src/store/outbox.ts';
import { DEFAULT_FILTERS } from '../src/alerts/filters.ts';
import { startDiscordFake } from '../test/fakes/discord/index.ts';
import { SAMPLE_ALERT as SAMPLE } from './fanout.ts';

const SAMPLE_ALERT = SAMPLE as Extract<AlertContent, { kind: 'alert' }>;
import type { Row } from './stats.ts';

export async function benchCalls(tokensN = 200, perToken = 50, perSecond = 500): Promise<Row[]> {
  const n = tokensN * perToken;
  let clock = Date.now();
  const now = () => clock;
  const sb = await startSandbox({ market: { clock: now } });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const guilds = Array.from({ length: Math.ceil((n + 1) / 500) }, (_, g) => ({
    id: `9${String(g).padStart(17, '0')}`,
    channels: Array.from({ length: Math.min(500, n + 1 - g * 500) }, (_, c) => ({
      id: `8${String(g * 500 + c).padStart(17, '0')}`,
    })),
  }));
  const channels = guilds.flatMap((g) => g.channels.map((c) => c.id));
  const fake = await startDiscordFake({ guilds, globalPerSecond: perSecond });
  const rest = new REST({ api: fake.apiBase, globalRequestsPerSecond: perSecond }).setToken(fake.token);
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-bench-calls-'));
  const file = join(dir, 'calls.sqlite');
  const store = await openStore(`sqlite:${file}`);
  const log = silentLogger();
  for (const chatId of channels) {
    await store.subscriptions.put({
      id: `discord:${chatId}`,
      platform: 'discord',
      chatId,
      isGroup: false,
      filters: { ...DEFAULT_FILTERS, followups: [60] },
      mutedTokens: [],
      pausedUntil: null,
      startAfter: null,
      disabled: null,
      createdBy: 'bench',
      createdAt: 0,
      updatedAt: 0,
    });
  }
  const tokens = sb.data.tokens.filter((t) => t.marketcap > 0).slice(0, tokensN);
  const entry = (id: string, chatId: string, t: (typeof tokens)[number]): OutboxEntry => ({
    id,
    subId: `discord:${chatId}`,
    platform: 'discord',
    chatId,
    isGroup: false,
    content: {
      ...SAMPLE_ALERT,
      token: {
        ...SAMPLE_ALERT.token,
        name: t.name,
        symbol: t.symbol,
        chain: t.chain_id,
        address: t.address,
        marketCap: t.marketcap,
        liquidity: t.liquidity,
      },
    },
    createdAt: now(),
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  });
  await store.outbox.enqueue(
    'alerts',
    tokens.flatMap((t, i) => channels.slice(i * perToken, (i + 1) * perToken).map((c) => entry(`a:${c}`, c, t))),
  );
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [createDiscordSender(rest, log, new SlidingWindow(perSecond, 1000))],
    log,
    concurrency: 64,
    calls: store.calls,
    now,
  });
  const sizeBefore = (await stat(file)).size;
  await delivery.drain();
  const recorded = (await Promise.all(channels.slice(0, n).map((c) => store.calls.list(`discord:${c}`, 0)))).flat()
    .length;
  // SQLite grows in pages; WAL content counts until checkpointed: the file and its -wal together.
  const walSize = await stat(`${file}-wal`).then(
    (s) => s.size,
    () => 0,
  );
  const bytesPerCall = ((await stat(file)).size + walSize - sizeBefore) / recorded;

  clock += 61 * 60_000;
  const lease = localLease();
  await lease.acquire();
  const followups = createFollowups({
    calls: store.calls,
    outbox: store.outbox,
    api,
    lease,
    log,
    perMinute: tokensN,
    now,
  });
  sb.resetRequests();
  const round = await followups.round();
  const requests = sb.count('2');
  const editsBefore = fake.requests.filter((r) => r.method === 'PATCH').length;
  const t0 = performance.now();
  const draining = delivery.drain();
  // A new alert arrives while the edits go out.
  await new Promise((r) => setTimeout(r, 2000));
  const urgent = channels[n]!;
  await store.outbox.enqueue('urgent', [entry('urgent', urgent, tokens[0]!)]);
  const tAlert = performance.now();
  void delivery.drain();
  while (fake.channelMessages(urgent).length === 0) await new Promise((r) => setTimeout(r, 5));
  const alertLatency = (performance.now() - tAlert) / 1000;
  await draining;
  await delivery.drain();
  const seconds = (performance.now() - t0) / 1000;
  const edits = fake.requests.filter((r) => r.method === 'PATCH' && r.status === 200).length - editsBefore;
  const violations = fake.violations.length;
  const limited = fake.requests.filter((r) => r.status === 429).length;
  await delivery.stop();
  await store.close();
  await api.close();
  await sb.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
  return [
    {
      area: 'calls',
      metric: `${n.toLocaleString('en-US')} follow-ups due in one minute over ${tokensN} tokens: upstream requests`,
      value: `${requests} (${round.queued.toLocaleString('en-US')} edits queued)`,
      target: `${tokensN}`,
      ok: requests === tokensN && round.queued === n,
    },
    {
      area: 'calls',
      metric: `Discord: the edits (limit ${perSecond}/s): rate / requests inside a 429 window / 429s`,
      value: `${(edits / seconds).toFixed(0)}/s, ${edits.toLocaleString('en-US')} in ${seconds.toFixed(1)} s / ${violations} / ${limited}`,
      target: '<= limit / 0 / 0',
      ok: edits === n && violations === 0 && limited === 0 && edits / seconds <= perSecond * 1.02,
    },
    {
      area: 'calls',
      metric: 'a new alert arriving during the edits: sent after',
      value: `${alertLatency.toFixed(2)} s`,
      target: '<= 1 s',
      ok: alertLatency <= 1,
    },
    {
      area: 'calls',
      metric: `store bytes per call (SQLite, ${recorded.toLocaleString('en-US')} calls)`,
      value: `${bytesPerCall.toFixed(0)} B`,
      target: 'bounded (retention 30 d)',
    },
  ];
}
