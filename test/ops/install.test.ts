/**
 * A production install, as an operator makes one, in a fresh folder holding
 * the repository's files:
 * - `npm ci --omit=dev`, then the documented start line with the host's Node 24
 *   (the `node` dev dependency is not installed): /help answered through the
 *   console, and the install's size reported;
 * - the Dockerfile's own install and start steps, read from the file and run as
 *   written (no container engine here): the fonts trimmed to what the charts
 *   read with every script they draw still covered, /healthz answered through
 *   the HEALTHCHECK command, the SQLite file on the data volume, SIGTERM exit 0.
 * Slow (two installs from the npm cache): one file, run in sequence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/server.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';
import { freePort } from '../helpers/redis.ts';
import { parseDockerfile } from '../helpers/dockerfile.ts';
import { startLine } from '../helpers/npm.ts';
import { until } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The host's Node 24 first: what the image's base provides, and what a system install provides. */
const PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);

/** The repository's files (tracked and new, never ignored ones such as node_modules) copied to `dest`. */
function freshCopy(dest: string): void {
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  for (const f of r.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, f))) continue; // deleted, not yet committed
    mkdirSync(dirname(join(dest, f)), { recursive: true });
    cpSync(join(ROOT, f), join(dest, f));
  }
}

/**
 * What npm needs from this host to reach its registry and cache (a proxy, its CA),
 * and prefer-offline: the checkout's own `npm ci` filled the cache with every
 * tarball the lock names, so the fresh installs read it instead of waiting on
 * the network (without the CA a TLS proxy makes each fetch time out first).
 */
const NPM_ENV: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] =>
        e[1] !== undefined && /^(NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR)|(HTTPS?|NO)_PROXY)$/i.test(e[0]),
    ),
  ),
  npm_config_prefer_offline: 'true',
};

function sh(line: string, cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync('sh', ['-c', line], {
    cwd,
    env: { PATH, HOME: process.env.HOME ?? '', ...NPM_ENV, ...env },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${line}\n${r.stderr}`);
  return r.stdout;
}

const megabytes = (dir: string) => Number(sh(`du -sk ${dir}`, '/').split('\t')[0]) / 1024;

test('npm ci --omit=dev in a fresh folder, then the documented start line: the console answers /help', {
  timeout: 300_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-install-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  freshCopy(dir);
  sh('npm ci --omit=dev --no-audit --no-fund', dir);
  assert.ok(!existsSync(join(dir, 'node_modules/.bin/node')), 'the node dev dependency is not installed');
  t.diagnostic(`npm ci --omit=dev: node_modules ${megabytes(join(dir, 'node_modules')).toFixed(0)} MB`);

  // The start line the README documents for production: npm start's own node command.
  const args = startLine(dir);
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  assert.ok(readme.includes(`node ${args.join(' ')}`), 'the README documents this start line');
  const child = spawn('node', args, { cwd: dir, env: { PATH }, stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => void child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  child.stdin.write('/help\n');
  // A fresh process on a cold install: the safety net the old loop had.
  await until(() => /\/subscribe/.test(out), 'the console to print the help', 60_000);
  assert.match(out, /\/token/, 'the help lists the commands');
  assert.match(out, /\/subscribe/);
  child.stdin.end();
  assert.equal(await exited, 0, 'end of input: a clean exit');
});

test('the Dockerfile’s install and start steps, run as written in a fresh folder: /healthz, data volume, SIGTERM exit 0', {
  timeout: 300_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-image-'));
  const sb = await startSandbox();
  const telegram = await startTelegramFake({ limits: false });
  t.after(async () => {
    await telegram.close();
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  });
  const context = join(dir, 'context');
  freshCopy(context);
  const image = parseDockerfile(readFileSync(join(context, 'Dockerfile'), 'utf8'));
  const final = image.stages.at(-1)!;
  assert.ok(image.stages.length >= 2, 'multi-stage');
  assert.equal(final.user, 'node', 'runs as a non-root user');
  assert.deepEqual(final.volumes, ['/data']);
  assert.equal(final.cmd?.[0], 'node', 'exec form: node itself is PID 1 and gets SIGTERM');
  assert.ok(final.healthcheck?.some((a) => a.includes('/healthz')));

  // Each stage's file system is a folder; absolute paths in its steps are mapped into it.
  const rootOf = (i: number) => join(dir, `stage-${i}`);
  const at = (i: number, p: string) => join(rootOf(i), p);
  const map = (i: number, text: string) =>
    text.replace(/(^|[\s=:])\/(app|data)\b/g, (_, pre, p) => `${pre}${at(i, p)}`);
  for (const [i, stage] of image.stages.entries()) {
    let cwd = rootOf(i);
    mkdirSync(cwd, { recursive: true });
    for (const step of stage.steps) {
      if (step.op === 'WORKDIR') {
        cwd = at(i, step.args);
        mkdirSync(cwd, { recursive: true });
      } else if (step.op === 'COPY') {
        const from = /--from=(\S+)/.exec(step.args)?.[1];
        const parts = step.args.replace(/--\S+/g, '').trim().split(/\s+/);
        const dest = join(cwd, parts.pop()!);
        for (const src of parts) {
          const source = from
            ? at(
                image.stages.findIndex((s) => s.name === from),
                src,
              )
            : join(context, src);
          // As Docker does: a folder's contents go into the destination; a file into it when it is a folder.
          const intoFolder = statSync(source).isFile() && (parts.length > 1 || /\/$/.test(step.args));
          cpSync(source, intoFolder ? join(dest, basename(src)) : dest, { recursive: true });
        }
      } else if (step.op === 'RUN') {
        // The image runs as root here; there is no user "node" on this host to give the volume to.
        const out = sh(map(i, step.args).replace(/chown \S+ \S+/g, 'true'), cwd, stage.env);
        if (/slim-install/.test(step.args)) t.diagnostic(out.trim());
      }
    }
  }
  const app = at(image.stages.length - 1, '/app');
  const modules = join(app, 'node_modules');
  t.diagnostic(`image install: node_modules ${megabytes(modules).toFixed(0)} MB, app ${megabytes(app).toFixed(0)} MB`);
  assert.ok(!existsSync(join(modules, 'typescript')), 'no TypeScript at run time');
  assert.ok(!existsSync(join(modules, '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf')));
  // Every script the charts draw still has its glyphs: Latin, Vietnamese, Greek, Cyrillic, Han, kana, Hangul.
  const covered = sh(
    `node -e "import('./src/views/charts/font.ts').then((f) => { f.setFallbackFaces(true); const s = 'Aé ắ Ω Ж 币 ト ㄅ 한'; console.log([...s.replace(/ /g, '')].filter((c) => !f.hasGlyph(c.codePointAt(0))).join('') || 'all') })"`,
    app,
  );
  assert.equal(covered.trim(), 'all', 'no character the charts draw falls back to a box');

  const port = await freePort();
  const env: Record<string, string> = {
    ...Object.fromEntries(Object.entries(final.env).map(([k, v]) => [k, map(image.stages.length - 1, v)])),
    HTTP_PORT: String(port),
    HTTP_HOST: '127.0.0.1',
    KOL_API_BASE_URL: sb.url,
    KOL_API_KEY: sb.apiKey,
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
  };
  const [cmd, ...cmdArgs] = final.cmd!;
  const child = spawn(cmd!, cmdArgs, { cwd: app, env: { PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => void child.kill('SIGKILL'));
  let logs = '';
  child.stderr.on('data', (d: Buffer) => (logs += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  const [hc, ...hcArgs] = final.healthcheck!;
  const healthy = () => spawnSync(hc!, hcArgs, { cwd: app, env: { PATH, ...env }, stdio: 'ignore' }).status === 0;
  // Ready first: each health check is a node process, not something to spawn back to back while the bot starts.
  const withLogs = (err: Error) => assert.fail(`${err.message}\n${logs}`);
  await until(() => logs.includes('"msg":"ready"'), 'the bot in the image to log ready', 60_000).catch(withLogs);
  await until(healthy, 'the HEALTHCHECK command to pass').catch(withLogs);
  assert.ok(existsSync(at(image.stages.length - 1, '/data/kolradar.sqlite')), 'the store lives on the data volume');
  telegram.sendText({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Op' }, text: '/help' });
  await until(() => telegram.messages(77).length > 0, 'the answer to /help');
  assert.match(telegram.messages(77)[0]?.text ?? '', /\/token/, 'the bot in the image answers');
  child.kill(final.stopSignal ?? 'SIGTERM');
  assert.equal(await exited, 0, 'SIGTERM: drained and exit 0');
});
