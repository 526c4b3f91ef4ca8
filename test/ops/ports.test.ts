/**
 * The free ports the tests hand to bot processes: a port one test file was
 * handed is not handed to another file running in parallel before the first
 * bot had time to bind it (two bots got the same port under 8 files at once).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { freePort, reservePort } from '../helpers/redis.ts';

test('a port handed out is not handed out again, in this process or another', async () => {
  const mine = await freePort();
  assert.equal(reservePort(mine), false, 'taken here');
  // Another test process: asked for this very port, it is refused; it gets others.
  const other = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { freePort, reservePort } = await import(${JSON.stringify(new URL('../helpers/redis.ts', import.meta.url).href)});
       const ports = []; for (let i = 0; i < 20; i++) ports.push(await freePort());
       console.log(JSON.stringify({ mine: reservePort(${mine}), ports }));`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(other.status, 0, other.stderr);
  const seen = JSON.parse(other.stdout) as { mine: boolean; ports: number[] };
  assert.equal(seen.mine, false, 'refused to another process');
  assert.equal(new Set([mine, ...seen.ports]).size, 21, 'every port handed out once');
});
