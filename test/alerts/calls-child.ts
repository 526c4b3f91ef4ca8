/**
 * A bot process for the call-tracking SIGKILL test: the real app and the real
 * discord.js and grammY adapters against the fakes and an outside sandbox, with
 * the follow-up clock frozen at argv[2] (ms) so a life can be "an hour later".
 * Writes "ready" on stdout once the adapters run. Not a test file itself.
 */
import { createDiscordAdapter } from '../../src/adapters/discord/index.ts';
import { createTelegramAdapter } from '../../src/adapters/telegram/index.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';

const clock = Number(process.argv[2]);
const env = JSON.parse(process.argv[3]!) as Record<string, string>;
const app = await createApp(loadConfig({ ...env, WATCH_CRON: '* * * * * *' }), silentLogger());
const log = silentLogger();
const dc = createDiscordAdapter({
  token: env['DISCORD_TOKEN']!,
  applicationId: env['DISCORD_APPLICATION_ID']!,
  apiBase: env['DISCORD_API_BASE']!,
  dispatcher: app.dispatcher,
  api: app.api,
  log,
  subscriptions: app.store.subscriptions,
});
const tg = createTelegramAdapter({
  token: env['TELEGRAM_BOT_TOKEN']!,
  apiRoot: env['TELEGRAM_API_ROOT']!,
  dispatcher: app.dispatcher,
  store: app.store,
  log,
});
await dc.start();
await tg.start();
app.startAlerts([dc.sender, tg.sender], { followupNow: () => clock });
process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  await app.stopAlerts();
  await dc.stop();
  await tg.stop();
  await app.close();
  process.exit(0);
});
