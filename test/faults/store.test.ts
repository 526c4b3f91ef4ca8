/**
 * The real bot process started against a store it cannot use: nothing listens
 * on the port, the port accepts and never answers, the password is wrong. Each
 * time the log and the terminal say which store and why before the process
 * gives up, /readyz answers 503 naming the store while it waits, no password
 * is printed, and it exits non-zero after STORE_CONNECT_TIMEOUT. With Redis
 * started late, the bot connects and answers commands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { REDIS_SKIP, freePort, redisAvailable, startRedis } from '../helpers/redis.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const USER = 'kolbot-user-7f3a';
const PASSWORD = 'pw-secret-93x-never-print';
const RIGHT_PASSWORD = 'right-secret-58q-never-print';
const available = redisAvailable();
if (!available) process.stderr.write(`NOTICE: ${REDIS_SKIP}\n`);

interface Bot {
  /** Everything written so far, stdout and stderr. */
  output(): string;
  stdout(): string;
  /** The nth line matching (the first by default), as soon as it is written; rejects if the process exits before. */
  line(re: RegExp, nth?: number): Promise<string>;
  readonly exited: Promise<number | null>;
  /** What happened, in order: each awaited line's label, then 'exit'. */
  readonly events: string[];
  stdin(text: string): void;
  /** Ends the input: the console adapter finishes its replies and the bot exits. */
  end(): void;
  kill(): void;
}

/** `npm start`'s entry point as a user runs it: the console adapter (no platform tokens), JSON logs on stderr. */
function startBot(env: Record<string, string>): Bot {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', HTTP_PORT: '0', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  let code: number | null | undefined;
  const events: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
    wake();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
    wake();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (c) => {
      code = c;
      events.push('exit');
      resolve(c);
      wake();
    }),
  );
  return {
    output: () => out,
    stdout: () => stdout,
    events,
    exited,
    line: (re, nth = 1) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = out.split('\n').filter((l) => re.test(l))[nth - 1];
          if (found !== undefined) {
            waiters.delete(check);
            events.push(re.source);
            resolve(found);
          } else if (code !== undefined) {
            waiters.delete(check);
            reject(new Error(`the bot exited (${code}) before writing ${re}:\n${out}`));
          }
        };
        waiters.add(check);
        check();
      }),
    stdin: (text) => child.stdin.write(text),
    end: () => child.stdin.end(),
    kill: () => child.kill('SIGKILL'),
  };
}

const WAIT_LINE = /^\{.*"msg":"cannot connect to the store/;
const PLAIN_WAIT_LINE = /^cannot connect to the store \(redis at 127\.0\.0\.1:\d+\)/;
const FINAL_LINE =
  /^kolradar could not start: cannot connect to the store \(redis at 127\.0\.0\.1:\d+\) after 3(?:\.\d)? s/;

/** The whole failed start, with the assertions every case shares; returns the first wait line for case-specific ones. */
async function failedStart(t: import('node:test').TestContext, storePort: number, storeUrl: string, secrets: string[]) {
  const bot = startBot({ STORE_URL: storeUrl, STORE_CONNECT_TIMEOUT: '3s' });
  t.after(() => bot.kill());
  const http = (JSON.parse(await bot.line(/"msg":"health and metrics listening"/)) as { port: number }).port;
  const first = JSON.parse(await bot.line(WAIT_LINE)) as { attempt: number; reason: string; msg: string };
  assert.equal(first.attempt, 1, 'the first failed attempt is reported, not a later one');
  assert.ok(first.msg.includes(`(redis at 127.0.0.1:${storePort})`), `the line names host and port: ${first.msg}`);
  await bot.line(PLAIN_WAIT_LINE); // the console user sees it in plain words too

  // While it waits: alive, not ready, and /readyz says which store and why.
  assert.equal((await fetch(`http://127.0.0.1:${http}/healthz`)).status, 200);
  const ready = await fetch(`http://127.0.0.1:${http}/readyz`);
  const body = (await ready.json()) as { ready: boolean; store: boolean; storeName: string; waiting: string };
  assert.equal(ready.status, 503);
  assert.equal(body.ready, false);
  assert.equal(body.storeName, `redis at 127.0.0.1:${storePort}`);
  assert.ok(body.waiting.includes(first.reason), `/readyz says why: ${body.waiting}`);

  const code = await bot.exited;
  assert.notEqual(code, 0, 'a supervisor sees a failed start');
  assert.equal(code, 1);
  assert.deepEqual(
    bot.events,
    [/"msg":"health and metrics listening"/.source, WAIT_LINE.source, PLAIN_WAIT_LINE.source, 'exit'],
    'the lines came before the exit',
  );
  const lines = bot.output().split('\n');
  assert.ok(
    lines.some((l) => FINAL_LINE.test(l)),
    `one plain final line on the terminal:\n${bot.output()}`,
  );
  assert.ok(
    lines.some((l) => l.startsWith('{') && l.includes('"level":60') && l.includes('kolradar could not start')),
    'and in the JSON log',
  );
  assert.equal(lines.filter((l) => WAIT_LINE.test(l)).length, 1, 'retries within 3 s are not each logged');
  assert.doesNotMatch(bot.output(), /\n\s+at .*\.(ts|js):\d+/, 'no stack trace');
  for (const s of secrets) {
    assert.ok(!bot.output().includes(s), `the output contains a credential (${s.slice(0, 4)}…)`);
    assert.ok(!JSON.stringify(body).includes(s), `/readyz contains a credential (${s.slice(0, 4)}…)`);
  }
  return { first, output: bot.output() };
}

test('nothing listens on the store port: refused, said at once, exit 1 after the timeout', {
  timeout: 60_000,
}, async (t) => {
  const port = await freePort();
  const { first, output } = await failedStart(t, port, `redis://${USER}:${PASSWORD}@127.0.0.1:${port}`, [
    USER,
    PASSWORD,
  ]);
  assert.match(first.reason, /ECONNREFUSED/);
  assert.match(output, /after 3(?:\.\d)? s \((\d+) attempts\)/, 'it retried');
  assert.ok(Number(/after 3(?:\.\d)? s \((\d+) attempts\)/.exec(output)![1]) > 1, 'more than one attempt');
});

test('the store port accepts and never answers: said after the first attempt, exit 1 after the timeout', {
  timeout: 60_000,
}, async (t) => {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const silent = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.after(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const port = (silent.address() as { port: number }).port;
  const { first } = await failedStart(t, port, `redis://${USER}:${PASSWORD}@127.0.0.1:${port}`, [USER, PASSWORD]);
  assert.match(first.reason, /accepts connections but no Redis answered/);
  assert.ok(accepted >= 2, `the bot tried again (${accepted} connections)`);
});

test('a wrong Redis password: WRONGPASS said at once, neither password printed, exit 1 after the timeout', {
  skip: available ? false : REDIS_SKIP,
  timeout: 60_000,
}, async (t) => {
  const redis = await startRedis(t, { args: ['--requirepass', RIGHT_PASSWORD] });
  const port = Number(new URL(redis.url).port);
  const { first } = await failedStart(t, port, `redis://:${PASSWORD}@127.0.0.1:${port}`, [PASSWORD, RIGHT_PASSWORD]);
  assert.match(first.reason, /WRONGPASS/);
});

test('Redis started a few seconds late: the bot waits, then connects and answers commands', {
  skip: available ? false : REDIS_SKIP,
  timeout: 90_000,
}, async (t) => {
  const port = await freePort();
  const bot = startBot({ STORE_URL: `redis://${USER}:${PASSWORD}@127.0.0.1:${port}` }); // the default 30 s bound
  t.after(() => bot.kill());
  const http = (JSON.parse(await bot.line(/"msg":"health and metrics listening"/)) as { port: number }).port;
  await bot.line(WAIT_LINE);
  assert.equal((await fetch(`http://127.0.0.1:${http}/readyz`)).status, 503);
  // Redis comes a few seconds late: after the bot's second reminder (they are 5 s apart).
  const again = JSON.parse(await bot.line(WAIT_LINE, 2)) as { attempt: number };
  assert.ok(again.attempt > 2, `attempts between the reminders are not logged (reminder at attempt ${again.attempt})`);
  await startRedis(t, { port, args: ['--user', USER, 'on', `>${PASSWORD}`, '~*', '&*', '+@all'] });
  const reached = JSON.parse(await bot.line(/"msg":"reached the store/)) as { attempts: number };
  assert.ok(reached.attempts > 1);
  await bot.line(/"msg":"ready"/);
  const ready = await fetch(`http://127.0.0.1:${http}/readyz`);
  assert.equal(ready.status, 200);
  assert.equal(((await ready.json()) as { storeName: string }).storeName, `redis at 127.0.0.1:${port}`);

  bot.stdin('/help\n');
  bot.end();
  assert.equal(await bot.exited, 0);
  assert.match(bot.stdout(), /\/token — /, '/help answered from the store-backed bot');
  for (const s of [USER, PASSWORD])
    assert.ok(!bot.output().includes(s), `the output contains a credential (${s.slice(0, 4)}…)`);
});

test('Redis lost while running: said once, /readyz 503, then back and said so; commands answer again', {
  skip: available ? false : REDIS_SKIP,
  timeout: 90_000,
}, async (t) => {
  const acl = ['--user', USER, 'on', `>${PASSWORD}`, '~*', '&*', '+@all'];
  const first = await startRedis(t, { args: acl });
  const port = Number(new URL(first.url).port);
  const bot = startBot({ STORE_URL: `redis://${USER}:${PASSWORD}@127.0.0.1:${port}` });
  t.after(() => bot.kill());
  const http = (JSON.parse(await bot.line(/"msg":"health and metrics listening"/)) as { port: number }).port;
  await bot.line(/"msg":"ready"/);
  assert.equal((await fetch(`http://127.0.0.1:${http}/readyz`)).status, 200);

  await first.stop();
  const lost = JSON.parse(await bot.line(/"msg":"lost the store/)) as { msg: string };
  assert.match(lost.msg, new RegExp(`^lost the store \\(redis at 127\\.0\\.0\\.1:${port}\\): .*; reconnecting$`));
  const down = await fetch(`http://127.0.0.1:${http}/readyz`);
  assert.equal(down.status, 503);
  assert.equal(((await down.json()) as { store: boolean }).store, false);

  // Meanwhile a bare TCP server holds the port and hangs up on each reconnect attempt, counting them.
  let attempts = 0;
  const sawThree = Promise.withResolvers<void>();
  const refuser = createServer((s) => {
    s.destroy();
    if (++attempts === 3) sawThree.resolve();
  });
  await new Promise<void>((r) => refuser.listen(port, '127.0.0.1', r));
  await sawThree.promise;
  await new Promise<void>((r) => refuser.close(() => r()));
  await startRedis(t, { port, args: acl });
  await bot.line(/"msg":"the store \(redis at 127\.0\.0\.1:\d+\) is reachable again"/);
  assert.equal((await fetch(`http://127.0.0.1:${http}/readyz`)).status, 200);
  const lines = bot.output().split('\n');
  assert.ok(attempts >= 3);
  assert.equal(
    lines.filter((l) => l.includes('"msg":"lost the store')).length,
    1,
    `one line for the outage, not one per retry (${attempts}+ retries)`,
  );
  bot.stdin('/help\n');
  bot.end();
  assert.equal(await bot.exited, 0);
  assert.match(bot.stdout(), /\/token — /);
  for (const s of [USER, PASSWORD])
    assert.ok(!bot.output().includes(s), `the output contains a credential (${s.slice(0, 4)}…)`);
});
