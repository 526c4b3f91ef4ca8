/**
 * Three real bot processes on one redis-server, Discord side.
 * Sharded gateway: each instance runs one of three shards (count `auto`, from
 * GET /gateway/bot); the fake routes each guild's interactions to the sessions
 * of its shard, as Discord does, so a second session on a shard would show up
 * as a refused second acknowledgement. Every interaction is acknowledged once;
 * identifies keep Discord's 5 s per bucket across the fleet; killing one
 * instance leaves the other shards answering.
 * HTTP interactions: three instances behind a round-robin proxy, requests
 * signed with a test Ed25519 key pair; each answered once; a bad signature
 * gets 401 and runs nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/server.ts';
import {
  guildOnShard,
  snowflake,
  startDiscordFake,
  type DiscordFake,
  type InteractionHandle,
} from '../fakes/discord/index.ts';
import { roundRobin, startBot } from '../helpers/fleet.ts';
import { freePort, REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { nothingMoreAfter } from '../helpers/wait.ts';

const skip = redisAvailable() ? false : REDIS_SKIP;

/** Second acknowledgements Discord refused (40060 already acknowledged, 10062 unknown interaction). */
const refusedAcks = (fake: DiscordFake) =>
  fake.requests.filter((r) => /\/interactions\/\d+\/[^/]+\/callback/.test(r.path) && r.status >= 400).length;

/** Acknowledgements given to these interactions, all told. */
const acks = (handles: readonly InteractionHandle[]) => handles.reduce((n, h) => n + h.callbacks.length, 0);

test('Discord sharded gateway, three instances on Redis: each interaction acknowledged once, the others keep answering when one dies', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const redis = await startRedis(t);
  const sb = await startSandbox();
  const SHARDS = 3;
  const guilds = Array.from({ length: 9 }, (_, k) => ({
    id: guildOnShard(k % SHARDS, SHARDS, Math.floor(k / SHARDS)),
    channels: [{ id: snowflake() }],
  }));
  const fake = await startDiscordFake({ guilds, recommendedShards: SHARDS, maxConcurrency: 1 });
  t.after(async () => {
    await fake.close();
    await sb.close();
  });
  const base = {
    KOL_API_BASE_URL: sb.url,
    KOL_API_KEY: sb.apiKey,
    DISCORD_TOKEN: fake.token,
    DISCORD_APPLICATION_ID: fake.applicationId,
    DISCORD_API_BASE: fake.apiBase,
    STORE_URL: redis.url,
    DISCORD_SHARD_COUNT: 'auto',
  };
  const bots = await Promise.all(
    [0, 1, 2].map((s) => startBot(t, `shard${s}`, { ...base, DISCORD_SHARD_IDS: String(s) })),
  );
  await Promise.all(bots.map((b) => b.ready()));
  for (const [s, b] of bots.entries())
    assert.deepEqual((await b.readyz()).roles?.['discord'], { shards: [s], shardCount: SHARDS });
  assert.deepEqual(fake.sessionShards.map(([id, n]) => `${id}/${n}`).sort(), ['0/3', '1/3', '2/3']);
  assert.equal(fake.identifyViolations, 0, 'identifies kept 5 s apart per bucket across the fleet (max_concurrency 1)');

  const ask = (g: (typeof guilds)[number]) =>
    fake.sendCommand({ name: 'help', channelId: g.channels[0]!.id, guildId: g.id });
  const handles: InteractionHandle[] = [];
  for (let round = 0; round < 5; round++) for (const g of guilds) handles.push(await ask(g));
  await Promise.all(handles.map((h) => h.waitFor('callback', 10_000)));
  // The barrier: a later interaction in every guild, acknowledged. A shard's events reach its session in
  // order, so a second session on a shard would have been handed the earlier ones, and acknowledged them, before.
  const barrier = async (gs: typeof guilds) => {
    await Promise.all((await Promise.all(gs.map(ask))).map((h) => h.waitFor('callback', 10_000)));
  };
  await nothingMoreAfter(
    () => acks(handles),
    () => barrier(guilds),
    'a second acknowledgement',
  );
  assert.ok(
    handles.every((h) => h.callbacks.length === 1),
    'each interaction acknowledged once',
  );
  assert.equal(refusedAcks(fake), 0, 'no instance raced another for an acknowledgement');

  // Shard 1's instance dies: its guilds go unanswered (Discord has nobody to send them to), the others carry on.
  await bots[1]!.kill('SIGKILL');
  const alive = guilds.filter((g) => fake.shardOf(g.id, SHARDS) !== 1);
  const orphan = guilds.filter((g) => fake.shardOf(g.id, SHARDS) === 1);
  const later = await Promise.all(alive.map(ask));
  const lost = await Promise.all(orphan.map(ask));
  await Promise.all(later.map((h) => h.waitFor('callback', 10_000)));
  await nothingMoreAfter(
    () => acks([...later, ...lost]),
    () => barrier(alive),
    'a second acknowledgement',
  );
  assert.ok(
    later.every((h) => h.callbacks.length === 1),
    'shards 0 and 2 still answer, once each',
  );
  assert.ok(
    lost.every((h) => h.callbacks.length === 0),
    'shard 1 has no instance now',
  );
  assert.equal(refusedAcks(fake), 0);

  // A second instance started on shard 0 (two instances naming the same DISCORD_SHARD_IDS): it refuses
  // the shard with one line and exits 1, and shard 0 goes on answering once per interaction.
  const twin = await startBot(t, 'twin0', { ...base, DISCORD_SHARD_IDS: '0' });
  assert.equal(await twin.ended(), 1, 'the second holder refuses to start');
  assert.match(
    twin.logs(),
    /Discord shard 0 is run by another instance: two instances name the same DISCORD_SHARD_IDS/,
  );
  assert.equal(fake.sessionShards.filter(([id]) => id === 0).length, 1, 'one session on shard 0, ever');
  const onZero = guilds.filter((g) => fake.shardOf(g.id, SHARDS) === 0);
  const asked = await Promise.all(onZero.map(ask));
  await Promise.all(asked.map((h) => h.waitFor('callback', 10_000)));
  await nothingMoreAfter(
    () => acks(asked),
    () => barrier(onZero),
    'a second acknowledgement on shard 0',
  );
  assert.ok(
    asked.every((h) => h.callbacks.length === 1),
    'shard 0 still answers, once each',
  );
  assert.equal(refusedAcks(fake), 0, 'no second acknowledgement');
  for (const b of [bots[0]!, bots[2]!]) assert.equal(await b.kill('SIGTERM'), 0);
});

test('Discord HTTP interactions, three instances behind a round-robin proxy: each answered once; a bad signature gets 401 and runs nothing', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const redis = await startRedis(t);
  const sb = await startSandbox();
  const guild = { id: snowflake(), channels: [{ id: snowflake() }, { id: snowflake() }] };
  const fake = await startDiscordFake({ guilds: [guild] });
  t.after(async () => {
    await fake.close();
    await sb.close();
  });
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  const ports = [await freePort(), await freePort(), await freePort()];
  const bots = await Promise.all(
    ports.map((port, i) =>
      startBot(t, `http${i}`, {
        KOL_API_BASE_URL: sb.url,
        KOL_API_KEY: sb.apiKey,
        DISCORD_TOKEN: fake.token,
        DISCORD_APPLICATION_ID: fake.applicationId,
        DISCORD_API_BASE: fake.apiBase,
        DISCORD_PUBLIC_KEY: publicHex,
        DISCORD_INTERACTIONS_PORT: String(port),
        STORE_URL: redis.url,
      }),
    ),
  );
  await Promise.all(bots.map((b) => b.ready()));
  for (const b of bots) assert.deepEqual((await b.readyz()).roles?.['discord'], { http: true });
  const lb = await roundRobin(t, ports);
  fake.setInteractionsEndpoint(`${lb.url}/interactions`, privateKey);
  assert.equal(await fake.verifyInteractionsEndpoint(), true, 'the portal check passes through the proxy');
  assert.equal(fake.sessionShards.length, 0, 'no gateway session');

  // Text answers (an upstream call each, no chart): picture rendering is CPU work this test is not about.
  const handles: InteractionHandle[] = [];
  for (let k = 0; k < 30; k++) {
    const channelId = guild.channels[k % 2]!.id;
    handles.push(
      await fake.sendCommand(
        k % 3 === 0
          ? { name: 'help', channelId }
          : {
              name: 'kols',
              channelId,
              options: [{ name: 'search', type: 3, value: sb.data.kols[k]!.username.slice(0, 3) }],
            },
      ),
    );
  }
  await Promise.all(handles.map((h) => h.waitFor('original', 15_000))).catch((err: Error) => {
    throw new Error(`${err.message}; HTTP answers: ${fake.interactionPosts.map((p) => p.status).join(',')}`);
  });
  // The barrier: a later /help in each channel through each instance (the proxy takes turns), answered.
  // Each from a user of its own: the first user has spent their commands for the next half minute.
  const barrier = async () => {
    const later: InteractionHandle[] = [];
    for (let k = 0; k < 6; k++) {
      const user = { id: snowflake(), username: `barrier${k}` };
      later.push(await fake.sendCommand({ name: 'help', channelId: guild.channels[k % 2]!.id, user }));
    }
    await Promise.all(later.map((h) => h.waitFor('original', 15_000)));
  };
  await nothingMoreAfter(() => acks(handles), barrier, 'a second answer');
  assert.ok(
    handles.every((h) => h.callbacks.length === 1),
    'each interaction answered once',
  );
  assert.ok(
    handles.every((h) => !h.original!.deleted),
    'every answer stands',
  );
  assert.equal(refusedAcks(fake), 0);
  assert.ok(
    lb.forwarded.every((n) => n >= 10),
    `the proxy spread the requests: ${lb.forwarded.join(',')}`,
  );

  // The forged interaction is /kols: its operation is what must not run (the watchers read the feed meanwhile).
  const before = sb.count('kolTable');
  const body = JSON.stringify({
    id: snowflake(),
    application_id: fake.applicationId,
    type: 2,
    token: 'forged',
    version: 1,
    data: { id: snowflake(), name: 'kols', type: 1 },
    channel_id: guild.channels[0]!.id,
    guild_id: guild.id,
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const forged = sign(null, Buffer.from(ts + body.replace('kols', 'help')), privateKey).toString('hex');
  for (let k = 0; k < 3; k++) {
    const res = await fetch(`${lb.url}/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': forged, 'x-signature-timestamp': ts },
      body,
    });
    assert.equal(res.status, 401, 'each instance refuses a bad signature');
    await res.arrayBuffer();
  }
  await nothingMoreAfter(() => sb.count('kolTable'), barrier, 'nothing ran: no /kols table asked for');
  assert.equal(sb.count('kolTable'), before, 'nothing ran');
  for (const b of bots) assert.equal(await b.kill('SIGTERM'), 0);
});
