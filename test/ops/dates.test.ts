/**
 * The tests that carry dates (every store-version upgrade, from snapshots recorded
 * on given days, and quiet hours, which live on the clock) pass whatever day they
 * run on: here they run again under Debian's libfaketime with the clock moved a
 * day, forty days and four hundred days ahead (a snapshot test once passed only on
 * the day it was recorded). The clock runs on from the moved date; monotonic time
 * is left alone so timers behave. Without faketime this is skipped with a notice,
 * and fails under CI, where .ci/run installs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const SHIFTS = ['+1d', '+40d', '+400d'];

const found = spawnSync('faketime', ['-f', '+0d', 'true'], { stdio: 'ignore' }).status === 0;
if (!found && process.env.CI === 'true') throw new Error('faketime is required under CI but was not found on PATH');
const SKIP = found ? false : 'faketime not installed (Debian package faketime): the date-shifted runs are skipped';

/** The store-version tests (seeded from test/store/versions/) and the quiet-hours tests. */
const FILES = [
  ...readdirSync(new URL('test/store/', root))
    .filter((f) => /-v\d+\.test\.ts$/.test(f) || f === 'schema.test.ts')
    .map((f) => `test/store/${f}`),
  'test/alerts/destinations.test.ts',
  'test/alerts/quiet.test.ts',
  'test/alerts/pause-end.test.ts',
  'test/alerts/delivery/regroup.test.ts',
];

/** This process's environment for a run of its own (not a child reporting to this runner), under faketime. */
function shifted(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function run(shift: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      'faketime',
      ['-f', shift, process.execPath, '--test', '--test-concurrency=1', '--test-reporter=tap', ...FILES],
      {
        cwd: root,
        env: shifted(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('close', (code) => resolve({ code, out }));
  });
}

/** The failed tests of a TAP report, each with the lines that say why. */
function failures(tap: string): string {
  const lines = tap.split('\n');
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (/^\s*not ok /.test(l)) out.push(...lines.slice(i, i + 30));
  });
  return (out.length ? out.join('\n') : tap.slice(-4000)).slice(0, 12_000);
}

for (const shift of SHIFTS) {
  test(`the store-version and quiet-hours tests pass with the clock moved ${shift} ahead`, { skip: SKIP }, async () => {
    const { code, out } = await run(shift);
    const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? Number.NaN);
    // The moved clock is seen by the tests (faketime took), and they all ran and passed.
    assert.ok(FILES.length >= 15, `the date-carrying files are found: ${FILES.length}`);
    assert.equal(code, 0, `the run under ${shift} failed:\n${failures(out)}`);
    assert.ok(count('pass') >= 40, `tests passed under ${shift}: ${count('pass')}`);
    assert.equal(count('fail'), 0);
    assert.equal(count('skipped'), 0, 'none skipped (the Redis halves included)');
  });
}

test('faketime moves the clock the tests see', { skip: SKIP }, () => {
  const r = spawnSync('faketime', ['-f', '+400d', process.execPath, '-p', 'Date.now()'], {
    env: shifted(),
    encoding: 'utf8',
  });
  const moved = Number(r.stdout.trim()) - Date.now();
  assert.ok(moved > 399 * 86_400_000 && moved < 401 * 86_400_000, `moved by ${moved} ms`);
});
