/**
 * Bot processes for the SIGKILL tests: each test's child script runs the real
 * app and adapters against the fakes and the sandbox, so a kill lands between
 * real writes. Not a test file itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** What a child bot needs to reach the sandbox, its store and both platform fakes. */
export function childEnv(
  sb: { url: string; apiKey: string },
  storeUrl: string,
  discord: { token: string; applicationId: string; apiBase: string },
  telegram: { token: string; apiRoot: string },
): Record<string, string> {
  return {
    KOL_API_BASE_URL: sb.url,
    KOL_API_KEY: sb.apiKey,
    STORE_URL: storeUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_APPLICATION_ID: discord.applicationId,
    DISCORD_API_BASE: discord.apiBase,
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
  };
}

/** Starts `script` with `args`; resolves once it prints "ready", rejects if it exits first. */
export async function startReadyChild(script: string, args: readonly string[]): Promise<ChildProcess> {
  const c = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    c.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    c.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  return c;
}

/** Resolves once `c` has exited (at once when it already has). */
export const exited = (c: ChildProcess): Promise<void> =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

/**
 * How long a SIGKILL test waits for a bot process before calling it stuck: a
 * safety net, not a measure (at 8 test files at once on 2 cores one took over
 * 30 s to record its calls).
 */
export const CHILD_PATIENCE_MS = 120_000;
