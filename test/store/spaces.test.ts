/**
 * Every key space (Redis) and table (SQLite) a running bot writes is one the
 * store tools know, and backup, restore and migrate-store carry each of them:
 * a store populated through the real commands, watcher and delivery is moved
 * SQLite -> Redis -> SQLite and backed up in both formats, and every carried
 * space arrives with all its rows. Then the bot on the moved store delivers to
 * the same subscriptions.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { openStore } from '../../src/store/index.ts';
import { KEY_SPACES, REDIS_RUNTIME_PREFIXES, carriedSpaces, spaceOf } from '../../src/store/spaces.ts';
import { backup, carriedRows, countBySpace, openBackend, restore, SQLITE_TABLES } from '../../src/store/tools.ts';
import { callsHarness } from '../alerts/calls-harness.ts';
import { contents, populate, CHATS, TOPIC } from '../helpers/populated.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { npmRun } from '../helpers/npm.ts';

const skip = redisAvailable() ? false : REDIS_SKIP;

describe('key spaces and tables', { skip }, () => {
  test('every space the bot writes is listed, and migrate-store, backup and restore carry each one', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'kolradar-spaces-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const redis = await startRedis(t);
    const sqliteUrl = `sqlite:${join(dir, 'state.sqlite')}`;

    // Written by the bot on Redis, with the leases a fleet takes.
    await populate(`${redis.url}/1`, t);
    const client = createClient({ url: `${redis.url}/1` });
    client.on('error', () => {}); // the server stops at the end of the test
    await client.connect();
    const keys = await client.keys('*');
    await client.close();
    assert.ok(
      keys.some((k) => k.startsWith('kolradar:lease:')),
      'the watcher lease was taken',
    );
    const unlisted = keys.filter(
      (k) =>
        !k.startsWith('kolradar:') ||
        (spaceOf(k.slice('kolradar:'.length)) === undefined &&
          !REDIS_RUNTIME_PREFIXES.some((p) => k.startsWith(`kolradar:${p}`))),
    );
    assert.deepEqual(unlisted, [], 'each Redis key belongs to a space in src/store/spaces.ts');
    const onRedis = new Set(keys.map((k) => spaceOf(k.slice('kolradar:'.length))).filter(Boolean));
    for (const s of carriedSpaces()) assert.ok(onRedis.has(s), `the populated store writes ${s}`);

    // Written by the bot on SQLite: one table.
    await populate(sqliteUrl, t);
    const src = await openBackend(sqliteUrl);
    assert.deepEqual(src.sqlite!.tables(), [...SQLITE_TABLES], 'each SQLite table is one the tools copy');
    const rows = await carriedRows(src.raw);
    await src.close();
    const want = countBySpace(rows);
    for (const s of carriedSpaces()) assert.ok(want[s]! > 0, `${s} has rows to carry`);
    assert.equal(want['health'], undefined, 'the probe is not carried');

    // SQLite -> Redis -> SQLite with the command an operator runs.
    const moved = npmRun('migrate-store', ['--from', sqliteUrl, '--to', `${redis.url}/2`], {});
    assert.equal(moved.code, 0, moved.err);
    assert.match(
      moved.out,
      /^moved \d+ rows \(schema version \d+\) from sqlite at .* to redis at 127\.0\.0\.1:\d+, database 2, read back and identical: sub 6, lang 5,/,
    );
    const back = `sqlite:${join(dir, 'back.sqlite')}`;
    assert.equal(npmRun('migrate-store', ['--from', `${redis.url}/2`, '--to', back], {}).code, 0);
    const again = npmRun('migrate-store', ['--from', sqliteUrl, '--to', `${redis.url}/2`], {});
    assert.equal(again.code, 1, 'a store already holding data is not overwritten');
    assert.match(again.err, /already holds kolradar data; empty it or pass --replace$/);
    for (const url of [`${redis.url}/2`, back]) {
      const b = await openBackend(url);
      assert.deepEqual(countBySpace(await carriedRows(b.raw)), want, `every space arrived in ${b.where}`);
      await b.close();
    }

    // Backups in both formats restore every space.
    const fromSqlite = npmRun('backup', ['--to', join(dir, 'b.sqlite')], { STORE_URL: sqliteUrl });
    assert.equal(fromSqlite.code, 0, fromSqlite.err);
    assert.match(
      fromSqlite.out,
      /^backed up sqlite at .* to .*b\.sqlite \(schema version \d+\): sub 6, lang 5, calls \d+/,
    );
    const fromRedis = await backup(`${redis.url}/2`, join(dir, 'b.jsonl'));
    for (const file of ['b.sqlite', 'b.jsonl']) {
      const target = `sqlite:${join(dir, `restored-${file}.sqlite`)}`;
      const r = await restore(target, join(dir, file));
      assert.deepEqual(r.counts, want, `${file} restores every space`);
      const store = await openStore(target);
      const a = await contents(store);
      await store.close();
      const orig = await openStore(sqliteUrl);
      assert.deepEqual(a, await contents(orig), `${file}: subscriptions, languages, calls, holds as they were`);
      await orig.close();
    }
    assert.deepEqual(fromRedis.counts, want);
    assert.ok(Object.keys(KEY_SPACES).every((s) => KEY_SPACES[s as keyof typeof KEY_SPACES].what.length > 0));
  });

  test('after migrate-store the bot on Redis delivers to the same subscriptions, held ones held', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'kolradar-move-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const redis = await startRedis(t);
    const sqliteUrl = `sqlite:${join(dir, 'state.sqlite')}`;
    await populate(sqliteUrl, t);
    const moved = npmRun('migrate-store', ['--from', sqliteUrl, '--to', redis.url], {});
    assert.equal(moved.code, 0, moved.err);

    const h = await callsHarness(t, { storeUrl: redis.url, subscribe: false });
    const subs = (await h.app.store.subscriptions.all()).map((s) => s.chatId).sort();
    assert.deepEqual(subs, [...CHATS, TOPIC.chatId].sort());
    // The sandbox is the same feed: the populated run's tweets are behind the mark; a new one is not.
    for (let i = 0; i < 3; i++) h.shill(2, 2);
    await h.cycle();
    const got = [...new Set(h.sent.map((s) => s.chatId))].sort();
    assert.deepEqual(got, ['digest', 'forum', 'korean', 'open'], 'every subscription but the one in its quiet hours');
    assert.ok(
      h.sent.filter((s) => s.chatId === TOPIC.chatId).every((s) => s.threadId === TOPIC.threadId),
      'the alerts of the topic go to its topic',
    );
    const held = (await h.app.store.outbox.pending()).filter((e) => e.chatId === 'quiet');
    assert.ok(held.length >= 3, 'the quiet chat holds the old alerts and the new');
  });
});
