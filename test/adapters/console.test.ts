import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/server.ts';
import { usd } from '../../src/i18n/english.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/**
 * Runs `npm start`'s entry point as a user would, with lines on stdin, from a
 * temporary directory: the pictures it saves land there, not in the repository.
 */
async function runBot(
  lines: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string; cwd: string }> {
  const cwd = await mkdtemp(join(tmpdir(), 'kolradar-console-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      cwd,
      env: { PATH: process.env.PATH ?? '', STORE_URL: 'memory:', LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, cwd });
    });
    child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });
}

test('piped commands print the sandbox cards on stdout, the banner on stderr, and exit 0', async (t) => {
  const sb = await startSandbox(); // same default seed as the embedded one: same tokens and KOLs
  t.after(() => sb.close());
  const token = sb.data.tokens.find((x) => x.chain_id === 'solana' && x.marketcap > 1000)!;
  const kol = sb.data.kols[5]!;
  const r = await runBot([
    '/help',
    `/token solana ${token.address}`,
    `/kol @${kol.username}`,
    '/kols sort:winrate',
    '1',
    '/token solanaa x',
  ]);
  t.after(() => rm(r.cwd, { recursive: true, force: true }));
  assert.equal(r.code, 0, r.stderr);
  const saved = [...r.stdout.matchAll(/\[picture\] .*: (\S+\.png)$/gm)].map((m) => m[1]!);
  assert.ok(saved.length >= 2, 'the token and KOL cards saved their pictures');
  for (const path of saved) assert.ok(path.startsWith(join(r.cwd, 'out')) && existsSync(path), path);
  assert.match(r.stderr, /embedded sandbox/);
  assert.match(r.stderr, /\/token solana \S+/, 'the banner shows example commands');
  assert.doesNotMatch(r.stdout, /embedded sandbox/, 'stdout holds replies only');
  assert.match(r.stdout, /\/token — /, '/help lists commands');
  assert.ok(r.stdout.includes(`${token.name} ($${token.symbol})`), 'token card title');
  assert.ok(r.stdout.includes(usd(token.marketcap)), `market cap ${usd(token.marketcap)}`);
  assert.ok(r.stdout.includes(`@${kol.username}`), 'KOL card');
  assert.match(r.stdout, /1-10 of \d+ · sorted by winrate/);
  assert.match(r.stdout, /11-20 of \d+/, 'pressing button 1 shows the next page');
  assert.match(r.stdout, /Unknown chain 'solanaa'. Did you mean solana\?/);
  assert.doesNotMatch(r.stdout + r.stderr, /at .*\.ts:\d+/, 'no stack trace');
});

test('a bad configuration stops at start with every faulty variable named, and no secret echoed', async (t) => {
  const r = await runBot([], { KOL_API_BASE_URL: 'nope', TELEGRAM_BOT_TOKEN: 'secret-value-here', LOG_LEVEL: 'loud' });
  t.after(() => rm(r.cwd, { recursive: true, force: true }));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /KOL_API_BASE_URL/);
  assert.match(r.stderr, /KOL_API_KEY/);
  assert.match(r.stderr, /TELEGRAM_BOT_TOKEN/);
  assert.match(r.stderr, /LOG_LEVEL/);
  assert.doesNotMatch(r.stderr, /secret-value-here/);
});
