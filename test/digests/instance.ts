/**
 * One bot instance for the several-instances digest test, as its own process:
 * the real app on a shared Redis store, the real grammY sending to the Telegram
 * fake, the test's one sandbox as the upstream, and a clock starting at CLOCK_START (so the scheduled minute comes
 * seconds after start). The first instance to write a digest to the outbox
 * SIGKILLs itself right after: the worst moment, record written, nothing sent.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Api } from 'grammy';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { createTelegramSender } from '../../src/adapters/telegram/sender.ts';

const env = process.env;
const start = Number(env['CLOCK_START']);
const t0 = Date.now();
const now = () => start + (Date.now() - t0);
const flag = env['KILL_FLAG']!;
const log = silentLogger();
const app = await createApp(
  loadConfig({
    STORE_URL: env['STORE_URL']!,
    KOL_API_BASE_URL: env['API_URL']!,
    KOL_API_KEY: env['API_KEY']!,
    WATCH_CRON: '0 0 1 1 *',
  }),
  log,
  { sandboxLiveRate: 0 },
);
const enqueue = app.store.outbox.enqueue.bind(app.store.outbox);
app.store.outbox.enqueue = async (batch, entries) => {
  const n = await enqueue(batch, entries);
  if (entries.some((e) => e.id.startsWith('digest:')) && !existsSync(flag)) {
    writeFileSync(flag, String(process.pid));
    process.kill(process.pid, 'SIGKILL');
  }
  return n;
};
const sender = createTelegramSender({
  api: new Api(env['TG_TOKEN']!, { apiRoot: env['TG_ROOT']! }),
  log,
  secondMs: 1000,
});
const watcher = app.startAlerts([sender], { digestNow: now, digestSchedule: false });
// Ticks take the lease when it is free; checks post what is due (the leader only).
setInterval(() => {
  watcher.tick().catch(() => {});
  app.digests?.check().catch(() => {});
}, 250);
process.stderr.write(`ready ${process.pid}\n`);
