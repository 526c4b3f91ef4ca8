// What the Discord fake models for lookups: message commands (type 3) with the target
// message, MESSAGE_CREATE under the message intents (and the privileged Message Content
// switch), user installs (integration_types, contexts, forced-private replies).
import { once } from 'node:events';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client,
  Events,
  GatewayIntentBits,
  Partials,
  REST,
  Routes,
  type ClientOptions,
  type Interaction,
  type Message,
} from 'discord.js';
import { snowflake, startDiscordFake } from './discord/index.ts';
import type { DiscordFake, DiscordFakeOptions } from './discord/index.ts';
import { until } from '../helpers/wait.ts';

const GUILD = snowflake();
const CHANNEL = snowflake();

async function boot(
  t: TestContext,
  options: DiscordFakeOptions = {},
  clientOptions: Partial<ClientOptions> = {},
): Promise<{ fake: DiscordFake; client: Client }> {
  const fake = await startDiscordFake({
    guilds: [{ id: GUILD, name: 'Radar HQ', channels: [{ id: CHANNEL, name: 'general' }] }],
    ...options,
  });
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiBase }, ...clientOptions });
  t.after(async () => {
    await client.destroy();
    await fake.close();
  });
  const ready = once(client, Events.ClientReady);
  await client.login(fake.token);
  await ready;
  return { fake, client };
}

async function register(fake: DiscordFake, body: unknown[]): Promise<unknown> {
  const rest = new REST({ api: fake.apiBase }).setToken(fake.token);
  try {
    return await rest.put(Routes.applicationCommands(fake.applicationId), { body });
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}

const lookup = {
  name: 'token',
  description: 'Token card',
  type: 1,
  options: [],
  integration_types: [0, 1],
  contexts: [0, 1, 2],
};
const serverOnly = {
  name: 'subscribe',
  description: 'Alerts here',
  type: 1,
  options: [],
  integration_types: [0],
  contexts: [0],
};
const card = { name: 'Token card', type: 3, integration_types: [0, 1], contexts: [0, 1, 2] };

test('registration: integration_types, contexts and message commands are checked as Discord checks them', async (t) => {
  const { fake } = await boot(t);
  await register(fake, [lookup, serverOnly, card]);
  assert.deepEqual(
    fake.registeredCommands().map((c) => [c.name, c['type'], c['integration_types'], c['contexts']]),
    [
      ['token', 1, [0, 1], [0, 1, 2]],
      ['subscribe', 1, [0], [0]],
      ['Token card', 3, [0, 1], [0, 1, 2]],
    ],
  );
  await assert.rejects(
    register(fake, [{ ...card, description: 'no' }]),
    /Context menu commands cannot have description/,
  );
  await assert.rejects(register(fake, [{ ...lookup, integration_types: [2] }]), /Value must be one of \{0, 1\}/);
  await assert.rejects(register(fake, [{ ...lookup, contexts: [] }]), /Value must be one of \{0, 1, 2\}/);
  await assert.rejects(
    register(fake, [{ ...lookup, name: 'Token card' }]),
    /Command name is invalid/,
    'chat commands stay lower case without spaces',
  );
});

test('a command is offered only where its contexts and integration types allow', async (t) => {
  const { fake } = await boot(t);
  await register(fake, [lookup, serverOnly]);
  await assert.rejects(
    fake.sendCommand({ name: 'subscribe', channelId: snowflake() }),
    /does not offer subscribe in context 1/,
  );
  await assert.rejects(
    fake.sendCommand({ name: 'subscribe', channelId: snowflake(), install: 'user', foreignGuildId: snowflake() }),
    /does not offer subscribe to a user install/,
  );
  await fake.sendCommand({ name: 'token', channelId: snowflake(), install: 'user', context: 2 });
});

test('a message command carries the target message; no intent is needed', async (t) => {
  const { fake, client } = await boot(t);
  await register(fake, [card]);
  const seen: string[] = [];
  client.on(Events.InteractionCreate, (i: Interaction) => {
    if (i.isMessageContextMenuCommand())
      seen.push(`${i.commandName}|${i.targetMessage.content}|${i.targetId === i.targetMessage.id}`);
  });
  await fake.sendMessageCommand({
    name: 'Token card',
    channelId: CHANNEL,
    target: { content: 'CA: So11111111111111111111111111111111111111112' },
  });
  await until(() => seen.length > 0, 'the message command');
  assert.deepEqual(seen, ['Token card|CA: So11111111111111111111111111111111111111112|true']);
});

test('user install in a server that keeps external apps private: Discord makes the reply ephemeral', async (t) => {
  const { fake, client } = await boot(t);
  await register(fake, [lookup]);
  client.on(Events.InteractionCreate, (i: Interaction) => {
    if (i.isChatInputCommand()) void i.reply({ content: 'public?' });
  });
  const foreign = snowflake();
  const h = await fake.sendCommand({
    name: 'token',
    channelId: snowflake(),
    install: 'user',
    foreignGuildId: foreign,
    externalAppsPublic: false,
  });
  await h.waitFor('original');
  assert.equal(h.original!.flags & 64, 64, 'forced ephemeral');
  assert.equal(h.original!.guild_id, foreign);
  const open = await fake.sendCommand({
    name: 'token',
    channelId: snowflake(),
    install: 'user',
    foreignGuildId: foreign,
  });
  await open.waitFor('original');
  assert.equal(open.original!.flags & 64, 0, 'public where the server allows it');
});

function collect(client: Client): string[] {
  const got: string[] = [];
  client.on(Events.MessageCreate, (m: Message) => void got.push(`${m.guildId ? 'guild' : 'dm'}:${m.content}`));
  return got;
}

/**
 * A barrier on the client's one gateway session: the bot joins a guild. A session's events
 * come in order, so once the client has that guild it has seen every message posted before.
 */
async function barrier(fake: DiscordFake, client: Client): Promise<void> {
  const id = snowflake();
  fake.addGuild({ id, channels: [{ id: snowflake() }] });
  await until(() => client.guilds.cache.has(id), 'the barrier guild');
}

test('MESSAGE_CREATE: no message intents, no messages', async (t) => {
  const { fake, client } = await boot(t);
  const got = collect(client);
  fake.postMessage({ channelId: CHANNEL, content: 'gm' });
  fake.postMessage({ channelId: snowflake(), content: 'dm' });
  await barrier(fake, client);
  assert.deepEqual(got, []);
});

test('MESSAGE_CREATE without Message Content: guild content is empty unless the bot is mentioned; DMs are full', async (t) => {
  const { fake, client } = await boot(
    t,
    {},
    {
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages],
      partials: [Partials.Channel],
    },
  );
  const got = collect(client);
  fake.postMessage({ channelId: CHANNEL, content: 'hidden paste' });
  fake.postMessage({ channelId: CHANNEL, content: 'hey bot, look', mentionsBot: true });
  const dm = snowflake();
  fake.postMessage({ channelId: dm, content: 'private paste' });
  await barrier(fake, client);
  assert.deepEqual(got, ['guild:', 'guild:hey bot, look', 'dm:private paste']);
  // The bot may answer in that DM.
  const channel = await client.channels.fetch(dm).catch(() => undefined);
  await (channel && 'send' in channel
    ? channel.send('ok')
    : client.rest.post(Routes.channelMessages(dm), { body: { content: 'ok' } }));
  assert.equal(fake.channelMessages(dm).length, 1);
});

test('Message Content: refused at identify (4014) unless the portal switch is on; then guild content arrives', async (t) => {
  const fake = await startDiscordFake({ guilds: [{ id: GUILD, channels: [{ id: CHANNEL }] }] });
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    rest: { api: fake.apiBase },
  });
  t.after(async () => {
    await client.destroy();
    await fake.close();
  });
  const closed = fake.waitForGateway('close');
  client.login(fake.token).catch(() => {});
  assert.equal((await closed).code, 4014);
  const { fake: allowed, client: reader } = await boot(
    t,
    { messageContentIntent: true },
    { intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent] },
  );
  const got = collect(reader);
  allowed.postMessage({ channelId: CHANNEL, content: 'visible paste' });
  await barrier(allowed, reader);
  assert.deepEqual(got, ['guild:visible paste']);
});
