// The Discord fake's destinations, each behaviour on its own, through the real discord.js REST client:
// role mentions under allowed_mentions, threads and archived threads, forum posts with required tags,
// crossposts and their hourly limit, and DM channels (50007 when closed, 50001 injected).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DiscordAPIError, RateLimitError, REST, Routes } from 'discord.js';
import { until } from '../helpers/wait.ts';
import { snowflake, startDiscordFake, type DiscordFake } from './discord/index.ts';

const GUILD = snowflake();
const TEXT = snowflake();
const THREAD = snowflake();
const LOCKED = snowflake();
const FORUM = snowflake();
const TAGGED = snowflake();
const NEWS = snowflake();
const TRADERS = snowflake();
const QUIET = snowflake();
const TAG = snowflake();
const USER = snowflake();

async function boot(
  t: TestContext,
  o: { mentionsEveryone?: boolean; clock?: () => number } = {},
): Promise<{ fake: DiscordFake; rest: REST }> {
  const fake = await startDiscordFake({
    ...(o.clock ? { clock: o.clock } : {}),
    // Many posts in one channel: a wider message bucket keeps the test from waiting it out.
    channelBucket: { limit: 50, windowMs: 1000 },
    guilds: [
      {
        id: GUILD,
        channels: [
          { id: TEXT },
          { id: THREAD, type: 11, parentId: TEXT },
          { id: LOCKED, type: 11, parentId: TEXT },
          { id: FORUM, type: 15 },
          { id: TAGGED, type: 15, requireTag: true, tags: [{ id: TAG, name: 'alerts' }] },
          { id: NEWS, type: 5 },
        ],
        roles: [
          { id: TRADERS, name: 'traders', mentionable: true },
          { id: QUIET, name: 'quiet', mentionable: false },
        ],
        botMentionsEveryone: o.mentionsEveryone ?? false,
      },
    ],
  });
  const rest = new REST({ api: fake.apiBase, retries: 0 }).setToken(fake.token);
  t.after(() => fake.close());
  return { fake, rest };
}

const post = (rest: REST, channel: string, body: Record<string, unknown>) =>
  rest.post(Routes.channelMessages(channel), { body }) as Promise<{ id: string; mention_roles: string[] }>;

async function refusal(p: Promise<unknown>): Promise<{ status: number; code: unknown }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DiscordAPIError) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error('expected Discord to refuse');
}

test('a role is notified only by a mention in content that allowed_mentions lets through', async (t) => {
  const { fake, rest } = await boot(t);
  const only = { parse: [], roles: [TRADERS] };
  await post(rest, TEXT, { content: `<@&${TRADERS}> @everyone <@${USER}>`, allowed_mentions: only });
  await post(rest, TEXT, { content: 'x', embeds: [{ description: `<@&${TRADERS}>` }] });
  await post(rest, TEXT, { content: `<@&${TRADERS}>`, allowed_mentions: { parse: [] } });
  await post(rest, TEXT, { content: `<@&${TRADERS}> @everyone` });
  const [listed, inEmbed, parsedNothing, parsedAll] = fake.channelMessages(TEXT);
  assert.deepEqual(listed!.notified, { roles: [TRADERS], users: [], everyone: false });
  assert.deepEqual(inEmbed!.notified, { roles: [], users: [], everyone: false });
  assert.deepEqual(parsedNothing!.notified, { roles: [], users: [], everyone: false });
  // Without allowed_mentions everything is parsed; @everyone still needs Mention Everyone.
  assert.deepEqual(parsedAll!.notified, { roles: [TRADERS], users: [], everyone: false });
  const both = await refusal(
    post(rest, TEXT, { content: 'x', allowed_mentions: { parse: ['roles'], roles: [TRADERS] } }),
  );
  assert.deepEqual(both, { status: 400, code: 50035 });
});

test('a role that is not mentionable is pinged only by a bot with Mention Everyone', async (t) => {
  const without = await boot(t);
  await post(without.rest, TEXT, { content: `<@&${QUIET}>`, allowed_mentions: { parse: [], roles: [QUIET] } });
  assert.deepEqual(without.fake.channelMessages(TEXT)[0]!.notified.roles, []);
  const withIt = await boot(t, { mentionsEveryone: true });
  const sent = await post(withIt.rest, TEXT, {
    content: `<@&${QUIET}>`,
    allowed_mentions: { parse: [], roles: [QUIET] },
  });
  assert.deepEqual(sent.mention_roles, [QUIET]);
});

test('a thread takes messages; an archived one is unarchived by a post, a locked archived one refuses with 50083', async (t) => {
  const { fake, rest } = await boot(t);
  await post(rest, THREAD, { content: 'in the thread' });
  assert.equal(fake.channelMessages(THREAD).length, 1);
  assert.equal(fake.channelMessages(TEXT).length, 0);
  fake.archiveThread(THREAD);
  await post(rest, THREAD, { content: 'wakes it' });
  assert.equal(fake.channel(THREAD)!.archived, false);
  fake.archiveThread(LOCKED, { locked: true });
  assert.deepEqual(await refusal(post(rest, LOCKED, { content: 'x' })), { status: 400, code: 50083 });
  assert.equal(fake.channelMessages(LOCKED).length, 0);
  const channel = (await rest.get(Routes.channel(THREAD))) as { type: number; parent_id: string };
  assert.deepEqual([channel.type, channel.parent_id], [11, TEXT]);
});

test('a forum takes posts, not messages; a forum that requires a tag refuses a post without one (40067)', async (t) => {
  const { fake, rest } = await boot(t);
  assert.deepEqual(await refusal(post(rest, FORUM, { content: 'x' })), { status: 400, code: 50008 });
  const made = (await rest.post(Routes.threads(FORUM), {
    body: { name: '$WIF on solana', message: { content: 'first' } },
  })) as { id: string; parent_id: string; message: { id: string; channel_id: string } };
  assert.equal(made.parent_id, FORUM);
  assert.equal(made.message.id, made.id, 'a forum post is a thread named by its first message');
  await post(rest, made.id, { content: 'second, in the post' });
  assert.deepEqual(
    fake.forumPosts(FORUM).map((p) => [p.thread.name, p.messages.map((m) => m.content)]),
    [['$WIF on solana', ['first', 'second, in the post']]],
  );
  const untagged = rest.post(Routes.threads(TAGGED), { body: { name: 'x', message: { content: 'x' } } });
  assert.deepEqual(await refusal(untagged), { status: 400, code: 40067 });
  const long = rest.post(Routes.threads(FORUM), { body: { name: 'x'.repeat(101), message: { content: 'x' } } });
  assert.deepEqual(await refusal(long), { status: 400, code: 50035 });
  await rest.post(Routes.threads(TAGGED), { body: { name: 'ok', applied_tags: [TAG], message: { content: 'x' } } });
  assert.deepEqual(fake.forumPosts(TAGGED)[0]!.tags, [TAG]);
});

test('a forum post with an enforced nonce: the same nonce within the window answers with the first post, none opened', async (t) => {
  const { fake, rest } = await boot(t);
  const open = (text: string, nonce: string) =>
    rest.post(Routes.threads(FORUM), {
      body: { name: '$WIF on solana', message: { content: text, nonce, enforce_nonce: true } },
    }) as Promise<{ id: string; message: { id: string; content: string } }>;
  const first = await open('first', 'post-1');
  const again = await open('first, sent again', 'post-1');
  assert.equal(again.id, first.id);
  assert.equal(again.message.content, 'first', 'the first post’s message, unchanged');
  await open('another', 'post-2');
  assert.deepEqual(
    fake.forumPosts(FORUM).map((p) => p.messages.map((m) => m.content)),
    [['first'], ['another']],
  );
  const { status } = await refusal(
    rest.delete(Routes.channelMessage(first.id, first.id)).then(() => open('x', 'post-1')),
  );
  assert.equal(status, 404, 'the nonce of a deleted post answers Unknown Message');
});

test('crossposts: only in an announcement channel, once a message, 10 an hour, then 429 until the hour ends', async (t) => {
  let now = 1_000_000;
  const { fake, rest } = await boot(t, { clock: () => now });
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push((await post(rest, NEWS, { content: `n${i}` })).id);
  for (const id of ids.slice(0, 10)) await rest.post(Routes.channelMessageCrosspost(NEWS, id));
  assert.deepEqual(await refusal(rest.post(Routes.channelMessageCrosspost(NEWS, ids[0]!))), {
    status: 400,
    code: 40033,
  });
  // The REST client would wait out the hour: a 429 here is what a bot must never meet.
  const limited = await fetch(`${fake.apiBase}/v10${Routes.channelMessageCrosspost(NEWS, ids[10]!)}`, {
    method: 'POST',
    headers: { authorization: `Bot ${fake.token}` },
  });
  assert.equal(limited.status, 429);
  assert.equal(fake.crosspost429s, 1);
  // As Discord says it: the rest of the hour, in the body and the headers a client reads.
  assert.equal(((await limited.json()) as { retry_after: number }).retry_after, 3600);
  assert.equal(limited.headers.get('retry-after'), '3600');
  assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
  assert.equal(limited.headers.get('x-ratelimit-limit'), '10');
  assert.equal(limited.headers.get('x-ratelimit-reset-after'), '3600');
  assert.equal(limited.headers.get('x-ratelimit-scope'), 'user');
  now += 3_600_000;
  await rest.post(Routes.channelMessageCrosspost(NEWS, ids[11]!));
  assert.deepEqual(
    fake.channelMessages(NEWS).map((m) => m.crossposted),
    [...Array(10).fill(true), false, true],
  );
  const text = await post(rest, TEXT, { content: 'x' });
  assert.deepEqual(await refusal(rest.post(Routes.channelMessageCrosspost(TEXT, text.id))), {
    status: 400,
    code: 50024,
  });
});

test('an hour-long crosspost 429 reaches discord.js as one: a client set to reject it learns the hour at once', async (t) => {
  let now = 1_000_000;
  const { fake } = await boot(t, { clock: () => now });
  const limits: { route: string; retryAfter: number }[] = [];
  const rest = new REST({
    api: fake.apiBase,
    retries: 0,
    rejectOnRateLimit: (r) => {
      limits.push({ route: r.route, retryAfter: r.retryAfter });
      return true;
    },
  }).setToken(fake.token);
  const ids: string[] = [];
  for (let i = 0; i < 11; i++) ids.push((await post(rest, NEWS, { content: `n${i}` })).id);
  for (const id of ids.slice(0, 10)) await rest.post(Routes.channelMessageCrosspost(NEWS, id));
  now += 60_000;
  await assert.rejects(rest.post(Routes.channelMessageCrosspost(NEWS, ids[10]!)), RateLimitError);
  assert.equal(limits.length, 1);
  assert.equal(limits[0]!.route, '/channels/:id/messages/:id/crosspost');
  // Retry-After in whole seconds (59 minutes), plus the client's offset.
  assert.ok(limits[0]!.retryAfter >= 3_540_000 && limits[0]!.retryAfter < 3_541_000, `${limits[0]!.retryAfter}`);
  assert.equal(fake.crosspost429s, 1);
});

test('a held channel answers nothing until the hold ends or is released; other channels answer at once', async (t) => {
  const { fake, rest } = await boot(t);
  const release = fake.holdChannel(TEXT, 600_000);
  let answered = false;
  const pending = post(rest, TEXT, { content: 'held' }).then((m) => {
    answered = true;
    return m;
  });
  await until(() => fake.heldRequests(TEXT) === 1, 'the request held');
  const other = await post(rest, THREAD, { content: 'goes' });
  assert.equal(fake.message(other.id)?.content, 'goes');
  assert.equal(answered, false, 'the held send is still waiting');
  assert.equal(fake.channelMessages(TEXT).length, 0, 'and not handled');
  release();
  const m = await pending;
  assert.equal(fake.message(m.id)?.content, 'held', 'handled once released');
  assert.equal(fake.heldRequests(TEXT), 0);
});

test('a held request whose client gives up is dropped unhandled (499), and the channel works after the hold', async (t) => {
  const { fake, rest } = await boot(t);
  const release = fake.holdChannel(TEXT, 600_000);
  await assert.rejects(
    rest.post(Routes.channelMessages(TEXT), { body: { content: 'gave up' }, signal: AbortSignal.timeout(200) }),
    /abort/i,
  );
  await until(() => fake.heldRequests(TEXT) === 0, 'the held request gone');
  assert.equal(fake.requests.find((r) => r.path === `/channels/${TEXT}/messages`)?.status, 499);
  release();
  await post(rest, TEXT, { content: 'after' });
  assert.deepEqual(
    fake.channelMessages(TEXT).map((m) => m.content),
    ['after'],
    'the abandoned one never posted',
  );
});

test('a DM channel opens for any user; sending answers 50007 when their DMs are closed, and 50001 as injected', async (t) => {
  const { fake, rest } = await boot(t);
  const dm = (await rest.post(Routes.userChannels(), { body: { recipient_id: USER } })) as { id: string; type: number };
  assert.equal(dm.type, 1);
  const again = (await rest.post(Routes.userChannels(), { body: { recipient_id: USER } })) as { id: string };
  assert.equal(again.id, dm.id, 'one DM channel per user');
  await post(rest, dm.id, { content: 'hello' });
  fake.setDmsClosed(USER, true);
  assert.deepEqual(await refusal(post(rest, dm.id, { content: 'x' })), { status: 403, code: 50007 });
  fake.setDmsClosed(USER, false);
  fake.failChannel(dm.id, { status: 403, code: 50001, message: 'Missing Access', times: 1 });
  assert.deepEqual(await refusal(post(rest, dm.id, { content: 'x' })), { status: 403, code: 50001 });
  await post(rest, dm.id, { content: 'after' });
  assert.deepEqual(
    fake.channelMessages(dm.id).map((m) => m.content),
    ['hello', 'after'],
  );
});
