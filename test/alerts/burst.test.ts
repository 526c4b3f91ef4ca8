/**
 * Bursts through the real grammY and discord.js against the platform fakes:
 * 60 alerts for one Telegram group between two ticks arrive merged, within the
 * group's 20 a minute, none lost; a single alert still goes alone, at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bothPlatforms } from '../helpers/platforms.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import type { OutboxEntry } from '../../src/store/outbox.ts';
import { until } from '../helpers/wait.ts';

const GROUP = -1001234500001;
const CHANNEL = '830000000000000161';

test('60 alerts for one Telegram group arrive as a handful of merged messages within 20/min, none lost; a single alert goes alone', {
  timeout: 90_000,
}, async (t) => {
  const { telegram, discord, app, dc, tg } = await bothPlatforms(t, {
    channels: [CHANNEL],
    guildId: '930000000000000161',
    telegramToken: '7000000016:AAFakeTokenForTheBurstTest_01234567',
  });
  await app.store.subscriptions.put({ ...openSubscription('telegram', String(GROUP)), isGroup: true });
  // The group chose Russian: the merged messages are written in it.
  await app.store.languages.set('telegram', String(GROUP), 'ru');
  const watcher = app.startAlerts([dc.sender, tg.sender]);
  await watcher.tick();
  const sb = app.sandbox!;
  const tokens = sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol)).slice(0, 60);
  const kol = sb.data.kols[0]!;
  // 60 shills of 60 tokens between two ticks: 60 alerts for each destination.
  for (const tok of tokens) sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();

  const listed = (texts: readonly string[]) => texts.reduce((n, s) => n + (s.match(/^• /gm)?.length ?? 0), 0);
  const tgTexts = () => telegram.messages(GROUP).map((m) => m.text ?? '');
  await until(() => listed(tgTexts()) >= 60, 'all 60 alerts listed in the group');
  const group = telegram.messages(GROUP);
  assert.equal(listed(tgTexts()), 60, 'every alert is listed');
  assert.ok(group.length >= 2 && group.length <= 10, `a handful of messages, not 60: ${group.length}`);
  for (const tok of tokens)
    assert.ok(
      tgTexts().some((s) => s.includes(tok.symbol)),
      `${tok.symbol} listed`,
    );
  assert.match(tgTexts()[0]!, /^10 алертов сразу/);
  assert.match(tgTexts()[0]!, /кап\. \$/);
  assert.equal(telegram.violations.length, 0, 'within the group limit: no flood violation');

  // Every entry for the group is merged into one that was sent: none lost, none twice.
  // Telegram shows the last merged message before delivery marks it sent (each member is
  // recorded as a call first): wait for the outbox; a stuck entry fails the wait by name.
  const pendingHere = async () => (await app.store.outbox.pending()).filter((e) => e.chatId === String(GROUP));
  await until(async () => (await pendingHere()).length === 0, 'every entry for the group sent or merged');

  // One more shill: a single alert, sent alone and at once (the group still has room this minute).
  const before = telegram.messages(GROUP).length;
  sb.addTweets(1, { token: tokens[0]!.id, kol: sb.data.kols[1]!.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  await until(() => telegram.messages(GROUP).length > before, 'the single alert in the group');
  const single = telegram.messages(GROUP).at(-1)!;
  assert.equal(telegram.messages(GROUP).length, before + 1);
  // An ordinary alert in the group's language ("{{symbol}} шиллит {{who}}"), not a merged one.
  assert.match(single.text ?? '', new RegExp(`^${tokens[0]!.symbol} шиллит `), 'an ordinary alert, not a merged one');
  assert.doesNotMatch(single.text ?? '', /алертов сразу/);
  assert.equal(telegram.violations.length + discord.violations.length, 0);
});

test('Discord: a burst larger than the channel bucket Discord announced is merged; the first alert taught the bucket', {
  timeout: 90_000,
}, async (t) => {
  // 5 messages per 30 s: 10 a minute.
  const { discord, app, dc } = await bothPlatforms(t, {
    channels: [CHANNEL],
    guildId: '930000000000000161',
    telegramToken: '7000000017:AAFakeTokenForTheBurstTest_01234567',
    channelBucket: { limit: 5, windowMs: 30_000 },
  });
  await app.store.subscriptions.put(openSubscription('discord', CHANNEL));
  const watcher = app.startAlerts([dc.sender]);
  await watcher.tick();
  const sb = app.sandbox!;
  const tokens = sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol)).slice(0, 21);
  const kol = sb.data.kols[0]!;
  sb.addTweets(1, { token: tokens[0]!.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  await until(() => discord.channelMessages(CHANNEL).length >= 1, 'the single alert in the channel');
  assert.equal(discord.channelMessages(CHANNEL).length, 1, 'a single alert goes alone at once');
  for (const tok of tokens.slice(1)) sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  const listed = () =>
    discord.channelMessages(CHANNEL).reduce((n, m) => n + (JSON.stringify(m.embeds).match(/• /g)?.length ?? 0), 0);
  await until(() => listed() >= 20, 'all 20 alerts listed in the channel');
  assert.equal(listed(), 20, 'all 20 listed');
  assert.ok(
    discord.channelMessages(CHANNEL).length <= 4,
    `merged: ${discord.channelMessages(CHANNEL).length} messages`,
  );
  const nonces = discord.channelMessages(CHANNEL).map((m) => (m as { nonce?: string }).nonce);
  assert.equal(new Set(nonces).size, nonces.length, 'each message its own nonce');
  assert.equal(discord.violations.length, 0);
});

test('a crash between storing a merged entry and marking its members merged sends it once, members not again', async () => {
  const { createOutbox } = await import('../../src/store/outbox.ts');
  const { createDelivery } = await import('../../src/alerts/delivery.ts');
  const { createSubscriptionStore } = await import('../../src/store/subscriptions.ts');
  const { mergedEntry } = await import('../../src/alerts/merge.ts');
  const { silentLogger } = await import('../../src/log.ts');
  const Keyv = (await import('keyv')).default;
  const { strictKv } = await import('../../src/store/strict.ts');
  const outbox = createOutbox(strictKv(new Keyv({ namespace: 'o' })));
  const subs = createSubscriptionStore(strictKv(new Keyv({ namespace: 's' })));
  await subs.put({ ...openSubscription('telegram', '-5'), isGroup: true });
  const alert = (i: number): OutboxEntry => ({
    id: `${1000 + i}:telegram:-5`,
    subId: 'telegram:-5',
    platform: 'telegram',
    chatId: '-5',
    isGroup: true,
    createdAt: 0,
    state: 'pending',
    attempts: 0,
    notBefore: 0,
    content: {
      kind: 'alert',
      reason: 'r',
      actions: [],
      kols: [
        {
          username: `k${i}`,
          displayName: `k${i}`,
          followers: 1,
          score: 1,
          tweetUrl: 'https://x.com/a/status/1',
          text: 't',
          tweetedAt: '2026-01-01T00:00:00Z',
        },
      ],
      token: {
        name: `T${i}`,
        symbol: `T${i}`,
        chain: 'solana',
        address: `addr${i}`,
        score: 90,
        marketCap: 1e6,
        liquidity: 1e5,
        change1h: null,
        change24h: null,
      },
    },
  });
  const members = Array.from({ length: 45 }, (_, i) => alert(i));
  await outbox.enqueue('b1', members);
  // The crash: the merged entry was stored, the members never marked.
  const m = mergedEntry('burst', members.slice(0, 12), 0);
  await outbox.enqueue(`merge-${m.id}`, [m]);
  const sent: { view: unknown; nonce: string }[] = [];
  const delivery = createDelivery({
    outbox,
    subscriptions: subs,
    log: silentLogger(),
    senders: [
      {
        platform: 'telegram',
        perMinute: () => 20,
        async send(_c, view, nonce) {
          sent.push({ view, nonce });
          return { kind: 'sent', messageId: String(sent.length) };
        },
      },
    ],
  });
  await delivery.drain();
  const text = JSON.stringify(sent.map((s) => s.view));
  // The stored merged entry went once; the other 33 (more than the 19 left this minute) merged too; each listed exactly once.
  const counts = members.map((_, i) => (text.match(new RegExp(`"b":"T${i}"`, 'g')) ?? []).length);
  assert.deepEqual(
    counts,
    members.map(() => 1),
  );
  const { nonceFor } = await import('../../src/alerts/delivery.ts');
  assert.equal(
    sent.filter((x) => x.nonce === nonceFor(m.id)).length,
    1,
    'the stored merged entry went once, with the nonce of its id',
  );
  assert.equal((await outbox.pending()).length, 0);
  for (const e of members) assert.equal((await outbox.get(e.id))!.state, 'merged');
});
