/**
 * Three bot instances on one Redis, three members calling the same token in the
 * same moment through each instance's own dispatcher and store connection: one
 * credit, and every answer names the same first caller.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Caller } from '../../src/core/command.ts';
import { richText } from '../../src/views/render/common.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';

const available = redisAvailable();

test('three instances on Redis, three members posting one token at once: one credit, the same first caller named', {
  skip: available ? false : REDIS_SKIP,
  timeout: 60_000,
}, async (t) => {
  const redis = await startRedis(t);
  const sb = await startSandbox({ live: false });
  t.after(() => sb.close());
  const apps: App[] = [];
  for (let i = 0; i < 3; i++)
    apps.push(
      await createApp(
        loadConfig({ STORE_URL: redis.url, KOL_API_BASE_URL: sb.url, KOL_API_KEY: sb.apiKey }),
        silentLogger(),
      ),
    );
  t.after(async () => {
    for (const a of apps) await a.close();
  });
  const chat = (userId: string): Caller => ({
    platform: 'telegram',
    userId,
    chatId: '-100777',
    chatType: 'group',
    member: { id: userId, name: `@user${userId}` },
    canManage: async () => true,
  });
  await apps[0]!.dispatcher.run('callboard', { action: 'on' }, chat('1'));
  const toks = sb.data.tokens.filter((x) => x.marketcap > 0).slice(0, 3);
  for (const tok of toks) {
    const answers = await Promise.all(
      apps.map((a, i) => a.dispatcher.run('mycall', { token: tok.address }, chat(String(10 + i)))),
    );
    const texts = answers.map((v) => (v.kind === 'text' ? richText(v.text) : JSON.stringify(v)));
    const credited = texts.filter((x) => /Call recorded: @user1\d/.test(x));
    assert.equal(credited.length, 1, `one credit for ${tok.symbol}: ${texts.join(' | ')}`);
    const first = /Call recorded: (@user1\d)/.exec(credited[0]!)![1]!;
    for (const x of texts.filter((y) => !credited.includes(y)))
      assert.match(x, new RegExp(`First called by ${first}`), 'the others name the first');
  }
  const board = await apps[2]!.store.members.list('telegram:-100777', 0);
  assert.equal(board.length, 3, 'one call per token on the board');
});
