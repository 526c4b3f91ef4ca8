// The fake routes a guild's events as Discord does: to every session identified with
// (guild_id >> 22) % num_shards, and to no other. Two sessions on one shard both get each
// interaction, so both acknowledging shows up as a refused second acknowledgement (40060).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { guildOnShard, startDiscordFake, snowflake } from './discord/index.ts';
import { until } from '../helpers/wait.ts';

test("guild events go to every session of the guild's shard and to no other; a DM to shard 0", {
  timeout: 30_000,
}, async (t) => {
  const g0 = guildOnShard(0, 2);
  const g1 = guildOnShard(1, 2);
  const c0 = snowflake();
  const c1 = snowflake();
  const fake = await startDiscordFake({
    guilds: [
      { id: g0, channels: [{ id: c0 }] },
      { id: g1, channels: [{ id: c1 }] },
    ],
    recommendedShards: 2,
  });
  assert.equal(fake.shardOf(g0, 2), 0);
  assert.equal(fake.shardOf(g1, 2), 1);
  const got = new Map<string, Interaction[]>();
  const clients: Client[] = [];
  const login = async (name: string, shard: number) => {
    const client = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: fake.apiBase },
      shards: [shard],
      shardCount: 2,
      ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
    } as ConstructorParameters<typeof Client>[0]);
    got.set(name, []);
    client.on(Events.InteractionCreate, (i) => {
      got.get(name)!.push(i);
      if (i.isChatInputCommand()) void i.deferReply().catch(() => {});
    });
    const ready = once(client, Events.ClientReady);
    await client.login(fake.token);
    await ready;
    clients.push(client);
    return client;
  };
  t.after(async () => {
    for (const c of clients) await c.destroy();
    await fake.close();
  });
  const a = await login('a', 0);
  const b = await login('b', 0);
  const c = await login('c', 1);
  /**
   * A barrier for every session: the bot joins a guild on each shard. A session's events
   * come in order, so a client that has its shard's new guild has seen every interaction
   * dispatched before it.
   */
  let joined = 0;
  const barrier = async () => {
    joined++;
    const on0 = guildOnShard(0, 2, joined);
    const on1 = guildOnShard(1, 2, joined);
    fake.addGuild({ id: on0, channels: [{ id: snowflake() }] });
    fake.addGuild({ id: on1, channels: [{ id: snowflake() }] });
    await until(
      () => a.guilds.cache.has(on0) && b.guilds.cache.has(on0) && c.guilds.cache.has(on1),
      `barrier guild ${joined} on every session`,
    );
  };
  assert.deepEqual(fake.sessionShards, [
    [0, 2],
    [0, 2],
    [1, 2],
  ]);
  assert.deepEqual([...a.guilds.cache.keys()], [g0], "READY and GUILD_CREATE only for the shard's guilds");
  assert.deepEqual([...c.guilds.cache.keys()], [g1]);

  const i0 = await fake.sendCommand({ name: 'help', channelId: c0 });
  await i0.waitFor('callback');
  await barrier();
  assert.equal(got.get('a')!.length, 1);
  assert.equal(got.get('b')!.length, 1, 'both sessions of shard 0 got it');
  assert.equal(got.get('c')!.length, 0, 'shard 1 did not');
  const refused = () => fake.requests.filter((r) => r.path.includes(`/interactions/${i0.id}/`) && r.status === 400);
  // Both sessions acknowledge; the second acknowledgement's answer may still be on its way.
  await until(() => i0.callbacks.length + refused().length >= 2, 'both acknowledgements answered');
  assert.equal(i0.callbacks.length, 1, 'one acknowledgement accepted');
  assert.equal(refused().length, 1, 'the other one refused (40060): a double acknowledgement');

  const i1 = await fake.sendCommand({ name: 'help', channelId: c1 });
  await i1.waitFor('callback');
  await barrier();
  assert.deepEqual([got.get('a')!.length, got.get('b')!.length, got.get('c')!.length], [1, 1, 1]);

  const dm = await fake.sendCommand({ name: 'help', channelId: snowflake() });
  await dm.waitFor('callback');
  await barrier();
  assert.deepEqual(
    [got.get('a')!.length, got.get('b')!.length, got.get('c')!.length],
    [2, 2, 1],
    'a DM goes to shard 0',
  );
});
