import { after, before, describe, test, type TestContext } from 'node:test';
import { translator } from '../../../src/i18n/index.ts';
import assert from 'node:assert/strict';
import { REST } from 'discord.js';
import { nonceFor } from '../../../src/alerts/delivery.ts';
import { alertView } from '../../../src/views/cards/alert.ts';
import { createDiscordSender } from '../../../src/adapters/discord/sender.ts';
import { silentLogger } from '../../../src/log.ts';
import type { View } from '../../../src/domain/view.ts';
import { nothingMoreAfter } from '../../helpers/wait.ts';
import {
  assertNoPings,
  embedOf,
  MANAGER,
  MANAGER_PERMISSIONS,
  publicAnswer,
  shown,
  startHarness,
  until,
  type Harness,
} from './harness.ts';

const OPEN = [
  { name: 'token_score', type: 10, value: 0 },
  { name: 'kol_score', type: 10, value: 0 },
  { name: 'followers', type: 4, value: 0 },
  { name: 'cooldown', type: 4, value: 0 },
];

async function harness(t: TestContext, o: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(o);
  t.after(() => h.close());
  return h;
}

/** A channel manager runs /subscribe there, through Discord. */
async function subscribe(h: Harness, channelId: string): Promise<void> {
  const i = await h.fake.sendCommand({
    name: 'subscribe',
    channelId,
    user: MANAGER,
    memberPermissions: MANAGER_PERMISSIONS,
    options: OPEN,
  });
  assert.equal(shown(embedOf(await publicAnswer(i)).title!), 'Alerts on');
}

async function settled(h: Harness): Promise<void> {
  await until(
    async () => (await h.app.store.outbox.pending()).every((e) => e.state !== 'pending' && e.state !== 'inflight'),
    'the outbox to settle',
  );
}

const card: View = { kind: 'card', title: 'Hello @everyone', description: 'ping <@123> and @here' };

// Full feed authors, spec-minimal ones (id and username: facts come from op 7) and a mix.
for (const authors of ['full', 'minimal', 'mix'] as const)
  test(`alerts through discord.js (${authors} feed authors): each of two channels gets each alert exactly once, with a nonce, and no rule is broken`, async (t) => {
    const h = await harness(t);
    h.app.sandbox!.setAuthors(authors);
    const [a, b] = h.channels as [string, string];
    await subscribe(h, a);
    await subscribe(h, b);
    const watcher = h.app.startAlerts([h.adapter.sender]);
    await watcher.tick();
    const sb = h.app.sandbox!;
    const kol = sb.data.kols[2]!;
    const tokens = sb.data.tokens.slice(10, 13);
    for (const token of tokens) sb.addTweets(1, { token: token.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
    await watcher.tick();
    await until(
      () => h.fake.channelMessages(a).length >= 3 && h.fake.channelMessages(b).length >= 3,
      'three alerts in each channel',
    );
    await settled(h);
    await watcher.tick();
    // A barrier: one more alert, which each channel's queue sends after anything queued before it.
    const last = sb.data.tokens.slice(13).find((x) => !tokens.some((tok) => tok.symbol === x.symbol))!;
    const symbols = (channel: string) =>
      h.fake.channelMessages(channel).map((m) => shown(embedOf(m).title!).split(' ')[0]);
    await nothingMoreAfter(
      () => [a, b].reduce((n, c) => n + symbols(c).filter((s) => s !== last.symbol).length, 0),
      async () => {
        sb.addTweets(1, { token: last.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
        await watcher.tick();
        await until(() => [a, b].every((c) => symbols(c).includes(last.symbol)), 'the barrier alert in each channel');
      },
      'no alert sent twice after a later tick',
    );

    for (const channel of [a, b]) {
      const messages = h.fake.channelMessages(channel);
      assert.deepEqual(
        symbols(channel),
        [...tokens, last].map((tok) => tok.symbol),
        'each alert once, in order',
      );
      for (const m of messages) {
        assertNoPings(m);
        assert.equal(typeof m.nonce, 'string');
        assert.equal(m.enforce_nonce, true);
        assert.match(shown(embedOf(m).title!), new RegExp(`shilled by .*@${kol.username}`));
      }
      assert.equal(new Set(messages.map((m) => m.nonce)).size, 4, 'a nonce per alert');
    }
    assert.deepEqual(h.fake.violations, []);
  });

test('a channel answering 50013 is disabled after its first failure; the other keeps receiving', async (t) => {
  const h = await harness(t);
  const [alive, denied] = h.channels as [string, string];
  await subscribe(h, alive);
  await subscribe(h, denied);
  h.fake.failChannel(denied, { status: 403, code: 50013, message: 'Missing Permissions' });
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  const sb = h.app.sandbox!;
  for (const token of sb.data.tokens.slice(20, 23))
    sb.addTweets(1, { token: token.id, kol: sb.data.kols[4]!.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await until(
    async () => (await h.app.store.subscriptions.get(`discord:${denied}`))?.disabled != null,
    'the denied channel disabled',
  );
  await until(() => h.fake.channelMessages(alive).length === 3, 'three alerts in the other channel');
  await settled(h);

  const sub = await h.app.store.subscriptions.get(`discord:${denied}`);
  assert.match(sub!.disabled!.reason, /Send Messages/);
  const tries = h.fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${denied}/messages`);
  assert.equal(tries.length, 1, 'one attempt, then no more requests to it');
  assert.deepEqual(h.fake.channelMessages(denied), []);
});

test('resending the same outbox entry with its nonce does not post a second message', async (t) => {
  const h = await harness(t);
  const channel = h.channels[0]!;
  await subscribe(h, channel);
  const watcher = h.app.startAlerts([h.adapter.sender]);
  await watcher.tick();
  const sb = h.app.sandbox!;
  const [tweet] = sb.addTweets(1, {
    token: sb.data.tokens[30]!.id,
    kol: sb.data.kols[5]!.id,
    tokenScore: 90,
    kolScore: 90,
  });
  await watcher.tick();
  await until(() => h.fake.channelMessages(channel).length === 1, 'the alert');
  await settled(h);
  const first = h.fake.channelMessages(channel)[0]!;
  const entry = await h.app.store.outbox.get(`${tweet!.id}:discord:${channel}`);
  assert.ok(entry, 'the outbox entry behind the message');
  assert.equal(nonceFor(entry.id), first.nonce, 'sent with the entry’s nonce');
  assert.equal(entry.messageId, first.id);

  // As after a crash between the send and recording it: the same entry goes out again.
  const again = await h.adapter.sender.send(channel, alertView(entry.content, translator('en')), nonceFor(entry.id));
  assert.deepEqual(again, { kind: 'sent', messageId: first.id });
  assert.equal(h.fake.channelMessages(channel).length, 1);
});

describe('sender', () => {
  // These tests only send: one bot serves them all, each on its own channels.
  let h: Harness;
  before(async () => {
    h = await startHarness({ channelCount: 8 });
  });
  after(() => h.close());

  test('sender: a 429 is waited out inside discord.js and the message lands once; mentions never ping', async (t) => {
    const channel = h.channels[1]!;
    const cancel = h.fake.force429(`/channels/${channel}/messages`, { count: 1, retryAfterMs: 300 });
    t.after(cancel);
    const r = await h.adapter.sender.send(channel, card, 'n-429-test');
    assert.equal(r.kind, 'sent');
    // A retry inside the 300 ms window would be answered 429 again and recorded as a violation:
    // one 429, one success and no violation is the wait, counted rather than timed.
    assert.deepEqual(
      h.fake.requests
        .filter((q) => q.method === 'POST' && q.path === `/channels/${channel}/messages`)
        .map((q) => q.status),
      [429, 200],
    );
    const messages = h.fake.channelMessages(channel);
    assert.equal(messages.length, 1);
    assertNoPings(messages[0]);
    assert.deepEqual(h.fake.violations, []);
  });

  test('sender: a picture goes up as a file the embed points to', async () => {
    const channel = h.channels[2]!;
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const view: View = { kind: 'card', title: 'Chart', picture: { png, name: 'chart.png', alt: 'a chart' } };
    const r = await h.adapter.sender.send(channel, view, 'pic-1');
    assert.equal(r.kind, 'sent');
    const [m] = h.fake.channelMessages(channel);
    assert.equal(m!.attachments.length, 1);
    assert.equal(m!.attachments[0]!.filename, 'chart.png');
    assert.deepEqual([...m!.attachments[0]!.data], [...png]);
    assert.equal((m!.embeds[0] as { image?: { url: string } }).image?.url, 'attachment://chart.png');
    assert.equal(m!.nonce, 'pic-1');
  });

  test('sender: dead channels are "gone" with a reason; 5xx and network failures are "retry"', async (t) => {
    const [c0, c1, c2, c3] = h.channels.slice(3) as [string, string, string, string];
    h.fake.failChannel(c0, { status: 404, code: 10003, message: 'Unknown Channel' });
    h.fake.failChannel(c1, { status: 403, code: 50001, message: 'Missing Access' });
    h.fake.failChannel(c2, { status: 503, times: 10 });
    const gone0 = await h.adapter.sender.send(c0, card, 'g0');
    const gone1 = await h.adapter.sender.send(c1, card, 'g1');
    const busy = await h.adapter.sender.send(c2, card, 'r2');
    assert.equal(gone0.kind, 'gone');
    assert.match(gone0.kind === 'gone' ? gone0.reason : '', /Unknown Channel/);
    assert.equal(gone1.kind, 'gone');
    assert.match(gone1.kind === 'gone' ? gone1.reason : '', /Missing Access/);
    assert.equal(busy.kind, 'retry');
    h.fake.failChannel(c2, null);
    assert.equal((await h.adapter.sender.send(c2, card, 'r2')).kind, 'sent');
    assert.equal(h.fake.channelMessages(c2).length, 1);
    assert.equal(
      (await h.adapter.sender.send(c3, { kind: 'text', text: '' }, 'fine')).kind,
      'sent',
      'an empty text view still renders',
    );

    const rest = new REST({ api: 'http://127.0.0.1:9/api', retries: 0, timeout: 2000 }).setToken('not-a-real-token');
    t.after(() => {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    });
    const offline = await createDiscordSender(rest, silentLogger()).send(c3, card, 'net');
    assert.equal(offline.kind, 'retry');
  });
});

test('removed from a guild: its channels’ subscriptions are disabled at once', async (t) => {
  const h = await harness(t);
  const [a, b] = h.channels as [string, string];
  await subscribe(h, a);
  await subscribe(h, b);
  h.fake.guildDelete(h.guildId);
  await until(async () => {
    const subs = await Promise.all([a, b].map((c) => h.app.store.subscriptions.get(`discord:${c}`)));
    return subs.every((s) => s?.disabled != null);
  }, 'both subscriptions disabled');
  const sub = await h.app.store.subscriptions.get(`discord:${a}`);
  assert.match(sub!.disabled!.reason, /removed from this server/);
  assert.equal(h.adapter.isReady(), true, 'still connected to the other guilds');
});

test('stop(): a command in flight still gets its answer, a new one is told the bot is restarting, then the client disconnects', async (t) => {
  // The budget is far past what the slow command needs even on a loaded machine: past it, the answer
  // would be "too slow" (tested on its own), not the card this test looks for.
  const h = await harness(t, { adapter: { commandBudgetMs: 60_000, stopGraceMs: 60_000 } });
  h.app.sandbox!.setFaults({ latencyMs: 300 });
  const kol = h.app.sandbox!.data.kols[9]!;
  const slow = await h.fake.sendCommand({
    name: 'kol',
    channelId: h.channels[0]!,
    options: [{ name: 'kol', type: 3, value: kol.username }],
  });
  await slow.waitFor('callback');
  const stopping = h.adapter.stop();
  assert.equal(h.adapter.isReady(), false, 'not ready once stopping');
  const late = await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, options: [] });
  await late.waitFor('callback');
  assert.equal(late.callbacks[0]!.type, 4);
  assert.equal(late.original!.flags & 64, 64);
  assert.match(embedOf(late.original!).description!, /restarting/);
  await stopping;
  assert.equal(
    shown(embedOf(slow.original!).title!),
    kol.display_name,
    'the slow command was answered before the disconnect',
  );
  await h.fake.waitForGateway('close', { after: 0 });
});
