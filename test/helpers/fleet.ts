/**
 * Several real bot processes (src/main.ts, as a supervisor starts it) for the
 * several-instances tests, and a small round-robin HTTP proxy standing in for
 * a load balancer. Each process gets its own ops port so a test can ask
 * /readyz which roles it holds.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { freePort, startRedis } from './redis.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram/index.ts';
import { translator } from '../../src/i18n/index.ts';
import { until } from './wait.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** How long a bot process may take to start: a safety net for several processes starting at once on 2 cores. */
const START_PATIENCE_MS = 60_000;

export interface BotProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly opsPort: number;
  logs(): string;
  ready(): Promise<void>;
  /** /readyz's JSON (roles included). */
  readyz(): Promise<{ ready: boolean; roles?: Record<string, unknown>; watcher?: string }>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  /** The exit status, once the process ends by itself. */
  ended(): Promise<number | null>;
  readonly exited: boolean;
}

export async function startBot(t: TestContext, name: string, env: Record<string, string>): Promise<BotProcess> {
  const opsPort = await freePort();
  let logs = '';
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', HTTP_PORT: String(opsPort), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  t.after(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  return {
    name,
    child,
    opsPort,
    logs: () => logs,
    get exited() {
      return child.exitCode !== null || child.signalCode !== null;
    },
    async ready() {
      // A process that ended before saying "ready" never will: the wait ends there too, and fails with its log.
      const said = () => logs.includes('"msg":"ready"') || (child.exitCode ?? child.signalCode) !== null;
      await until(said, `${name} ready`, START_PATIENCE_MS).catch((err: Error) => {
        throw new Error(`${err.message}:\n${logs}`, { cause: err });
      });
      if (!logs.includes('"msg":"ready"'))
        assert.fail(`${name} exited with ${child.exitCode ?? child.signalCode}:\n${logs}`);
    },
    async readyz() {
      const res = await fetch(`http://127.0.0.1:${opsPort}/readyz`);
      return (await res.json()) as { ready: boolean; roles?: Record<string, unknown> };
    },
    ended: () => exit,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exit;
    },
  };
}

export interface RoundRobin {
  readonly url: string;
  /** Requests forwarded to each target, by index. */
  readonly forwarded: number[];
  close(): Promise<void>;
}

/** Forwards each request to the next target in turn; a target that refuses the connection is skipped. */
export async function roundRobin(t: TestContext, targets: readonly number[]): Promise<RoundRobin> {
  let next = 0;
  const forwarded = targets.map(() => 0);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number): void => {
        const i = next++ % targets.length;
        const out = request(
          { host: '127.0.0.1', port: targets[i], method: req.method, path: req.url, headers: req.headers },
          (up) => {
            forwarded[i]! += 1;
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        out.on('error', () => (tries > 1 ? attempt(tries - 1) : res.writeHead(502).end()));
        out.end(body);
      };
      attempt(targets.length);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const rr: RoundRobin = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  t.after(() => rr.close());
  return rr;
}

export interface TelegramFleet {
  readonly sb: Sandbox;
  readonly fake: TelegramFake;
  /** What every instance needs: the sandbox, the fake Bot API and the shared Redis. */
  readonly env: Record<string, string>;
}

/**
 * A private redis-server, a sandbox and a platform fake for one fleet test, all
 * closed after it; `env` is what every instance needs to reach the first two.
 */
export async function fleetRig<F extends { close(): Promise<void> }>(
  t: TestContext,
  startFake: () => Promise<F>,
): Promise<{ sb: Sandbox; fake: F; env: Record<string, string> }> {
  const redis = await startRedis(t);
  const sb = await startSandbox();
  const fake = await startFake();
  t.after(async () => {
    await fake.close();
    await sb.close();
  });
  return { sb, fake, env: { KOL_API_BASE_URL: sb.url, KOL_API_KEY: sb.apiKey, STORE_URL: redis.url } };
}

/** fleetRig with the Telegram fake, and the bot token and API root in `env`. */
export async function telegramFleet(t: TestContext, token: string): Promise<TelegramFleet> {
  const r = await fleetRig(t, () => startTelegramFake({ token, limits: false, knownChatsOnly: false }));
  return { ...r, env: { ...r.env, TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: r.fake.apiRoot } };
}

/** Webhook-mode settings for one instance listening on `port`. */
export const webhookEnv = (port: number, secret: string): Record<string, string> => ({
  TELEGRAM_WEBHOOK_URL: 'https://bot.example.test/tg/hook',
  TELEGRAM_WEBHOOK_SECRET: secret,
  TELEGRAM_WEBHOOK_PORT: String(port),
});

const HI = translator('en')('start.hi');

/** /start's answer: the barrier's, told apart from any answer it follows. */
export const isGreeting = (m: { text?: string }): boolean => (m.text ?? '').startsWith(HI);

/**
 * A barrier in each of `chats`: /start (sent by `send`, by default as a private
 * message through the fake), which the bot answers after every update sent to
 * that chat before it (a chat's updates are handled in order). Resolves once
 * each chat has the greeting; a repeat of an earlier answer would show before it.
 */
export async function greetingBarrier(
  fake: TelegramFake,
  chats: readonly number[],
  send: (chat: number) => unknown = (c) =>
    fake.sendText({ chat: { id: c, type: 'private' }, from: { id: c, first_name: 'B' }, text: '/start' }),
): Promise<void> {
  const greeted = (c: number) => fake.messages(c).filter(isGreeting).length;
  const before = new Map(chats.map((c) => [c, greeted(c)]));
  await Promise.all(chats.map((c) => send(c)));
  await until(() => chats.every((c) => greeted(c) > before.get(c)!), `the barrier's answer in ${chats.length} chat(s)`);
}
