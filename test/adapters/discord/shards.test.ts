// The shard plan: one process may run several shards; a shard that cannot start says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guildOnShard, snowflake } from '../../fakes/discord/index.ts';
import { startHarness } from './harness.ts';

const noWait = { ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) } };

test('one process runs shards 0-1 of 2 and answers the guilds of both', { timeout: 30_000 }, async (t) => {
  const g0 = { id: guildOnShard(0, 2), channels: [{ id: snowflake() }] };
  const g1 = { id: guildOnShard(1, 2), channels: [{ id: snowflake() }] };
  const h = await startHarness({
    fake: { guilds: [g0, g1], recommendedShards: 2 },
    adapter: { shards: { count: 'auto' }, clientOptions: noWait },
  });
  t.after(() => h.close());
  assert.deepEqual(h.fake.sessionShards.map(([id]) => id).sort(), [0, 1]);
  assert.deepEqual(h.adapter.roles?.(), { shards: [0, 1], shardCount: 2 });
  for (const channelId of [g0.channels[0]!.id, g1.channels[0]!.id]) {
    const i = await h.fake.sendCommand({ name: 'help', channelId });
    await i.waitFor('callback');
    assert.equal(i.callbacks.length, 1);
  }
});

test('a shard id beyond the count, or no sessions left today: start refuses and says why', async () => {
  await assert.rejects(
    startHarness({
      fake: { recommendedShards: 2 },
      adapter: { shards: { count: 'auto', ids: [3] }, clientOptions: noWait },
    }),
    /DISCORD_SHARD_IDS names shard 3, but there are 2 shards \(0-1\)/,
  );
  await assert.rejects(
    startHarness({ fake: { sessionStartRemaining: 1 }, adapter: { shards: { count: 2 }, clientOptions: noWait } }),
    /Discord allows 1 more gateway sessions today .* shards 0,1 need 2: not starting them/,
  );
});
