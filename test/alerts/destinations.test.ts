// A destination is (platform, chat, thread): two forum topics of one chat and the chat
// itself are three destinations, each with its own subscription, mutes, language and
// buttons, and data written before threads existed is the chat itself, unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Caller } from '../../src/core/command.ts';
import type { View } from '../../src/domain/view.ts';
import { openStore } from '../../src/store/index.ts';
import { SCHEMA_VERSION } from '../../src/store/schema.ts';
import { seedVersion } from '../helpers/schema.ts';
import { callsHarness, textOf } from './calls-harness.ts';
import { until } from '../helpers/wait.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { leaveThread } from '../../src/alerts/subscriptions.ts';
import { autoCardSettings } from '../../src/core/autocard.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };
const CHAT = 'forum-chat';
const at = (threadId?: string): Caller => ({
  platform: 'console',
  userId: 'admin',
  chatId: CHAT,
  ...(threadId ? { threadId } : {}),
  chatType: 'group',
  canManage: async () => true,
});
const idsOf = (v: View) => (v.actions ?? []).map((a) => a.id!);

test('two topics and their chat: each hears only what it subscribed to, in its own language, with its own buttons', async (t) => {
  const h = await callsHarness(t, { subscribe: false });
  const d = h.app.dispatcher;
  for (const where of [at('11'), at('22'), at()]) await d.run('subscribe', OPEN, where);
  const muted = h.sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)[0]!; // shill(0)'s
  await d.text(`/mute ${muted.chain_id} ${muted.address}`, at('22'));
  await d.text('/language ru', at('11'));
  const subs = (await h.app.store.subscriptions.all()).map((s) => s.id).sort();
  assert.deepEqual(subs, [`console:${CHAT}`, `console:${CHAT}:11`, `console:${CHAT}:22`]);

  h.shill(0, 0);
  await h.cycle();
  const where = h.sent.map((s) => s.threadId ?? 'chat').sort();
  assert.deepEqual(where, ['11', 'chat'], 'topic 22 muted the token; topic 11 and the chat each got it once');
  const inTopic = h.sent.find((s) => s.threadId === '11')!;
  const inChat = h.sent.find((s) => s.threadId === undefined)!;
  assert.equal(inChat.chatId, CHAT);
  assert.notEqual(
    textOf(inTopic.view),
    textOf(inChat.view),
    'topic 11 reads its alert in Russian, the chat in English',
  );

  // Buttons are bound to the destination their message went to.
  const button = idsOf(inTopic.view)[0]!;
  assert.ok(button, 'the alert has buttons');
  const elsewhere = await d.action(button, at('22'));
  assert.equal(elsewhere.kind, 'error', 'pressed from another topic: refused');
  const here = await d.action(button, at('11'));
  assert.notEqual(here.kind, 'error', 'pressed in its own topic: answered');

  // The topic's own calls: /calls in topic 11 lists its alert, topic 22 has none.
  const calls = await h.app.store.calls.list(`console:${CHAT}:11`, 0);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.threadId, '11');
  assert.equal((await h.app.store.calls.list(`console:${CHAT}:22`, 0)).length, 0);
});

test('version 3 -> 4: subscriptions, languages and queued alerts written before topics are the chats themselves', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-v4-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  const rows = await seedVersion(url, 3);
  const before = rows
    .filter((r) => r.key.startsWith('sub::console:'))
    .map((r) => (r.value as { value: { id: string } }).value)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  assert.ok(before.length >= 4, 'the version-3 snapshot holds subscriptions');
  const store = await openStore(url);
  assert.equal(store.schema.found, 3);
  assert.equal(store.schema.mark.version, SCHEMA_VERSION);
  const subs = (await store.subscriptions.all()).sort((a, b) => (a.id < b.id ? -1 : 1));
  assert.deepEqual(
    subs.map((s) => ({ ...s })),
    before,
    'every subscription as it was, none in a thread',
  );
  assert.equal(await store.languages.get('console', 'korean'), 'ko');
  assert.equal(await store.languages.get('console', 'korean', '5'), 'ko', "a topic speaks its chat's language");
  const pending = await store.outbox.pending();
  assert.ok(pending.length >= 2 && pending.every((e) => e.threadId === undefined));
  // The snapshot's quiet hours surround the hour it was recorded at (a daily window): moved around
  // now, so that chat "quiet" is in its quiet hours whatever the hour this test runs at.
  const quiet = subs.find((s) => s.chatId === 'quiet');
  assert.ok(quiet?.quiet, 'the version-3 snapshot holds a chat with quiet hours');
  const minute = (ms: number) => Math.floor((ms % 86_400_000) / 60_000);
  await store.subscriptions.put({
    ...quiet,
    quiet: { ...quiet.quiet, from: minute(Date.now() - 3_600_000), to: minute(Date.now() + 3 * 3_600_000) },
  });
  await store.close();

  // And the bot on that store delivers to the chats themselves.
  const h = await callsHarness(t, { storeUrl: url, subscribe: false });
  for (let i = 0; i < 3; i++) h.shill(2, 2);
  await h.cycle();
  const got = [...new Set(h.sent.map((s) => s.chatId))].sort();
  assert.deepEqual(got, ['digest', 'korean', 'open'], 'every subscription but the one in its quiet hours');
  assert.ok(h.sent.every((s) => s.threadId === undefined));
});

test('quiet hours in one topic hold its alerts only; the other topic of the chat gets them at once', async (t) => {
  const h = await callsHarness(t, { subscribe: false });
  const d = h.app.dispatcher;
  for (const where of [at('11'), at('22')]) await d.run('subscribe', OPEN, where);
  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  const quiet = await d.text(`/alerts quiet ${hhmm(h.now() - 3_600_000)}-${hhmm(h.now() + 3 * 3_600_000)}`, at('22'));
  assert.notEqual(quiet?.kind, 'error');
  h.shill(1, 1);
  await h.cycle();
  assert.deepEqual(
    h.sent.map((s) => s.threadId),
    ['11'],
    'topic 22 is in its quiet hours',
  );
  const held = (await h.app.store.outbox.pending()).filter((e) => e.threadId === '22');
  assert.equal(held.length, 1, 'held for topic 22, to be summarised there');
  // Once its quiet hours end, the summary goes to topic 22.
  h.advance(3 * 3_600_000 + 120_000);
  await h.cycle();
  await until(async () => h.sent.some((s) => s.threadId === '22'), 'the summary in topic 22');
  assert.deepEqual(
    h.sent.map((s) => s.threadId),
    ['11', '22'],
  );
});

test("a topic speaks its chat's language and shows its automatic-card setting until it sets its own; cleared, it follows the chat again", async (t) => {
  const h = await callsHarness(t, { subscribe: false });
  const d = h.app.dispatcher;
  const text = (v: View | undefined) => (v ? textOf(v) : '');
  await d.text('/language ru', at());
  await d.text('/autocard off', at());
  assert.match(text(await d.text('/language', at('11'))), /[А-Яа-я]/, "the chat's language, in the topic");
  assert.equal((await autoCardSettings(h.app.store).get('console', CHAT, '11')).enabled, false, "the chat's setting");
  await d.text('/language es', at('11'));
  await d.text('/autocard on', at('11'));
  assert.equal(await h.app.store.languages.get('console', CHAT, '11'), 'es');
  assert.equal(await h.app.store.languages.get('console', CHAT), 'ru', 'the chat keeps its own');
  assert.equal((await autoCardSettings(h.app.store).get('console', CHAT, '11')).enabled, true);
  assert.equal((await autoCardSettings(h.app.store).get('console', CHAT)).enabled, false);
  const cleared = text(await d.text('/language auto', at('11')));
  assert.match(cleared, /[А-Яа-я]/, 'said in the chat’s language, which the topic follows again');
  assert.equal(await h.app.store.languages.get('console', CHAT, '11'), 'ru');
});

test('topics turned off: a move stopped between its two writes is finished by the next attempt, not taken for the chat’s own alerts', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  const topic = { ...openSubscription('telegram', '-100'), id: 'telegram:-100:7', threadId: '7', createdAt: 5 };
  await store.subscriptions.put(topic);
  const { threadId: _, ...copy } = topic;
  await store.subscriptions.put({ ...copy, id: 'telegram:-100' }); // the first write, then the process died
  const m = await leaveThread(store.subscriptions, topic.id, 10);
  assert.deepEqual(m, { from: topic.id, to: 'telegram:-100', merged: false });
  assert.equal((await store.subscriptions.get(topic.id))?.movedTo, '-100', 'its queued alerts follow to the chat');
  // A chat with a subscription of its own keeps it; the topic gives way.
  const other = { ...topic, id: 'telegram:-100:8', threadId: '8', createdAt: 6 };
  await store.subscriptions.put(other);
  assert.equal((await leaveThread(store.subscriptions, other.id, 11))?.merged, true);
  assert.equal((await store.subscriptions.get(other.id))?.movedTo, undefined);
});
