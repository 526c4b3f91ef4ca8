// The Discord fake's modals and select menus: a modal only as the first answer to a press, limits, and the interactions they send back.
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  type Interaction,
  type TextChannel,
} from 'discord.js';
import { snowflake, startDiscordFake, type DiscordFake } from './discord/index.ts';

const GUILD = snowflake();
const CHANNEL = snowflake();

async function boot(t: TestContext): Promise<{ fake: DiscordFake; client: Client; posted: { id: string } }> {
  const fake = await startDiscordFake({ guilds: [{ id: GUILD, name: 'HQ', channels: [{ id: CHANNEL, name: 'a' }] }] });
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiBase } });
  t.after(async () => {
    await client.destroy();
    await fake.close();
  });
  const ready = once(client, Events.ClientReady);
  await client.login(fake.token);
  await ready;
  const channel = client.channels.cache.get(CHANNEL) as TextChannel;
  assert.equal(channel.type, ChannelType.GuildText);
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId('ask').setLabel('Set').setStyle(ButtonStyle.Primary),
  );
  await channel.send({ content: 'panel', components: [row] });
  return { fake, client, posted: fake.channelMessages(CHANNEL)[0]! };
}

const modal = (title: string, label = 'New value') => ({
  title,
  custom_id: 'ask',
  components: [
    {
      type: 1,
      components: [{ type: 4, custom_id: 'value', style: 1, label, required: true, max_length: 5, value: '70' }],
    },
  ],
});

function handled(client: Client, fn: (i: Interaction) => Promise<void>): Promise<void>[] {
  const runs: Promise<void>[] = [];
  client.on(Events.InteractionCreate, (i) => runs.push(fn(i)));
  return runs;
}

test('a modal is callback 9; its submit comes back from the same user with the message, and may update it', async (t) => {
  const { fake, client, posted } = await boot(t);
  const seen: string[] = [];
  const runs = handled(client, async (i) => {
    if (i.isButton()) return i.showModal(modal('Token score'));
    if (!i.isModalSubmit() || !i.isFromMessage()) throw new Error(`unexpected ${i.type}`);
    seen.push(`${i.user.id} ${i.customId} ${i.fields.getTextInputValue('value')} ${i.message.id}`);
    await i.update({ content: 'saved', components: [] });
  });
  const press = await fake.clickButton({
    customId: 'ask',
    message: posted,
    user: { id: '1000000000000000099', username: 'ad' },
  });
  await press.waitFor('callback');
  assert.deepEqual(
    press.callbacks.map((c) => c.type),
    [9],
  );
  await assert.rejects(fake.submitModal(press, { other: 'x' }), /no field other/);
  await assert.rejects(fake.submitModal(press, { value: '123456' }), /longer than 5/);
  await assert.rejects(fake.submitModal(press, { value: '' }), /required/);
  const submit = await fake.submitModal(press, { value: '80' });
  await submit.waitFor('callback');
  await Promise.all(runs);
  assert.deepEqual(seen, [`1000000000000000099 ask 80 ${posted.id}`]);
  assert.equal(fake.message(posted.id)?.content, 'saved');
});

test('a modal after a deferral is refused (already acknowledged), and a title over 45 characters is a 400', async (t) => {
  const { fake, client, posted } = await boot(t);
  const errors: string[] = [];
  const runs = handled(client, async (i) => {
    if (!i.isButton()) return;
    try {
      await i.showModal(modal('x'.repeat(46)));
    } catch (err) {
      errors.push(String((err as { code?: number }).code));
    }
    await i.deferUpdate();
    // As a client that ignored its own state would: the modal straight to Discord after the deferral.
    const late = await fetch(`${fake.apiBase}/v10/interactions/${i.id}/${i.token}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 9, data: modal('Fine') }),
    });
    errors.push(`${late.status} ${((await late.json()) as { code: number }).code}`);
  });
  const press = await fake.clickButton({ customId: 'ask', message: posted });
  await press.waitFor('callback');
  await Promise.all(runs);
  assert.deepEqual(errors, ['50035', '400 40060']);
  assert.equal(press.modal, undefined, 'no modal was shown');
  await assert.rejects(fake.submitModal(press, { value: '1' }), /no modal/);
});

test('a modal whose label is over 45 characters is refused with 50035', async (t) => {
  const { fake, client, posted } = await boot(t);
  const codes: unknown[] = [];
  const runs = handled(client, async (i) => {
    if (!i.isButton()) return;
    await i.showModal(modal('Fine', 'y'.repeat(46))).catch((err: { code?: unknown }) => codes.push(err.code));
    await i.deferUpdate();
  });
  const press = await fake.clickButton({ customId: 'ask', message: posted });
  await press.waitFor('callback');
  await Promise.all(runs);
  assert.deepEqual(codes, [50035]);
});

test('a select menu takes its row alone with 1-25 options; a pick arrives as component_type 3 with its values', async (t) => {
  const { fake, client } = await boot(t);
  const channel = client.channels.cache.get(CHANNEL) as TextChannel;
  const select = (n: number, extra: Record<string, unknown> = {}) => ({
    type: 3,
    custom_id: 'pick',
    placeholder: 'Language',
    options: Array.from({ length: n }, (_, k) => ({ label: `L${k}`, value: `v${k}` })),
    ...extra,
  });
  const refused = async (components: unknown[]) =>
    channel.send({ content: 'x', components: components as never }).then(
      () => undefined,
      (err: { code?: unknown }) => err.code,
    );
  assert.equal(await refused([{ type: 1, components: [select(26)] }]), 50035);
  assert.equal(
    await refused([{ type: 1, components: [select(2), { type: 2, style: 1, label: 'b', custom_id: 'b' }] }]),
    50035,
  );
  assert.equal(await refused([{ type: 1, components: [select(2, { placeholder: 'p'.repeat(151) })] }]), 50035);
  await channel.send({ content: 'menu', components: [{ type: 1, components: [select(3)] }] as never });
  const menu = fake.channelMessages(CHANNEL).at(-1)!;
  const seen: string[] = [];
  const runs = handled(client, async (i) => {
    if (!i.isStringSelectMenu()) throw new Error('expected a select menu');
    seen.push(`${i.customId} ${i.values.join(',')}`);
    await i.deferUpdate();
  });
  await assert.rejects(fake.chooseOption({ customId: 'pick', message: menu, values: ['v9'] }), /no option v9/);
  await assert.rejects(fake.chooseOption({ customId: 'pick', message: menu, values: ['v0', 'v1'] }), /takes 1-1/);
  const pick = await fake.chooseOption({ customId: 'pick', message: menu, values: ['v2'] });
  await pick.waitFor('callback');
  await Promise.all(runs);
  assert.deepEqual(seen, ['pick v2']);
});
