/**
 * A bot process for the notice SIGKILL test: the real app and the real discord.js
 * and grammY adapters against the fakes (their limits scaled down with the fakes'
 * clocks), delivering what the outbox holds. Writes "ready" once the adapters run,
 * then "idle" whenever nothing is left to send. Not a test file itself.
 */
import { createDiscordAdapter } from '../../src/adapters/discord/index.ts';
import { createTelegramAdapter } from '../../src/adapters/telegram/index.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';

const env = JSON.parse(process.argv[2]!) as Record<string, string>;
const app = await createApp(loadConfig({ ...env, WATCH_CRON: '0 0 1 1 *' }), silentLogger());
const log = silentLogger();
const dc = createDiscordAdapter({
  token: env['DISCORD_TOKEN']!,
  applicationId: env['DISCORD_APPLICATION_ID']!,
  apiBase: env['DISCORD_API_BASE']!,
  dispatcher: app.dispatcher,
  api: app.api,
  log,
  rest: { globalRequestsPerSecond: 2000, alertsPerSecond: 1900 },
});
const tg = createTelegramAdapter({
  token: env['TELEGRAM_BOT_TOKEN']!,
  apiRoot: env['TELEGRAM_API_ROOT']!,
  dispatcher: app.dispatcher,
  store: app.store,
  log,
  pacing: { timeScale: 0.01 },
});
await dc.start();
await tg.start();
const watcher = app.startAlerts([dc.sender, tg.sender]);
process.stdout.write('ready\n');
// Delivery starts on a kick (as `/owner send` gives) and runs until the outbox is empty.
watcher.kick();
setInterval(async () => {
  if ((await app.store.outbox.pending()).length === 0) process.stdout.write('idle\n');
  else watcher.kick();
}, 100);
process.once('SIGTERM', async () => {
  await app.stopAlerts();
  await dc.stop();
  await tg.stop();
  await app.close();
  process.exit(0);
});
