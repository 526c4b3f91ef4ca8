/**
 * Real bot processes on one redis-server, Discord side, killed after they
 * acknowledged an interaction ("thinking…") and before they answered it, or
 * the moment Discord takes the acknowledgement. The
 * upstream hangs the /kols table so the answer is pending exactly when the
 * kill comes (counted at the sandbox); then it answers again. Another instance
 * must finish the interaction through its token: the reply edited into the
 * answer, with the one acknowledgement the dead instance gave.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { guildOnShard, snowflake, startDiscordFake, type InteractionHandle } from '../fakes/discord/index.ts';
import { fleetRig, startBot, type BotProcess } from '../helpers/fleet.ts';
import { freePort, REDIS_SKIP, redisAvailable } from '../helpers/redis.ts';
import { until } from '../helpers/wait.ts';
import { openStore } from '../../src/store/index.ts';

const skip = redisAvailable() ? false : REDIS_SKIP;
const hanging = (sb: Sandbox) => sb.requests.filter((r) => r.operation === 'kolTable' && r.finished === 0).length;

/** Waits until the interaction's claim (written just before the acknowledgement) is in the store. */
async function claimed(storeUrl: string, id: string): Promise<void> {
  // One reader for the whole wait: the condition is checked every few milliseconds.
  const store = await openStore(storeUrl);
  try {
    await until(
      async () => (await store.redis!.keys(`kolradar-work:discord:*:${id}`)).length > 0,
      'the interaction claimed in the store',
    );
  } finally {
    await store.close();
  }
}

/** Defers /kols on `holder`, kills it there, and waits for `h` to be answered by someone else. */
async function killAfterDefer(sb: Sandbox, storeUrl: string, holder: BotProcess, h: InteractionHandle): Promise<void> {
  await h.waitFor('callback', 15_000);
  assert.equal(h.callbacks[0]?.type, 5, 'deferred ("thinking…")');
  await until(() => hanging(sb) === 1, 'the answer pending upstream');
  // The claim is stored before the acknowledgement (the kill between the two: the last test).
  await claimed(storeUrl, h.id);
  assert.equal(await holder.kill('SIGKILL'), null);
  sb.clearFaults();
  await h.waitFor('original', 60_000);
  assert.equal(h.callbacks.length, 1, 'acknowledged once, by the instance that died');
  assert.doesNotMatch(h.original?.content ?? '', /went wrong|try again|restarting/i);
  assert.ok((h.original?.embeds.length ?? 0) > 0, 'the KOL table, not an error');
}

async function rig(t: import('node:test').TestContext, guilds: Parameters<typeof startDiscordFake>[0]) {
  const r = await fleetRig(t, () => startDiscordFake(guilds));
  const { fake } = r;
  const discord = {
    DISCORD_TOKEN: fake.token,
    DISCORD_APPLICATION_ID: fake.applicationId,
    DISCORD_API_BASE: fake.apiBase,
  };
  return { ...r, storeUrl: r.env['STORE_URL']!, env: { ...r.env, ...discord } };
}

test('Discord gateway: an interaction deferred by an instance that is then killed is finished by another', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const guild = { id: guildOnShard(0, 2, 0), channels: [{ id: snowflake() }] };
  const { sb, fake, env, storeUrl } = await rig(t, { guilds: [guild], recommendedShards: 2 });
  const bots = await Promise.all(
    [0, 1].map((s) => startBot(t, `shard${s}`, { ...env, DISCORD_SHARD_COUNT: '2', DISCORD_SHARD_IDS: String(s) })),
  );
  await Promise.all(bots.map((b) => b.ready()));
  sb.setFaults({ hangRate: 1, operations: ['kolTable'] });
  const h = await fake.sendCommand({ name: 'kols', channelId: guild.channels[0]!.id, guildId: guild.id });
  await killAfterDefer(sb, storeUrl, bots[0]!, h);
  assert.match(bots[1]!.logs(), /taking over an interaction/);
  assert.equal(await bots[1]!.kill('SIGTERM'), 0);
});

test('Discord HTTP interactions: an interaction deferred by an instance that is then killed is finished by another', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const guild = { id: snowflake(), channels: [{ id: snowflake() }] };
  const { sb, fake, env, storeUrl } = await rig(t, { guilds: [guild] });
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  const ports = [await freePort(), await freePort()];
  const bots = await Promise.all(
    ports.map((port, i) =>
      startBot(t, `http${i}`, { ...env, DISCORD_PUBLIC_KEY: publicHex, DISCORD_INTERACTIONS_PORT: String(port) }),
    ),
  );
  await Promise.all(bots.map((b) => b.ready()));
  fake.setInteractionsEndpoint(`http://127.0.0.1:${ports[0]}/interactions`, privateKey);
  sb.setFaults({ hangRate: 1, operations: ['kolTable'] });
  const h = await fake.sendCommand({ name: 'kols', channelId: guild.channels[0]!.id });
  await killAfterDefer(sb, storeUrl, bots[0]!, h);
  assert.match(bots[1]!.logs(), /taking over an interaction/);
  assert.equal(await bots[1]!.kill('SIGTERM'), 0);
});

test('Discord gateway: an instance killed the moment Discord takes its acknowledgement leaves the interaction to another', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const guild = { id: guildOnShard(0, 2, 0), channels: [{ id: snowflake() }] };
  const { fake, env } = await rig(t, { guilds: [guild], recommendedShards: 2 });
  const bots = await Promise.all(
    [0, 1].map((s) => startBot(t, `shard${s}`, { ...env, DISCORD_SHARD_COUNT: '2', DISCORD_SHARD_IDS: String(s) })),
  );
  await Promise.all(bots.map((b) => b.ready()));
  const h = await fake.sendCommand({ name: 'kols', channelId: guild.channels[0]!.id, guildId: guild.id });
  assert.equal(h.callbacks.length, 0, 'not acknowledged yet');
  // Killed inside Discord's handling of the acknowledgement: the instance never hears it was taken,
  // so nothing it would do after it (storing a claim, answering) happens.
  const stop = h.record.listen(() => {
    if (h.callbacks.length === 1 && !bots[0]!.exited) bots[0]!.child.kill('SIGKILL');
  });
  t.after(stop);
  await h.waitFor('original', 90_000);
  assert.deepEqual(
    h.callbacks.map((c) => c.type),
    [5],
    'acknowledged once, by the instance that died',
  );
  assert.ok((h.original?.embeds.length ?? 0) > 0, 'the KOL table, not an error');
  assert.match(bots[1]!.logs(), /taking over an interaction/);
  assert.equal(await bots[1]!.kill('SIGTERM'), 0);
});
