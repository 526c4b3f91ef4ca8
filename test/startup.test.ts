/**
 * The start-up bound on simulated time (mock.timers): how often a dependency
 * that never comes is tried and reported, when the wait gives up, and that a
 * signal ends it at once.
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../src/log.ts';
import {
  FIRST_ATTEMPT_MS,
  LATER_ATTEMPT_MS,
  LOG_EVERY_MS,
  StartupError,
  waitFor,
  type Dependency,
} from '../src/startup.ts';

function collectingLogger() {
  const lines: { level: number; msg: string; attempt?: number; time: number }[] = [];
  const log = createLogger({
    level: 'info',
    secrets: [],
    destination: { write: (l) => lines.push({ ...JSON.parse(l), time: Date.now() }) },
  });
  return { log, lines };
}

/** The pause between attempts on the mocked callback timer (abortable like the real one): simulated time, not a wait. */
const mockedSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Simulated time after which a wait that has not settled fails by name instead of spinning on. */
const SIMULATED_LIMIT_MS = 10 * 60_000;

/** Drives simulated time in small steps until `p` settles (no real time passes: the steps are mocked). */
async function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown; at: number }> {
  let done: { value?: T; error?: unknown } | undefined;
  p.then(
    (value) => (done = { value }),
    (error: unknown) => (done = { error }),
  );
  const limit = Date.now() + SIMULATED_LIMIT_MS;
  while (!done) {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    if (done) break;
    if (Date.now() > limit) assert.fail(`the wait never settled in ${SIMULATED_LIMIT_MS} ms of simulated time`);
    mock.timers.tick(10);
  }
  return { ...done, at: Date.now() };
}

test('a refused dependency: reported at the first failure, then at most every 5 s, given up at the bound', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  t.after(() => mock.timers.reset());
  const { log, lines } = collectingLogger();
  const said: string[] = [];
  const waiting: (string | undefined)[] = [];
  const attempts: number[] = [];
  const dep: Dependency<never> = {
    name: 'the store (redis at 127.0.0.1:1)',
    hint: 'Check STORE_URL',
    attempt: async () => {
      attempts.push(Date.now());
      throw new Error('connection refused (ECONNREFUSED)');
    },
  };
  const r = await settle(
    waitFor(dep, {
      sleep: mockedSleep,
      timeoutMs: 30_000,
      log,
      say: (l) => said.push(l),
      onWaiting: (w) => waiting.push(w),
      random: () => 1,
    }),
  );

  assert.ok(r.error instanceof StartupError);
  assert.equal(
    (r.error as Error).message,
    `cannot connect to the store (redis at 127.0.0.1:1) after 30 s (${attempts.length} attempts): connection refused (ECONNREFUSED). Check STORE_URL.`,
  );
  assert.ok(r.at >= 30_000 && r.at <= 30_000 + 50, `gave up at the bound (${r.at} ms)`);
  const warns = lines.filter((l) => l.level === 40);
  assert.equal(warns[0]!.time, 0, 'the first failure is logged at once');
  assert.equal(warns[0]!.attempt, 1);
  for (let i = 1; i < warns.length; i++)
    assert.ok(warns[i]!.time - warns[i - 1]!.time >= LOG_EVERY_MS, 'reminders at least 5 s apart');
  assert.ok(warns.length >= 5 && warns.length <= 7, `a reminder every 5 s or so over 30 s (${warns.length})`);
  assert.ok(attempts.length > warns.length, `retried more often than reported (${attempts.length} attempts)`);
  for (let i = 1; i < attempts.length; i++)
    assert.ok(attempts[i]! - attempts[i - 1]! <= 3_000, 'backoff capped at 3 s');
  assert.deepEqual(
    said,
    warns.map((w) => w.msg),
    'the terminal hears the same lines',
  );
  assert.equal(waiting.length, attempts.length, '/readyz learns every failure');
  assert.match(waiting[0]!, /^cannot connect to the store \(redis at 127\.0\.0\.1:1\): connection refused/);
});

test('a dependency that never answers: each attempt is cut at its bound, the first one short', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  t.after(() => mock.timers.reset());
  const { log, lines } = collectingLogger();
  const bounds: number[] = [];
  const dep: Dependency<never> = {
    name: 'the store (redis at 127.0.0.1:2)',
    hint: 'Check STORE_URL',
    attempt: (signal, boundMs) =>
      new Promise((_, reject) => {
        bounds.push(boundMs);
        signal.addEventListener('abort', () => reject(new Error(`no answer within ${boundMs} ms`)));
      }),
  };
  const r = await settle(waitFor(dep, { sleep: mockedSleep, timeoutMs: 12_000, log, random: () => 0 }));
  assert.ok(r.error instanceof StartupError);
  assert.equal(bounds[0], FIRST_ATTEMPT_MS);
  assert.equal(bounds[1], LATER_ATTEMPT_MS);
  const first = lines.find((l) => l.level === 40)!;
  assert.equal(first.time, FIRST_ATTEMPT_MS, 'reported when the first attempt is cut, within 2 s');
  assert.ok(r.at <= 12_000 + 50, `the last attempt is cut at the bound too (${r.at} ms)`);
});

test('a dependency that comes late: reached, logged once, and /readyz told it is no longer waiting', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  t.after(() => mock.timers.reset());
  const { log, lines } = collectingLogger();
  const waiting: (string | undefined)[] = [];
  const dep: Dependency<string> = {
    name: 'the store (redis at 127.0.0.1:3)',
    hint: 'Check STORE_URL',
    attempt: async () => {
      if (Date.now() < 4_000) throw new Error('connection refused (ECONNREFUSED)');
      return 'client';
    },
  };
  const r = await settle(
    waitFor(dep, { sleep: mockedSleep, timeoutMs: 30_000, log, onWaiting: (w) => waiting.push(w), random: () => 1 }),
  );
  assert.equal(r.value, 'client');
  assert.equal(waiting.at(-1), undefined);
  assert.match(lines.at(-1)!.msg, /^reached the store \(redis at 127\.0\.0\.1:3\)/);
});

test('a signal during the wait ends it at once, without the failure line', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  t.after(() => mock.timers.reset());
  const { log } = collectingLogger();
  const stop = new AbortController();
  const dep: Dependency<never> = {
    name: 'the store',
    hint: 'Check STORE_URL',
    attempt: async () => {
      if (Date.now() >= 2_000) stop.abort(new Error('SIGTERM'));
      throw new Error('connection refused (ECONNREFUSED)');
    },
  };
  const r = await settle(
    waitFor(dep, { sleep: mockedSleep, timeoutMs: 30_000, log, signal: stop.signal, random: () => 1 }),
  );
  assert.equal((r.error as Error).message, 'SIGTERM');
  assert.ok(!(r.error instanceof StartupError));
  assert.ok(r.at < 30_000);
});
