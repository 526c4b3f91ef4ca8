/**
 * Lookups without slash commands on Discord, end to end (real discord.js, the
 * Discord fake, the sandbox): the "Token card" message command, automatic cards
 * with and without the Message Content intent, user installs and autocomplete.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { deployCommands } from '../../../src/adapters/discord/deploy.ts';
import { isSolanaAddress } from '../../../src/domain/chains.ts';
import { loadCommands } from '../../../src/core/registry.ts';
import { snowflake } from '../../fakes/discord/index.ts';
import {
  embedOf,
  MANAGER,
  MANAGER_PERMISSIONS,
  privateAnswer,
  publicAnswer,
  shown,
  startHarness,
  until,
  type Harness,
} from './harness.ts';

const UNKNOWN_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const registry = await loadCommands();

async function harness(t: TestContext, o: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(o);
  t.after(() => h.close());
  await deployCommands({ token: h.fake.token, applicationId: h.fake.applicationId, apiBase: h.fake.apiBase, registry });
  return h;
}

const solTokens = (h: Harness) =>
  h.app.sandbox!.data.tokens.filter((x) => x.chain_id === 'solana' && isSolanaAddress(x.address));

/** Bot messages in a channel created by the automatic path (replies to a pasted message). */
const repliesIn = (h: Harness, channelId: string) =>
  h.fake.channelMessages(channelId).filter((m) => m.message_reference !== undefined);

const OUTCOMES = ['ok', 'user_error', 'denied', 'limited', 'not_found', 'unavailable', 'failed'] as const;
/** Pastes the automatic cards finished with, whatever came of them (a card, a cooldown, an unknown token). */
const handled = (h: Harness) =>
  OUTCOMES.reduce((n, outcome) => n + h.app.metrics.commands.get({ command: 'autocard', outcome }), 0);

/** Lets the gateway deliver and the bot answer: a slash command's public answer comes after everything before it. */
async function barrier(h: Harness, channelId: string): Promise<void> {
  await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId, options: [] }));
}

test('"Token card" on a message: a public compact card; nothing readable or unknown gets a private answer', async (t) => {
  const h = await harness(t);
  const [tok] = solTokens(h);
  const i = await h.fake.sendMessageCommand({
    name: 'Token card',
    channelId: h.channels[0]!,
    target: { content: `ape https://dexscreener.com/solana/${tok!.address}` },
  });
  const card = await publicAnswer(i);
  assert.ok(card.content.includes(`$${tok!.symbol}`), card.content);
  assert.ok(card.content.includes(tok!.address));
  assert.deepEqual(card.allowed_mentions, { parse: [] });
  const nothing = await h.fake.sendMessageCommand({
    name: 'Token card',
    channelId: h.channels[0]!,
    target: { content: 'gm frens' },
  });
  assert.match(embedOf(await privateAnswer(nothing)).description!, /no token address or link/);
  const unknown = await h.fake.sendMessageCommand({
    name: 'Token card',
    channelId: h.channels[0]!,
    target: { content: UNKNOWN_MINT },
  });
  assert.match(embedOf(await privateAnswer(unknown)).description!, /does not know the tokens in that message/);
});

test('without the Message Content intent: a server paste is not seen unless it mentions the bot; DMs work', async (t) => {
  const h = await harness(t);
  const [a, b] = solTokens(h);
  const channel = h.channels[1]!;
  h.fake.postMessage({ channelId: channel, content: `plain paste ${a!.address}` });
  const mentioned = h.fake.postMessage({
    channelId: channel,
    content: `<@${h.fake.applicationId}> what is ${b!.address}`,
    mentionsBot: true,
  });
  await until(() => repliesIn(h, channel).length === 1, 'the mention answered');
  await barrier(h, channel);
  const [reply] = repliesIn(h, channel);
  assert.equal(repliesIn(h, channel).length, 1, 'only the mention got a card');
  assert.equal((reply!.message_reference as { message_id: string }).message_id, mentioned, 'threaded under the paste');
  assert.ok(reply!.content.includes(b!.address));
  assert.deepEqual(reply!.allowed_mentions, { parse: [], replied_user: false }, 'nobody pinged, not even the author');
  const dm = snowflake();
  h.fake.postMessage({ channelId: dm, content: a!.address });
  await until(() => h.fake.channelMessages(dm).length === 1, 'the DM answered');
  assert.ok(h.fake.channelMessages(dm)[0]!.content.includes(a!.address));
});

test('with DISCORD_MESSAGE_CONTENT: one threaded card per paste; a repeat, an unknown address and a bot get nothing', async (t) => {
  const h = await harness(t, { fake: { messageContentIntent: true }, adapter: { messageContent: true } });
  const [a, b] = solTokens(h);
  const channel = h.channels[2]!;
  const paste = h.fake.postMessage({ channelId: channel, content: `CA ${a!.address}` });
  await until(() => repliesIn(h, channel).length === 1, 'the paste answered');
  assert.equal((repliesIn(h, channel)[0]!.message_reference as { message_id: string }).message_id, paste);
  const before = handled(h);
  h.fake.postMessage({ channelId: channel, content: `again https://solscan.io/token/${a!.address}` });
  h.fake.postMessage({ channelId: channel, content: `unknown ${UNKNOWN_MINT}` });
  h.fake.postMessage({ channelId: channel, content: b!.address, authorIsBot: true });
  // Pastes are not handled in order: the repeat and the unknown address each end in a count; a bot's
  // message is dropped as it arrives, so the barrier, a later event on the same gateway session, covers it.
  await until(() => handled(h) >= before + 2, 'the repeat and the unknown address handled');
  await barrier(h, channel);
  assert.equal(repliesIn(h, channel).length, 1, 'nothing more');
  // /autocard tells the admin what the bot can see.
  const status = await h.fake.sendCommand({
    name: 'autocard',
    channelId: channel,
    user: MANAGER,
    memberPermissions: MANAGER_PERMISSIONS,
    options: [],
  });
  assert.match((await publicAnswer(status)).content, /I can read pasted addresses and links in this server/);
});

test('/autocard without the intent explains the Message Content switch and the message command', async (t) => {
  const h = await harness(t);
  const status = await h.fake.sendCommand({
    name: 'autocard',
    channelId: h.channels[0]!,
    user: MANAGER,
    memberPermissions: MANAGER_PERMISSIONS,
    options: [],
  });
  const text = shown((await publicAnswer(status)).content);
  assert.match(text, /Message Content intent \(DISCORD_MESSAGE_CONTENT\)/);
  assert.match(text, /Apps → Token card/);
});

test('user install: lookups run where the bot is not, privately where the server wants it; alert commands are not offered or refused there', async (t) => {
  const h = await harness(t);
  const [tok] = solTokens(h);
  const foreign = snowflake();
  const where = {
    channelId: snowflake(),
    install: 'user' as const,
    foreignGuildId: foreign,
    externalAppsPublic: false,
  };
  const i = await h.fake.sendCommand({
    name: 'token',
    options: [{ name: 'address', type: 3, value: tok!.address }],
    ...where,
  });
  await i.waitFor('original');
  assert.equal(i.original!.flags & 64, 64, 'Discord made it private');
  assert.ok(embedOf(i.original!).title!.includes(tok!.symbol));
  assert.equal(i.followups.length, 0, 'no error follow-up');
  const bad = await h.fake.sendCommand({
    name: 'token',
    options: [
      { name: 'address', type: 3, value: '0x1234' },
      { name: 'chain', type: 3, value: 'bsc' },
    ],
    ...where,
  });
  assert.match(embedOf(await privateAnswer(bad)).description!, /not a .* token address/);
  const card = await h.fake.sendMessageCommand({ name: 'Token card', target: { content: tok!.address }, ...where });
  await card.waitFor('original');
  assert.ok(card.original!.content.includes(tok!.address));
  const dmGroup = await h.fake.sendCommand({
    name: 'kols',
    options: [],
    channelId: snowflake(),
    install: 'user',
    context: 2,
  });
  await dmGroup.waitFor('original');
  assert.ok(embedOf(dmGroup.original!).title, 'a private channel gets the table');
  // /subscribe is offered to user installs for personal alerts in the bot's DM; in a server without the bot it is refused.
  const foreignSubscribe = await h.fake.sendCommand({ name: 'subscribe', options: [], ...where });
  assert.match(JSON.stringify((await privateAnswer(foreignSubscribe)).embeds), /need the bot in this server/);
  assert.equal((await h.app.store.subscriptions.all()).length, 0, 'nothing stored');
  await assert.rejects(h.fake.sendCommand({ name: 'mute', options: [], ...where }), /does not offer mute/);
  await assert.rejects(
    h.fake.sendCommand({ name: 'autocard', options: [], channelId: snowflake() }),
    /does not offer autocard in context 1/,
  );
});

test('autocomplete on the token option suggests names and symbols; a choice opens its card', async (t) => {
  const h = await harness(t);
  const { tokens } = h.app.sandbox!.data;
  const word = ['swap', 'dog', 'cat', 'neon', 'baby'].find(
    (w) => tokens.filter((x) => x.name.toLowerCase().includes(w)).length >= 3,
  )!;
  const ac = await h.fake.sendAutocomplete({
    name: 'token',
    channelId: h.channels[0]!,
    options: [{ name: 'address', type: 3, value: word, focused: true }],
  });
  await ac.waitFor('callback');
  const choices = (ac.callbacks[0]!.data as { choices: { name: string; value: string }[] }).choices;
  assert.ok(choices.length >= 3 && choices.length <= 25, `${choices.length} choices`);
  for (const c of choices) {
    assert.ok(c.name.length <= 100 && c.value.length <= 100);
    assert.match(c.value, /^(solana|bsc|base|sui|aptos) \S+$/);
  }
  // In time: the fake refuses a callback after Discord's 3 s (Unknown interaction), so one recorded was accepted.
  assert.equal(ac.callbacks.length, 1);
  const picked = choices[0]!;
  const run = await h.fake.sendCommand({
    name: 'token',
    channelId: h.channels[0]!,
    options: [{ name: 'address', type: 3, value: picked.value }],
  });
  const card = await publicAnswer(run);
  assert.ok(embedOf(card).description!.includes(picked.value.split(' ')[1]!));
  const none = await h.fake.sendAutocomplete({
    name: 'token',
    channelId: h.channels[0]!,
    options: [{ name: 'address', type: 3, value: 'zzqxqzz', focused: true }],
  });
  await none.waitFor('callback');
  assert.deepEqual((none.callbacks[0]!.data as { choices: unknown[] }).choices, []);
});

test("a paste's card speaks the server's primary language (a message carries no author locale)", async (t) => {
  const h = await harness(t, { fake: { messageContentIntent: true }, adapter: { messageContent: true } });
  const [a] = solTokens(h);
  const guild = { id: snowflake(), channels: [{ id: snowflake() }], locale: 'ru' };
  h.fake.addGuild(guild);
  const channel = guild.channels[0]!.id;
  await until(() => h.adapter.client.guilds.cache.has(guild.id), 'the bot to see the new server');
  h.fake.postMessage({ channelId: channel, content: `CA ${a!.address}` });
  await until(() => repliesIn(h, channel).length === 1, 'the paste answered');
  const card = repliesIn(h, channel)[0]!;
  assert.match(shown(card.content + JSON.stringify(card.embeds)), /Капа \$/);
});

test('"Token card" counts as a command: past the per-user limit the answer is private, and nothing is looked up', async (t) => {
  const h = await harness(t, { userLimit: { count: 2, windowMs: 30_000 } });
  const [tok] = solTokens(h);
  const card = () =>
    h.fake.sendMessageCommand({ name: 'Token card', channelId: h.channels[0]!, target: { content: tok!.address } });
  await publicAnswer(await card());
  await publicAnswer(await card());
  const before = h.app.sandbox!.count();
  const third = await card();
  assert.match(embedOf(await privateAnswer(third)).description!, /sending commands quickly/);
  assert.equal(h.app.sandbox!.count(), before, 'no upstream request');
});

test('"Token card" shares the channel\'s card cap: past it the asker is told privately; another channel is unaffected', async (t) => {
  const h = await harness(t);
  const toks = solTokens(h);
  const cardBy = (k: number, channelId: string) =>
    h.fake.sendMessageCommand({
      name: 'Token card',
      channelId,
      user: { id: `10000000000000006${String(k).padStart(2, '0')}`, username: `asker${k}` },
      target: { content: toks[k % toks.length]!.address },
    });
  for (let k = 0; k < 6; k++) await publicAnswer(await cardBy(k, h.channels[0]!));
  const seventh = await cardBy(6, h.channels[0]!);
  assert.match(embedOf(await privateAnswer(seventh)).description!, /Too many cards in this channel/);
  await publicAnswer(await cardBy(7, h.channels[1]!));
});

test('token autocomplete: a repeated keystroke costs nothing (cached), and each typist has a lookup budget', async (t) => {
  const h = await harness(t);
  const typist = { id: '1000000000000000699', username: 'typist' };
  const type = async (value: string, user = typist) => {
    const ac = await h.fake.sendAutocomplete({
      name: 'token',
      channelId: h.channels[0]!,
      user,
      options: [{ name: 'address', type: 3, value, focused: true }],
    });
    await ac.waitFor('callback');
    return (ac.callbacks[0]!.data as { choices: unknown[] }).choices;
  };
  const first = await type('dog');
  const before = h.app.sandbox!.count();
  assert.deepEqual(await type('dog'), first);
  assert.equal(h.app.sandbox!.count(), before, 'the repeat came from the cache');
  // New words until the budget is spent: then no more upstream requests for this typist.
  for (let k = 0; k < 15; k++) await type(`zq${k}x`);
  const spent = h.app.sandbox!.count();
  assert.deepEqual(await type('zqlastx'), []);
  assert.equal(h.app.sandbox!.count(), spent, 'past the budget nothing reaches the upstream');
  await type('zqotherx', { id: '1000000000000000698', username: 'other' });
  assert.ok(h.app.sandbox!.count() > spent, 'another typist still gets suggestions');
});
