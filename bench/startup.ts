/**
 * Start-up to ready: the real entry point in a child process, timed from spawn
 * to its "ready" log line, with no platform (console and embedded sandbox) and
 * with both chat platforms against the local fakes.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDiscordFake } from '../test/fakes/discord/index.ts';
import { startTelegramFake } from '../test/fakes/telegram/index.ts';
import { ms, summary, type Row } from './stats.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function timeToReady(env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--max-semi-space-size=16', MAIN], {
      env: { PATH: process.env.PATH ?? '', STORE_URL: 'memory:', LOG_LEVEL: 'info', ...env },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready in 30 s: ${buf.slice(-500)}`));
    }, 30_000);
    child.stderr.on('data', (d: Buffer) => {
      buf += d.toString();
      if (/"msg":"ready"/.test(buf)) {
        const took = performance.now() - t0;
        clearTimeout(timer);
        child.once('exit', () => resolve(took));
        child.kill('SIGTERM');
      }
    });
  });
}

export async function benchStartup(runs = 5): Promise<Row[]> {
  const consoleRuns: number[] = [];
  for (let i = 0; i < runs; i++) consoleRuns.push(await timeToReady({}));
  const discord = await startDiscordFake({
    guilds: [{ id: '900000000000000001', channels: [{ id: '800000000000000001' }] }],
  });
  const telegram = await startTelegramFake({ token: '7000000001:AAFakeTokenForTheBenchmark_0123456789' });
  const chatRuns: number[] = [];
  for (let i = 0; i < runs; i++) {
    chatRuns.push(
      await timeToReady({
        DISCORD_TOKEN: discord.token,
        DISCORD_APPLICATION_ID: discord.applicationId,
        DISCORD_API_BASE: discord.apiBase,
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.apiRoot,
      }),
    );
  }
  await discord.close();
  await telegram.close();
  const c = summary(consoleRuns);
  const p = summary(chatRuns);
  return [
    {
      area: 'start-up',
      metric: 'spawn to ready: console + embedded sandbox (p50 / max)',
      value: `${ms(c.p50, 0)} / ${ms(Math.max(...consoleRuns), 0)}`,
    },
    {
      area: 'start-up',
      metric: 'spawn to ready: Discord + Telegram (fakes) + sandbox (p50 / max)',
      value: `${ms(p.p50, 0)} / ${ms(Math.max(...chatRuns), 0)}`,
    },
  ];
}
