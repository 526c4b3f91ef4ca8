/**
 * Starts a private redis-server on a free port for one test file and stops it
 * after. Never uses a server started elsewhere. Without the binary the caller
 * skips with a visible notice, except under CI, where its absence fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { PATIENCE_MS } from './wait.ts';

/**
 * The environment without libfaketime: the date-shifted runs (test/ops/dates.test.ts) move the
 * tests' clock with it, and redis-server's allocator calls clock_gettime before libfaketime is
 * ready (it stops at start). The server keeps the real clock, which it only uses for TTLs the
 * store gives it as spans, never as instants.
 */
function realClock(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of Object.keys(out)) if (k.startsWith('FAKETIME')) delete out[k];
  out.LD_PRELOAD = (out.LD_PRELOAD ?? '')
    .split(/[: ]/)
    .filter((l) => l && !l.includes('faketime'))
    .join(':');
  if (!out.LD_PRELOAD) delete out.LD_PRELOAD;
  return out;
}

export function redisAvailable(): boolean {
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore', env: realClock(process.env) }).status === 0;
  if (!found && process.env.CI === 'true')
    throw new Error('redis-server is required under CI but was not found on PATH');
  return found;
}

export const REDIS_SKIP = 'redis-server not installed: Redis store tests skipped (install redis-server to run them)';

/** Free ports are drawn below Linux's ephemeral range (32768-60999), where listen(0) never hands them out. */
const QUIET_PORTS = { from: 20_000, to: 32_000 };

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const bound = (srv.address() as { port: number }).port;
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * Ports handed out by any test process, one file each: between handing a port out and a child
 * binding it (a bot starting, seconds on a loaded machine), another test file running in parallel
 * drew the same port (EADDRINUSE at the bot's start). A port is not handed out again for a while.
 */
const HANDED_OUT = join(tmpdir(), 'kolradar-test-ports');
const HELD_MS = 15 * 60_000;

/** Takes `port` for this process unless a test process (this one included) took it in the last HELD_MS. */
export function reservePort(port: number): boolean {
  mkdirSync(HANDED_OUT, { recursive: true });
  const file = join(HANDED_OUT, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    try {
      if (Date.now() - statSync(file).mtimeMs < HELD_MS) return false;
      rmSync(file, { force: true });
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      return false; // another process took it just now
    }
  }
}

/**
 * A port nothing listens on (just closed); also where a test may start something later.
 * Not an ephemeral port: between this check and a child process binding it, any
 * listen(0) or outgoing connection in the parallel tests could otherwise take it;
 * and not one another test file was handed lately (reservePort).
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = QUIET_PORTS.from + Math.floor(Math.random() * (QUIET_PORTS.to - QUIET_PORTS.from));
    if (!reservePort(port)) continue;
    if ((await tryListen(port)) !== undefined) return port;
  }
  const any = await tryListen(0);
  if (any === undefined) throw new Error('no free port on 127.0.0.1');
  return any;
}

export interface RedisServer {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** `port` to start on a port chosen before (a late start); `args` for more settings, such as `--requirepass`. */
export async function startRedis(
  t?: TestContext,
  o: { port?: number; args?: readonly string[] } = {},
): Promise<RedisServer> {
  const port = o.port ?? (await freePort());
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'yes',
    ...(o.args ?? []),
  ];
  const child = spawn('redis-server', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: realClock(process.env),
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), PATIENCE_MS);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  t?.after(() => server.stop());
  return server;
}

/**
 * What Redis does by itself once a killed process's leases time out (the watcher's, the
 * Telegram poller's: 15 s), done at once so a restart test does not sit out the TTL.
 */
export async function runOutLeases(url: string): Promise<void> {
  const { openStore } = await import('../../src/store/index.ts');
  const s = await openStore(url);
  try {
    const keys = (await s.redis!.keys('kolradar:lease:*')).filter((k) => !k.endsWith(':fence'));
    for (const k of keys) await s.redis!.pExpire(k, 1);
  } finally {
    await s.close();
  }
}
