import { once } from 'node:events';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  MessageFlags,
  PermissionFlagsBits,
  Routes,
} from 'discord.js';
import type { ClientOptions, Interaction, TextChannel } from 'discord.js';
import { snowflake, startDiscordFake } from './discord/index.ts';
import type { DiscordFake, DiscordFakeOptions } from './discord/index.ts';

const GUILD = snowflake();
const ALERTS = snowflake();
const OTHER = snowflake();

async function boot(
  t: TestContext,
  options: DiscordFakeOptions = {},
  clientOptions: Partial<ClientOptions> = {},
): Promise<{ fake: DiscordFake; client: Client }> {
  const fake = await startDiscordFake({
    guilds: [
      {
        id: GUILD,
        name: 'Radar HQ',
        channels: [
          { id: ALERTS, name: 'alerts' },
          { id: OTHER, name: 'general' },
        ],
      },
    ],
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

function textChannel(client: Client, id: string): TextChannel {
  const channel = client.channels.cache.get(id);
  assert.ok(channel && channel.type === ChannelType.GuildText, `channel ${id} cached as a text channel`);
  return channel as TextChannel;
}

/** Runs the bot's handler and surfaces its failures in the test instead of as unhandled rejections. */
function onInteraction(client: Client, handler: (i: Interaction) => Promise<unknown>): Promise<void>[] {
  const runs: Promise<void>[] = [];
  client.on(Events.InteractionCreate, (interaction) => {
    runs.push(handler(interaction).then(() => undefined));
  });
  return runs;
}

test('login reaches clientReady with the bot user, guild and text channels cached', async (t) => {
  const { fake, client } = await boot(t);
  assert.equal(client.user?.id, fake.botUserId);
  assert.equal(client.application?.id, fake.applicationId);
  assert.equal(client.guilds.cache.get(GUILD)?.name, 'Radar HQ');
  assert.equal(textChannel(client, ALERTS).name, 'alerts');
  assert.equal(textChannel(client, OTHER).guildId, GUILD);
  assert.deepEqual(fake.gatewayEvents.map((e) => e.kind).slice(0, 2), ['connect', 'identify']);
});

test('slash command: options arrive, deferReply is callback 5 and editReply fills @original', async (t) => {
  const { fake, client } = await boot(t);
  const runs = onInteraction(client, async (interaction) => {
    if (!interaction.isChatInputCommand()) throw new Error(`unexpected ${interaction.type}`);
    const symbol = interaction.options.getString('symbol', true);
    const range = interaction.options.getSubcommand();
    assert.equal(interaction.user.username, 'alice');
    assert.equal(interaction.guildId, GUILD);
    assert.equal(interaction.channelId, ALERTS);
    assert.equal(interaction.memberPermissions?.has(PermissionFlagsBits.Administrator), true);
    assert.equal(interaction.appPermissions.has(PermissionFlagsBits.EmbedLinks), true);
    await interaction.deferReply();
    await interaction.editReply({ embeds: [{ title: `Token ${symbol}`, description: `range ${range}` }] });
  });
  const handle = await fake.sendCommand({
    name: 'token',
    channelId: ALERTS,
    user: { id: '1000000000000000077', username: 'alice' },
    memberPermissions: PermissionFlagsBits.Administrator.toString(),
    options: [{ name: 'stats', type: 1, options: [{ name: 'symbol', type: 3, value: 'PEPE' }] }],
  });
  await handle.waitFor('original');
  await Promise.all(runs);
  assert.deepEqual(
    handle.callbacks.map((c) => c.type),
    [5],
  );
  assert.equal(handle.original?.embeds[0]?.['title'], 'Token PEPE');
  assert.equal(handle.original?.embeds[0]?.['description'], 'range stats');
  const calls = fake.requests.filter((r) => r.path.includes(handle.token));
  assert.deepEqual(
    calls.map((r) => `${r.method} ${r.route} ${r.status}`),
    [
      'POST /interactions/:interactionId/:token/callback 204',
      'PATCH /webhooks/:applicationId/:token/messages/:messageId 200',
    ],
  );
  assert.ok(calls[1]?.path.endsWith('/messages/@original'));
});

test('interaction callback answers 204 with no body and no JSON content type', async (t) => {
  const { fake } = await boot(t);
  const handle = await fake.sendCommand({ name: 'ping', channelId: ALERTS });
  const res = await fetch(`${fake.apiBase}/v10/interactions/${handle.id}/${handle.token}/callback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 4, data: { content: 'pong' } }),
  });
  assert.equal(res.status, 204);
  assert.equal(res.headers.get('content-type'), null);
  assert.equal(await res.text(), '');
  assert.equal(handle.original?.content, 'pong');
  const again = await fetch(`${fake.apiBase}/v10/interactions/${handle.id}/${handle.token}/callback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 4, data: { content: 'twice' } }),
  });
  assert.equal(again.status, 400);
  assert.equal(((await again.json()) as { code: number }).code, 40060);
});

test('the first follow-up after a public defer resolves it publicly, whatever its flags; after deleting it, a follow-up keeps its own', async (t) => {
  const { fake, client } = await boot(t);
  const runs = onInteraction(client, async (interaction) => {
    if (!interaction.isChatInputCommand()) throw new Error(`unexpected ${interaction.type}`);
    await interaction.deferReply();
    if (interaction.commandName === 'first')
      await interaction.followUp({ content: 'meant to be private', flags: MessageFlags.Ephemeral });
    else {
      await interaction.deleteReply();
      await interaction.followUp({ content: 'private', flags: MessageFlags.Ephemeral });
    }
  });
  const first = await fake.sendCommand({ name: 'first', channelId: ALERTS });
  await first.waitFor('original');
  const second = await fake.sendCommand({ name: 'second', channelId: ALERTS });
  await second.waitFor((x) => x.followups.length === 1);
  await Promise.all(runs);
  assert.equal(first.followups.length, 0, 'no message of its own');
  assert.equal(first.original?.content, 'meant to be private');
  assert.equal(first.original!.flags & MessageFlags.Ephemeral, 0, 'public, as the defer was');
  assert.equal(second.original?.deleted, true);
  assert.deepEqual(second.original?.shown, ['']);
  assert.equal(second.followups[0]?.content, 'private');
  assert.equal(second.followups[0]!.flags & MessageFlags.Ephemeral, MessageFlags.Ephemeral);
});

test('button click arrives as ButtonInteraction and update() rewrites the clicked message', async (t) => {
  const { fake, client } = await boot(t);
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId('kol:more:42').setLabel('More').setStyle(ButtonStyle.Primary),
  );
  const sent = await textChannel(client, ALERTS).send({ content: 'KOL alert', components: [row] });
  const runs = onInteraction(client, async (interaction) => {
    if (!interaction.isButton()) throw new Error('expected a button');
    assert.equal(interaction.message.id, sent.id);
    await interaction.update({ content: `details for ${interaction.customId}`, components: [] });
  });
  const [posted] = fake.channelMessages(ALERTS);
  assert.ok(posted);
  const handle = await fake.clickButton({ customId: 'kol:more:42', message: posted });
  await handle.waitFor('original');
  await Promise.all(runs);
  assert.deepEqual(
    handle.callbacks.map((c) => c.type),
    [7],
  );
  assert.equal(fake.channelMessages(ALERTS)[0]?.content, 'details for kol:more:42');
  assert.deepEqual(fake.channelMessages(ALERTS)[0]?.components, []);
  await assert.rejects(fake.clickButton({ customId: 'kol:more:42', message: posted }), /no button/);
});

test('a forged click (modified client) delivers a custom id the message does not show, with the message as it is', async (t) => {
  const { fake, client } = await boot(t);
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId('real').setLabel('Real').setStyle(ButtonStyle.Primary),
  );
  await textChannel(client, ALERTS).send({ content: 'one button', components: [row] });
  const seen: { customId: string; shown: string[] }[] = [];
  const runs = onInteraction(client, async (interaction) => {
    if (!interaction.isButton()) throw new Error('expected a button');
    const rows = interaction.message.components.map((r) => r.toJSON() as { components?: { custom_id?: string }[] });
    seen.push({
      customId: interaction.customId,
      shown: rows.flatMap((r) => (r.components ?? []).map((c) => c.custom_id ?? '')),
    });
    await interaction.deferUpdate();
  });
  const [posted] = fake.channelMessages(ALERTS);
  await assert.rejects(fake.clickButton({ customId: 'forged', message: posted! }), /no button/);
  const handle = await fake.clickButton({ customId: 'forged', message: posted!, forged: true });
  await handle.waitFor('callback');
  await Promise.all(runs);
  assert.deepEqual(seen, [{ customId: 'forged', shown: ['real'] }]);
});

test('autocomplete respond() lands as callback 8 with the choices', async (t) => {
  const { fake, client } = await boot(t);
  const runs = onInteraction(client, async (interaction) => {
    if (!interaction.isAutocomplete()) throw new Error('expected autocomplete');
    const typed = interaction.options.getFocused();
    await interaction.respond([`${typed}PE`, `${typed}NUT`].map((name) => ({ name, value: name })));
  });
  const handle = await fake.sendAutocomplete({
    name: 'token',
    channelId: ALERTS,
    options: [{ name: 'symbol', type: 3, value: 'PE', focused: true }],
  });
  await handle.waitFor('callback');
  await Promise.all(runs);
  assert.equal(handle.callbacks[0]?.type, 8);
  assert.deepEqual(handle.callbacks[0]?.data?.['choices'], [
    { name: 'PEPE', value: 'PEPE' },
    { name: 'PENUT', value: 'PENUT' },
  ]);
});

test('the same nonce with enforce_nonce creates one message and returns it twice', async (t) => {
  const { fake, client } = await boot(t);
  const channel = textChannel(client, ALERTS);
  const first = await channel.send({ content: 'alert #1', nonce: 'alert-1-ch', enforceNonce: true });
  const second = await channel.send({ content: 'alert #1 again', nonce: 'alert-1-ch', enforceNonce: true });
  const third = await channel.send({ content: 'alert #2', nonce: 'alert-2-ch', enforceNonce: true });
  assert.equal(second.id, first.id);
  assert.notEqual(third.id, first.id);
  assert.deepEqual(
    fake.channelMessages(ALERTS).map((m) => [m.content, m.nonce]),
    [
      ['alert #1', 'alert-1-ch'],
      ['alert #2', 'alert-2-ch'],
    ],
  );
});

test('forced 429s are waited out by discord.js without violations', async (t) => {
  const { fake, client } = await boot(t);
  const channel = textChannel(client, ALERTS);
  fake.force429(`/channels/${ALERTS}/messages`, { count: 2, retryAfterMs: 80 });
  await channel.send('after two 429s');
  // A request inside a forced window is answered 429 again and recorded as a violation: two 429s,
  // then one success, and no violation, is the client having waited out both windows.
  fake.force429(() => true, { count: 1, retryAfterMs: 80, global: true });
  await channel.send('after a global 429');
  const statuses = fake.requests.filter((r) => r.route === '/channels/:channelId/messages').map((r) => r.status);
  assert.deepEqual(statuses, [429, 429, 200, 429, 200]);
  assert.equal(fake.channelMessages(ALERTS).length, 2);
  assert.deepEqual(fake.violations, []);
});

test('the per-channel bucket paces discord.js through its headers (no 429, no violation)', async (t) => {
  const { fake, client } = await boot(t, { channelBucket: { limit: 2, windowMs: 150 } });
  const channel = textChannel(client, ALERTS);
  await Promise.all([1, 2, 3, 4, 5].map((n) => channel.send(`burst ${n}`)));
  // The bucket lets two through per window and answers a third 429: five sends, each on the
  // first try, and not one 429, is the client having waited for the window to reset twice.
  assert.equal(fake.channelMessages(ALERTS).length, 5);
  assert.deepEqual(
    fake.requests.filter((r) => r.route === '/channels/:channelId/messages').map((r) => r.status),
    [200, 200, 200, 200, 200],
  );
  assert.deepEqual(fake.violations, []);
});

test('a client that ignores retry_after is counted as a violation', async (t) => {
  const { fake } = await boot(t);
  fake.force429('/users/@me', { count: 1, retryAfterMs: 1000 });
  const get = () => fetch(`${fake.apiBase}/v10/users/@me`, { headers: { Authorization: `Bot ${fake.token}` } });
  const first = await get();
  assert.equal(first.status, 429);
  assert.equal(first.headers.get('retry-after'), '1');
  const body = (await first.json()) as { retry_after: number; global: boolean };
  assert.deepEqual(body.global, false);
  assert.equal((await get()).status, 429);
  assert.equal(fake.violations.length, 1);
  assert.equal(fake.violations[0]?.scope, 'forced');
  assert.equal((await fetch(`${fake.apiBase}/v10/users/@me`)).status, 401);
});

test('a failing channel surfaces DiscordAPIError with status and code; null heals it', async (t) => {
  const { fake, client } = await boot(t, { channelBucket: { limit: 50, windowMs: 1000 } });
  const channel = textChannel(client, ALERTS);
  for (const [status, code] of [
    [403, 50013],
    [403, 50001],
    [404, 10003],
  ] as const) {
    fake.failChannel(ALERTS, { status, code });
    const err = await channel.send('x').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof DiscordAPIError, 'a DiscordAPIError');
    assert.equal(err.status, status);
    assert.equal(err.code, code);
  }
  fake.failChannel(ALERTS, { status: 502, times: 1 });
  await channel.send('after one 502, retried by discord.js');
  fake.failChannel(ALERTS, null);
  await channel.send('healed');
  assert.deepEqual(
    fake.channelMessages(ALERTS).map((m) => m.content),
    ['after one 502, retried by discord.js', 'healed'],
  );
});

test('a dropped gateway connection resumes and interactions keep flowing', async (t) => {
  const { fake, client } = await boot(t);
  const runs = onInteraction(client, async (interaction) => {
    if (interaction.isChatInputCommand()) await interaction.reply('still here');
  });
  const resumed = fake.waitForGateway('resume');
  assert.equal(fake.dropConnection(), 1);
  const missed = await fake.sendCommand({ name: 'ping', channelId: ALERTS });
  await resumed;
  await missed.waitFor('original');
  const after = await fake.sendCommand({ name: 'ping', channelId: ALERTS });
  await after.waitFor('original');
  await Promise.all(runs);
  assert.equal(missed.original?.content, 'still here', 'the event sent while disconnected was replayed');
  assert.equal(after.original?.content, 'still here');
  assert.equal(fake.gatewayEvents.filter((e) => e.kind === 'identify').length, 1);
});

test('an invalidated session makes the client identify again and come back ready', async (t) => {
  // discord.js spaces IDENTIFYs 5 s apart; lift that so the test stays fast.
  const { fake, client } = await boot(
    t,
    {},
    { ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) } },
  );
  const refused = fake.waitForGateway('invalid-session');
  const reidentified = fake.waitForGateway('identify');
  const shardReady = once(client, Events.ShardReady);
  fake.dropConnection({ invalidateSession: true });
  await refused;
  await reidentified;
  await shardReady;
  assert.equal(textChannel(client, ALERTS).name, 'alerts');
  const sent = await textChannel(client, ALERTS).send('back online');
  assert.equal(fake.message(sent.id)?.content, 'back online');
});

test('GUILD_DELETE removes the guild and its channels then answer 403 Missing Access', async (t) => {
  const { fake, client } = await boot(t);
  const channel = textChannel(client, ALERTS);
  const deleted = once(client, Events.GuildDelete);
  fake.guildDelete(GUILD);
  const [guild] = (await deleted) as [{ id: string; available: boolean }];
  assert.equal(guild.id, GUILD);
  assert.equal(client.guilds.cache.has(GUILD), false);
  const err = await client.rest
    .post(Routes.channelMessages(channel.id), { body: { content: 'x' } })
    .catch((e: unknown) => e);
  assert.ok(err instanceof DiscordAPIError && err.code === 50001);
});

test('command registration is answered with ids and stored; ids survive a re-put', async (t) => {
  const { fake, client } = await boot(t);
  const body = [
    { name: 'token', description: 'Look up a token', options: [{ name: 'symbol', description: 'Ticker', type: 3 }] },
    { name: 'kol', description: 'Look up a KOL' },
  ];
  const answer = (await client.rest.put(Routes.applicationCommands(fake.applicationId), { body })) as {
    id: string;
    name: string;
  }[];
  assert.deepEqual(
    answer.map((c) => c.name),
    ['token', 'kol'],
  );
  assert.ok(answer.every((c) => /^\d{17,19}$/.test(c.id)));
  assert.deepEqual(
    fake.registeredCommands().map((c) => c.id),
    answer.map((c) => c.id),
  );
  const again = (await client.rest.put(Routes.applicationCommands(fake.applicationId), { body })) as { id: string }[];
  assert.deepEqual(
    again.map((c) => c.id),
    answer.map((c) => c.id),
  );
  await client.rest.put(Routes.applicationGuildCommands(fake.applicationId, GUILD), { body: [body[1]] });
  assert.deepEqual(
    fake.registeredCommands(GUILD).map((c) => c.name),
    ['kol'],
  );
  const bad = await client.rest
    .put(Routes.applicationCommands(fake.applicationId), { body: [{ name: 'Bad Name', description: '' }] })
    .catch((e: unknown) => e);
  assert.ok(bad instanceof DiscordAPIError && bad.code === 50035);
});

test('description localisations are stored per Discord locale; an unknown locale or a long text is refused', async (t) => {
  const { fake, client } = await boot(t);
  const good = {
    name: 'token',
    description: 'Look up a token',
    description_localizations: { 'en-US': 'Look up a token', 'zh-CN': '查询代币', 'es-419': 'Buscar un token' },
  };
  await client.rest.put(Routes.applicationCommands(fake.applicationId), { body: [good] });
  assert.deepEqual(fake.registeredCommands()[0]!['description_localizations'], good.description_localizations);
  for (const description_localizations of [
    { 'pt-PT': 'Procurar' },
    { zh: '查询' },
    { ko: 'x'.repeat(101) },
    { ru: '' },
  ]) {
    const bad = await client.rest
      .put(Routes.applicationCommands(fake.applicationId), { body: [{ ...good, description_localizations }] })
      .catch((e: unknown) => e);
    assert.ok(bad instanceof DiscordAPIError && bad.code === 50035, JSON.stringify(description_localizations));
  }
  assert.deepEqual(
    fake.registeredCommands()[0]!['description_localizations'],
    good.description_localizations,
    'the refused puts changed nothing',
  );
  const badOption = await client.rest
    .put(Routes.applicationCommands(fake.applicationId), {
      body: [
        {
          ...good,
          options: [{ name: 'symbol', description: 'Ticker', type: 3, description_localizations: { 'xx-YY': 'x' } }],
        },
      ],
    })
    .catch((e: unknown) => e);
  assert.ok(badOption instanceof DiscordAPIError && badOption.code === 50035, 'option localisations are checked alike');
});

test('files travel as multipart on channel sends and reply edits', async (t) => {
  const { fake, client } = await boot(t);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
  await textChannel(client, ALERTS).send({ content: 'chart', files: [{ attachment: png, name: 'chart.png' }] });
  const [message] = fake.channelMessages(ALERTS);
  assert.equal(message?.attachments[0]?.filename, 'chart.png');
  assert.equal(message?.attachments[0]?.size, png.length);
  assert.deepEqual(message?.attachments[0]?.data, png);
  const runs = onInteraction(client, async (interaction) => {
    if (!interaction.isChatInputCommand()) return;
    await interaction.deferReply();
    await interaction.editReply({ content: 'see chart', files: [{ attachment: png, name: 'kol.png' }] });
  });
  const handle = await fake.sendCommand({ name: 'kol', channelId: ALERTS });
  await handle.waitFor('original');
  await Promise.all(runs);
  assert.deepEqual(
    handle.original?.attachments.map((a) => [a.filename, a.size]),
    [['kol.png', png.length]],
  );
  const tooLong = await textChannel(client, ALERTS)
    .send('x'.repeat(2001))
    .catch((e: unknown) => e);
  assert.ok(tooLong instanceof DiscordAPIError && tooLong.code === 50035);
});

test('a member deletes a bot message: editing it answers 404 Unknown Message (10008)', async (t) => {
  const { fake, client } = await boot(t);
  const sent = await textChannel(client, ALERTS).send('alert');
  fake.deleteMessage(sent.id);
  assert.equal(fake.channelMessages(ALERTS)[0]!.deleted, true);
  const err = await client.rest.patch(Routes.channelMessage(ALERTS, sent.id), { body: { content: 'edited' } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof DiscordAPIError, String(err));
  assert.equal(err.status, 404);
  assert.equal(err.code, 10008);
});
