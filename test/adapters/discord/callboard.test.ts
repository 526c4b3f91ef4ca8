/**
 * Members' calls through discord.js and the Discord fake: with the Message
 * Content intent two members paste the same address (the first is credited,
 * the second's card names them) and a bot's paste is never a call; without the
 * intent, "Record call" on a message credits its author, and only the author or
 * an admin may use it on that message.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { deployCommands } from '../../../src/adapters/discord/deploy.ts';
import { isSolanaAddress } from '../../../src/domain/chains.ts';
import { loadCommands } from '../../../src/core/registry.ts';
import { usd } from '../../../src/i18n/english.ts';
import {
  embedOf,
  MANAGER,
  MANAGER_PERMISSIONS,
  MEMBER,
  privateAnswer,
  publicAnswer,
  startHarness,
  until,
  type Harness,
} from './harness.ts';

const registry = await loadCommands();
const ALICE = { id: '1000000000000000101', username: 'alice' };
const BOB = { id: '1000000000000000102', username: 'bob' };

async function harness(t: TestContext, o: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(o);
  t.after(() => h.close());
  await deployCommands({ token: h.fake.token, applicationId: h.fake.applicationId, apiBase: h.fake.apiBase, registry });
  return h;
}

const solTokens = (h: Harness) =>
  h.app.sandbox!.data.tokens.filter((x) => x.chain_id === 'solana' && isSolanaAddress(x.address) && x.marketcap > 0);

async function boardOn(h: Harness, channelId: string): Promise<void> {
  const on = await publicAnswer(
    await h.fake.sendCommand({
      name: 'callboard',
      channelId,
      user: MANAGER,
      memberPermissions: MANAGER_PERMISSIONS,
      options: [{ name: 'action', type: 3, value: 'on' }],
    }),
  );
  assert.match(on.content, /^Call board on/);
}

test('Discord with the Message Content intent: the first paste is credited, the second names the first, a bot’s is no call', async (t) => {
  const h = await harness(t, { fake: { messageContentIntent: true }, adapter: { messageContent: true } });
  const channel = h.channels[0]!;
  await boardOn(h, channel);
  const [tok, other] = solTokens(h);
  const replies = () => h.fake.channelMessages(channel).filter((m) => m.message_reference !== undefined);
  h.fake.postMessage({ channelId: channel, content: `ape ${tok!.address}`, author: ALICE });
  await until(() => replies().length === 1 || undefined, 'the first card');
  assert.ok(replies()[0]!.content.includes(`Call recorded: alice at ${usd(tok!.marketcap)}`), replies()[0]!.content);
  h.fake.postMessage({ channelId: channel, content: `me too ${tok!.address}`, author: BOB });
  await until(() => replies().length === 2 || undefined, 'the second card');
  assert.match(replies()[1]!.content, new RegExp(`First called by alice .* at \\${usd(tok!.marketcap)}, now 1x`));
  h.fake.postMessage({ channelId: channel, content: `relay ${other!.address}`, author: BOB, authorIsBot: true });
  await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId: channel, options: [] }));
  const calls = await h.app.store.members.list(`discord:${channel}`, 0);
  assert.deepEqual(
    calls.map((c) => [c.member?.id, c.token.address]),
    [[ALICE.id, tok!.address]],
    'one call, Alice’s; the repeat and the bot are none',
  );
  // /stats by @name (the callers stored here), then Alice forgets herself: her call and name leave.
  const stats = await publicAnswer(
    await h.fake.sendCommand({
      name: 'stats',
      channelId: channel,
      user: BOB,
      options: [{ name: 'member', type: 3, value: '@alice' }],
    }),
  );
  const statsText = JSON.stringify(stats.embeds);
  assert.match(statsText, /Calls by alice here/);
  assert.match(statsText, /Calls: 1 · hit rate 0%/);
  const forgot = await publicAnswer(
    await h.fake.sendCommand({
      name: 'callboard',
      channelId: channel,
      user: ALICE,
      options: [{ name: 'action', type: 3, value: 'forget' }],
    }),
  );
  assert.match(forgot.content, /Calls removed: 1/);
  assert.deepEqual(await h.app.store.members.list(`discord:${channel}`, 0), []);
  for await (const [, v] of h.app.store.space('calls').entries()) assert.ok(!JSON.stringify(v).includes(ALICE.id));
});

test('Discord without the intent: "Record call" credits the message’s author; someone else’s message takes an admin', async (t) => {
  const h = await harness(t);
  const channel = h.channels[1]!;
  await boardOn(h, channel);
  const [tok, other] = solTokens(h);
  // Bob may not credit Alice's message; a manager may.
  const refused = await privateAnswer(
    await h.fake.sendMessageCommand({
      name: 'Record call',
      channelId: channel,
      user: BOB,
      target: { content: `gem ${tok!.address}`, author: ALICE },
    }),
  );
  assert.match(embedOf(refused).description!, /Only the author of the message or an admin/);
  const byAdmin = await publicAnswer(
    await h.fake.sendMessageCommand({
      name: 'Record call',
      channelId: channel,
      user: MANAGER,
      memberPermissions: MANAGER_PERMISSIONS,
      target: { content: `gem ${tok!.address}`, author: ALICE },
    }),
  );
  assert.ok(byAdmin.content.includes(`Call recorded: alice at ${usd(tok!.marketcap)}`), byAdmin.content);
  // Her own message: she records it herself.
  const own = await publicAnswer(
    await h.fake.sendMessageCommand({
      name: 'Record call',
      channelId: channel,
      user: MEMBER,
      target: { content: `look ${other!.address}`, author: MEMBER },
    }),
  );
  assert.ok(own.content.includes(`Call recorded: lurker at`), own.content);
  const calls = await h.app.store.members.list(`discord:${channel}`, 0);
  assert.deepEqual(calls.map((c) => c.member?.id).sort(), [ALICE.id, MEMBER.id].sort());
});
