/**
 * Fan-out: one alert to 10,000 destinations through the real delivery path and
 * the real platform libraries, against the fakes enforcing the platforms'
 * limits. Delivered per second is reported as a fraction of the limit, with the
 * requests sent inside a 429 window (target 0) and the alerts lost (target 0).
 */
import { REST } from 'discord.js';
import { createDelivery } from '../src/alerts/delivery.ts';
import type { AlertContent, OutboxEntry } from '../src/store/outbox.ts';
import { createDiscordSender } from '../src/adapters/discord/sender.ts';
import { silentLogger } from '../src/log.ts';
import { SlidingWindow } from '../src/adapters/window.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { DEFAULT_FILTERS } from '../src/alerts/filters.ts';
import { startDiscordFake } from '../test/fakes/discord/index.ts';
import { startTelegramFake, type TelegramFake } from '../test/fakes/telegram/index.ts';
import type { PacingOptions } from '../src/adapters/telegram/pacer.ts';
import type { DeliveryOptions } from '../src/alerts/delivery/state.ts';
import { createTelegramAdapter } from '../src/adapters/telegram/index.ts';
import type { Row } from './stats.ts';

export const SAMPLE_ALERT: AlertContent = {
  kind: 'alert',
  token: {
    name: 'Capy Swap',
    symbol: 'CAPYS',
    chain: 'solana',
    address: 'RP7R5SeyBXVk45GgceFu821fvA7jwijvfKvNwGPypump',
    score: 82.4,
    marketCap: 1_234_567,
    change1h: 3.2,
    change24h: -12.5,
  },
  kols: [
    {
      username: 'MemeResearch',
      displayName: 'Meme Research',
      followers: 48_200,
      score: 71.3,
      tweetUrl: 'https://x.com/MemeResearch/status/1741610183685080127',
      text: '$CAPYS looking strong, watching closely',
      tweetedAt: '2026-11-22T10:00:00.000Z',
    },
  ],
  reason: 'token score 82.4 >= 70, KOL score 71.3 >= 60, 48,200 followers >= 10,000',
  actions: [],
};

/** Each destination subscribed (delivery drops alerts for chats that are not). */
export async function subscribeAll(
  store: Store,
  platform: 'discord' | 'telegram',
  chatIds: readonly string[],
): Promise<void> {
  for (const chatId of chatIds) {
    await store.subscriptions.put({
      id: `${platform}:${chatId}`,
      platform,
      chatId,
      isGroup: false,
      filters: DEFAULT_FILTERS,
      mutedTokens: [],
      pausedUntil: null,
      startAfter: null,
      disabled: null,
      createdBy: 'bench',
      createdAt: 0,
      updatedAt: 0,
    });
  }
}

export function entries(platform: 'discord' | 'telegram', chatIds: readonly string[]): OutboxEntry[] {
  return chatIds.map((chatId) => ({
    id: `bench:${platform}:${chatId}`,
    subId: `${platform}:${chatId}`,
    platform,
    chatId,
    isGroup: false,
    content: SAMPLE_ALERT,
    createdAt: Date.now(),
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  }));
}

export async function benchDiscordFanout(n = 10_000, perSecond = 500): Promise<Row[]> {
  const guilds = Array.from({ length: Math.ceil(n / 500) }, (_, g) => ({
    id: `9${String(g).padStart(17, '0')}`,
    channels: Array.from({ length: Math.min(500, n - g * 500) }, (_, c) => ({
      id: `8${String(g * 500 + c).padStart(17, '0')}`,
    })),
  }));
  const fake = await startDiscordFake({ guilds, globalPerSecond: perSecond });
  const rest = new REST({ api: fake.apiBase, globalRequestsPerSecond: perSecond }).setToken(fake.token);
  const log = silentLogger();
  const store = await openStore('memory:');
  const channels = guilds.flatMap((g) => g.channels.map((c) => c.id));
  await subscribeAll(store, 'discord', channels);
  await store.outbox.enqueue('bench', entries('discord', channels));
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [createDiscordSender(rest, log, new SlidingWindow(perSecond, 1000))],
    log,
    concurrency: 64,
  });
  const t0 = performance.now();
  await delivery.drain();
  const seconds = (performance.now() - t0) / 1000;
  const delivered = channels.reduce((sum, id) => sum + fake.channelMessages(id).length, 0);
  const lost = n - delivered;
  const rate = delivered / seconds;
  const violations = fake.violations.length;
  await delivery.stop();
  await store.close();
  await fake.close();
  return [
    {
      area: 'fan-out',
      metric: `Discord: 1 alert to ${n.toLocaleString('en-US')} channels (limit ${perSecond}/s)`,
      value: `${rate.toFixed(0)}/s = ${(rate / perSecond).toFixed(3)} of the limit, ${seconds.toFixed(1)} s`,
      target: '>= 0.95',
      ok: rate / perSecond >= 0.95,
    },
    {
      area: 'fan-out',
      metric: 'Discord: requests inside a 429 window / lost',
      value: `${violations} / ${lost}`,
      target: '0 / 0',
      ok: violations === 0 && lost === 0,
    },
  ];
}

/**
 * One alert to `n` Telegram chats (ids from `firstId`) through the adapter's sender and the real
 * delivery, 256 at once; the time the drain took. The caller stops the delivery and closes the rest.
 */
export async function drainTelegram(
  fake: TelegramFake,
  store: Store,
  n: number,
  firstId: number,
  pacing: PacingOptions,
  onResult?: DeliveryOptions['onResult'],
) {
  const log = silentLogger();
  const adapter = createTelegramAdapter({
    token: fake.token,
    apiRoot: fake.apiRoot,
    dispatcher: undefined as never,
    store,
    log,
    pacing,
  });
  const chats = Array.from({ length: n }, (_, i) => String(firstId + i));
  await subscribeAll(store, 'telegram', chats);
  await store.outbox.enqueue('bench', entries('telegram', chats));
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [adapter.sender],
    log,
    concurrency: 256,
    ...(onResult ? { onResult } : {}),
  });
  const t0 = performance.now();
  await delivery.drain();
  return { chats, seconds: (performance.now() - t0) / 1000, delivery };
}

/**
 * Telegram: the fake's clock runs `timeScale` times faster (windows and
 * retry_after shrink alike) and the adapter's pacer is told the same, so the
 * 30 messages/s limit becomes 30/timeScale per real second: 10,000 chats in
 * seconds instead of minutes, with the same rules.
 */
export async function benchTelegramFanout(n = 10_000, timeScale = 0.25): Promise<Row[]> {
  const fake = await startTelegramFake({ knownChatsOnly: false, timeScale });
  const store = await openStore('memory:');
  const limit = 30 / timeScale;
  const { seconds, delivery } = await drainTelegram(fake, store, n, 1_000_000, { timeScale });
  const delivered = fake.requests.filter((q) => q.method === 'sendMessage' && q.status === 200).length;
  const limited = fake.requests.filter((q) => q.status === 429).length;
  const rate = delivered / seconds;
  const violations = fake.violations.length;
  await delivery.stop();
  await store.close();
  await fake.close();
  return [
    {
      area: 'fan-out',
      metric: `Telegram: 1 alert to ${n.toLocaleString('en-US')} chats (30/s on a clock x${(1 / timeScale).toFixed(0)} = ${limit.toFixed(0)}/s)`,
      value: `${rate.toFixed(0)}/s = ${(rate / limit).toFixed(3)} of the limit, ${seconds.toFixed(1)} s`,
      target: '>= 0.95',
      ok: rate / limit >= 0.95,
    },
    {
      area: 'fan-out',
      metric: 'Telegram: requests inside a 429 window / 429s / lost',
      value: `${violations} / ${limited} / ${n - delivered}`,
      target: '0 / 0 / 0',
      ok: violations === 0 && limited === 0 && delivered === n,
    },
  ];
}
