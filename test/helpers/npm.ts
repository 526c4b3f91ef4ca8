/** What an operator types: an npm script with its arguments, and the start line a supervisor runs. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run -s <script> -- args` in the repository, with only `env` and PATH/HOME set. */
export function npmRun(script: string, args: readonly string[], env: Record<string, string> = {}) {
  const r = spawnSync('npm', ['run', '-s', script, '--', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

/** `npm start`'s command without the leading `node`: what a supervisor runs, read from package.json in `dir`. */
export function startLine(dir = ROOT): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [bin, ...args] = pkg.scripts.start.split(/\s+/);
  assert.equal(bin, 'node', 'npm start runs node itself, with no shell wrapper in between');
  return args;
}
