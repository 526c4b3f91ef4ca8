/**
 * The store's schema version, on SQLite and Redis: each migration from data
 * the previous version wrote (test/store/versions), a newer store refused with
 * one line, two instances starting at once migrating once, a migration that
 * dies half-way run again, and a running instance that a newer one outdates.
 */
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, type Store } from '../../src/store/index.ts';
import { LOCK_KEY, MIGRATIONS, SCHEMA_VERSION, type Migration, type SchemaMark } from '../../src/store/schema.ts';
import { StartupError } from '../../src/startup.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { CHATS, contents, populate } from '../helpers/populated.ts';
import { layoutOf, rawOnly, readSnapshot, seedVersion, snapshotOf } from '../helpers/schema.ts';
import { REDIS_SKIP, redisAvailable, startRedis, type RedisServer } from '../helpers/redis.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Writes the schema mark as a newer release would have left it. */
async function markAs(url: string, mark: Partial<SchemaMark> & { version: number; oldestCode: number }) {
  const raw = await rawOnly(url);
  await raw.store.putRows([
    { key: 'meta::schema', value: JSON.stringify({ value: { at: 0, by: 'newer', ...mark } }), expiresAt: null },
  ]);
  await raw.close();
}

/** Records every log line, for the one line an operator reads. */
function lines() {
  const out: { level: number; msg: string }[] = [];
  const log = createLogger({ level: 'info', secrets: [], destination: { write: (l) => out.push(JSON.parse(l)) } });
  return { log, out };
}

/** Counts its runs; optionally slow, to overlap two instances' starts. */
function counting(to: number, o: { kind?: Migration['kind']; slowMs?: number; failOnce?: boolean } = {}) {
  let runs = 0;
  let failed = false;
  const m: Migration = {
    to,
    what: `test step ${to}`,
    kind: o.kind ?? 'expand',
    async up(space) {
      runs++;
      await space('watch').set(`migrated-${to}`, runs);
      // Not a wait: a slow migration step, so that two instances' starts overlap.
      if (o.slowMs) await new Promise((r) => setTimeout(r, o.slowMs));
      if (o.failOnce && !failed) {
        failed = true;
        throw new Error('died half-way');
      }
    },
  };
  return { m, runs: () => runs };
}

function suite(backend: 'sqlite' | 'redis') {
  let redis: RedisServer | undefined;
  let db = 0;
  const skip = backend === 'redis' && !redisAvailable() ? REDIS_SKIP : false;
  const fresh = async (t: TestContext): Promise<string> => {
    if (backend === 'redis') {
      redis ??= await startRedis();
      return `${redis.url}/${++db}`;
    }
    const dir = await mkdtemp(join(tmpdir(), 'kolradar-schema-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    return `sqlite:${join(dir, 'state.sqlite')}`;
  };
  const after = () => redis?.stop();

  describe(`schema on ${backend}`, { skip }, () => {
    test.after(after);

    test('version 0 -> 1: a store written before versions opens with every row and every setting intact', async (t) => {
      const url = await fresh(t);
      const before = await seedVersion(url, 0);
      const { log, out } = lines();
      // This step alone: later steps have tests of their own, from the version before them.
      const store = await openStore(url, { log, schema: { migrations: MIGRATIONS.slice(0, 1) } });
      t.after(() => store.close());
      assert.equal(store.schema.found, 0);
      assert.equal(store.schema.mark.version, 1);
      assert.equal(SCHEMA_VERSION, MIGRATIONS.length);
      assert.ok(out.some((l) => l.msg.startsWith('store migrated to schema version 1')));
      const after: Record<string, unknown> = {};
      for await (const r of store.raw.rows()) after[r.key] = JSON.parse(r.value).value;
      for (const row of before)
        assert.deepEqual(after[row.key], (row.value as { value: unknown }).value, `${row.key} unchanged`);
      const c = await contents(store);
      assert.equal(c.subscriptions.length, 4);
      const quiet = c.subscriptions.find((s) => (s as { id: string }).id === 'console:quiet') as {
        quiet: unknown;
      };
      assert.ok(quiet.quiet, 'quiet hours kept');
      assert.ok(
        c.subscriptions.some((s) => (s as { digest?: unknown }).digest),
        'digest setting kept',
      );
      assert.equal(c.languages['korean'], 'ko');
      assert.equal(c.calls.length, 6, 'two alerts in three chats, tracked as calls');
      assert.equal(c.held, 2, 'the alerts held for quiet hours');
      assert.deepEqual((await store.subscriptions.get('console:open'))?.mutedTokens.length, 1);
    });

    test('the current version opens data it wrote itself without migrating', async (t) => {
      const url = await fresh(t);
      const snap = await seedVersion(url, SCHEMA_VERSION);
      assert.ok(snap.some((r) => r.key === 'meta::schema'));
      const { log, out } = lines();
      const store = await openStore(url, { log });
      t.after(() => store.close());
      assert.equal(store.schema.found, SCHEMA_VERSION);
      assert.ok(!out.some((l) => l.msg.startsWith('store migrated')), 'nothing to migrate');
      assert.equal((await contents(store)).subscriptions.length, CHATS.length + 1, 'the chats and the topic');
    });

    test('a store a newer release contracted refuses to start with one line; one only expanded runs, with a warning', async (t) => {
      const url = await fresh(t);
      await seedVersion(url, SCHEMA_VERSION);
      await markAs(url, { version: SCHEMA_VERSION + 1, oldestCode: SCHEMA_VERSION + 1 });
      await assert.rejects(openStore(url), (err: Error) => {
        assert.ok(err instanceof StartupError);
        assert.match(
          err.message,
          new RegExp(
            `is at schema version ${SCHEMA_VERSION + 1}, written by a newer kolradar; this one knows version ${SCHEMA_VERSION} and may not run on it\\. Start the newer release, or restore the backup taken before the upgrade\\.$`,
          ),
        );
        assert.doesNotMatch(err.message, /\n|at .*\.ts:/, 'one line, no stack');
        return true;
      });
      await markAs(url, { version: SCHEMA_VERSION + 1, oldestCode: SCHEMA_VERSION });
      const { log, out } = lines();
      const store = await openStore(url, { log });
      t.after(() => store.close());
      assert.equal(store.schema.mark.version, SCHEMA_VERSION + 1, 'left as the newer release wrote it');
      assert.ok(out.some((l) => l.level === 40 && /newer than this kolradar's/.test(l.msg)));
    });

    test('two instances starting at once: one migrates, the other waits for it; both run on the result', async (t) => {
      const url = await fresh(t);
      await seedVersion(url, 1);
      const step = counting(2, { slowMs: 150 });
      const migrations = [...MIGRATIONS.slice(0, 1), step.m];
      const logs = [lines(), lines()];
      const [a, b] = (await Promise.all(
        ['a', 'b'].map((instance, i) =>
          openStore(url, { instance, log: logs[i]!.log, schema: { migrations, pollMs: 10 } }),
        ),
      )) as [Store, Store];
      t.after(() => Promise.all([a.close(), b.close()]));
      assert.equal(step.runs(), 1, 'migrated once');
      const said = logs.map(({ out }) => out.map((l) => l.msg).join('\n'));
      assert.equal(said.filter((x) => /store migrated to schema version 2/.test(x)).length, 1, 'by one of them');
      assert.equal(said.filter((x) => /another instance is migrating/.test(x)).length, 1, 'while the other waited');
      assert.equal(a.schema.mark.version, 2);
      assert.equal(b.schema.mark.version, 2);
      assert.deepEqual([a.schema.found, b.schema.found], [1, 1]);
      let lock = 0;
      for await (const r of a.raw.rows('meta::')) if (r.key === LOCK_KEY) lock++;
      assert.equal(lock, 0, 'the lock is released');
    });

    test('a migration that dies half-way is run again at the next start; a lock its dead holder left expires', async (t) => {
      const url = await fresh(t);
      await seedVersion(url, 1);
      const step = counting(2, { failOnce: true });
      const migrations = [...MIGRATIONS.slice(0, 1), step.m];
      await assert.rejects(openStore(url, { schema: { migrations } }), /died half-way/);
      const raw = await rawOnly(url);
      // A holder that died without releasing: its lock runs out.
      assert.equal(await raw.store.take(LOCK_KEY, JSON.stringify({ value: 'dead' }), 200), true);
      await raw.close();
      const { log, out } = lines();
      const store = await openStore(url, { log, schema: { migrations, pollMs: 20 } });
      t.after(() => store.close());
      assert.equal(step.runs(), 2, 'run again, once more');
      assert.equal(store.schema.mark.version, 2);
      assert.equal(await store.watch.get('migrated-2'), 2);
      assert.ok(out.some((l) => /another instance is migrating the store/.test(l.msg)));
      assert.equal((await contents(store)).subscriptions.length, 4, 'nothing lost');
    });

    test('a running instance older than the store stops taking work with one line once a newer one contracts it', async (t) => {
      const url = await fresh(t);
      const { log, out } = lines();
      const app = await createApp(loadConfig({ STORE_URL: url }), log, { sandboxLiveRate: 0, schemaCheckMs: 20 });
      t.after(() => app.close());
      await markAs(url, { version: SCHEMA_VERSION + 1, oldestCode: SCHEMA_VERSION + 1 });
      const line = await app.outdated;
      assert.match(line, new RegExp(`is at schema version ${SCHEMA_VERSION + 1}, written by a newer kolradar`));
      assert.equal(out.filter((l) => l.level === 60).length, 1, 'one fatal line');
      assert.match(out.find((l) => l.level === 60)!.msg, /This instance stops taking work\.$/);
    });
  });
}

suite('sqlite');
suite('redis');

test('the migration list is numbered in order and each recorded version has its snapshot', async () => {
  for (const [i, m] of MIGRATIONS.entries()) assert.equal(m.to, i + 1);
  for (let v = 0; v <= SCHEMA_VERSION; v++) assert.ok((await readSnapshot(v)).length > 10, `v${v}.json`);
});

test('what this version writes has the layout of its snapshot: a change to stored data comes with a new schema version', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-layout-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  await populate(url, t);
  const store = await openStore(url);
  t.after(() => store.close());
  const now = layoutOf(await snapshotOf(store));
  const recorded = layoutOf(await readSnapshot(SCHEMA_VERSION));
  const flat = (l: Record<string, string[]>) => Object.entries(l).flatMap(([k, v]) => v.map((x) => `${k}${x}`));
  const added = flat(now).filter((x) => !flat(recorded).includes(x));
  const gone = flat(recorded).filter((x) => !flat(now).includes(x));
  assert.deepEqual(
    { added, gone },
    { added: [], gone: [] },
    `stored data changed since schema version ${SCHEMA_VERSION}: add a migration in src/store/schema.ts (with a test from ` +
      `seedVersion(url, ${SCHEMA_VERSION})), then run npm run store-snapshot`,
  );
});

test('the bot refuses a store a newer release contracted: one line on stderr, exit 1', {
  timeout: 60_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-schema-bot-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  await seedVersion(url, SCHEMA_VERSION);
  await markAs(url, { version: SCHEMA_VERSION + 1, oldestCode: SCHEMA_VERSION + 1 });
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, STORE_URL: url, LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 1);
  const said = err.trim().split('\n');
  assert.equal(said.length, 1, err);
  assert.match(
    said[0]!,
    /^kolradar could not start: the store \(sqlite at .*\) is at schema version \d+, written by a newer kolradar/,
  );
});
