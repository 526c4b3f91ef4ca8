/**
 * The bot on both platforms in one process: the real core and sandbox, the real
 * discord.js and grammY adapters, and the Discord and Telegram fakes. Closed in
 * the right order after the test (alerts, adapters, app, fakes).
 */
import type { TestContext } from 'node:test';
import { createDiscordAdapter } from '../../src/adapters/discord/index.ts';
import { createTelegramAdapter } from '../../src/adapters/telegram/index.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { startDiscordFake } from '../fakes/discord/index.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';

export async function bothPlatforms(
  t: TestContext,
  o: {
    channels: readonly string[];
    guildId: string;
    telegramToken: string;
    storeUrl?: string;
    watchCron?: string;
    timeScale?: number;
    /** The sandbox's market caps walk on this clock (call follow-up tests move it by hours). */
    marketClock?: () => number;
    channelBucket?: { limit: number; windowMs: number };
    now?: () => number;
  },
) {
  const discord = await startDiscordFake({
    guilds: [{ id: o.guildId, channels: o.channels.map((id) => ({ id })) }],
    ...(o.channelBucket ? { channelBucket: o.channelBucket } : {}),
  });
  const telegram = await startTelegramFake({
    token: o.telegramToken,
    knownChatsOnly: false,
    ...(o.timeScale ? { timeScale: o.timeScale } : {}),
  });
  const app = await createApp(
    loadConfig({ STORE_URL: o.storeUrl ?? 'memory:', WATCH_CRON: o.watchCron ?? '0 0 1 1 *' }),
    silentLogger(),
    {
      sandboxLiveRate: 0,
      ...(o.now ? { dispatcher: { now: o.now } } : {}),
      ...(o.marketClock ? { sandboxMarket: { clock: o.marketClock } } : {}),
    },
  );
  const log = silentLogger();
  const dc = createDiscordAdapter({
    token: discord.token,
    applicationId: discord.applicationId,
    apiBase: discord.apiBase,
    dispatcher: app.dispatcher,
    api: app.api,
    log,
    subscriptions: app.store.subscriptions,
  });
  const tg = createTelegramAdapter({
    token: telegram.token,
    apiRoot: telegram.apiRoot,
    dispatcher: app.dispatcher,
    store: app.store,
    log,
    ...(o.timeScale ? { pacing: { timeScale: o.timeScale } } : {}),
  });
  let closing: Promise<void> | undefined;
  /** Idempotent; call it directly when something the test owns (a Redis server) must outlive it. */
  const close = () =>
    (closing ??= (async () => {
      await app.stopAlerts();
      await dc.stop();
      await tg.stop();
      await app.close();
      await discord.close();
      await telegram.close();
    })());
  t.after(close);
  await dc.start();
  await tg.start();
  return { discord, telegram, app, dc, tg, close };
}
