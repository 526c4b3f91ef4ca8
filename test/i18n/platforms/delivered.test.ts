// What the bot posts on its own, in each destination's language, through the real discord.js and
// grammY against both fakes: the alert, its follow-up edited in an hour later, the quiet-hours
// summary and a digest. Accepted by the fakes, in the language (no English left, not the English
// text), within the limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../../src/core/command.ts';
import { LOCALES, type Locale } from '../../../src/i18n/index.ts';
import type { FakeMessage } from '../../fakes/discord/index.ts';
import type { SentMessage } from '../../fakes/telegram/index.ts';
import { until } from '../../adapters/discord/harness.ts';
import { bothPlatforms } from '../../helpers/platforms.ts';
import { openSubscription } from '../../helpers/subscriptions.ts';
import { englishLeft } from './script.ts';

const HOUR = 3_600_000;

/** Discord: embeds and content as read; Telegram: the text. */
const discordText = (m: FakeMessage): string =>
  [
    m.content,
    ...(m.embeds as { title?: string; description?: string; fields?: { name: string; value: string }[] }[]).flatMap(
      (e) => [e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value])],
    ),
  ]
    .join('\n')
    .replace(/\\([^\sA-Za-z0-9])/g, '$1');
const telegramText = (m: SentMessage): string => m.text ?? '';

test('the alert, its follow-up, the quiet-hours summary and a digest in every language on both platforms', {
  timeout: 120_000,
}, async (t) => {
  let clock = Date.now();
  const now = () => clock;
  // Per language: a Discord channel and a Telegram chat for alerts, and one of each with quiet hours now.
  const dest = LOCALES.map((locale, i) => ({
    locale,
    channel: String(832_000_000_000_000_000n + BigInt(i)),
    quietChannel: String(832_000_000_000_000_100n + BigInt(i)),
    chat: 7_500_000 + i,
    quietChat: 7_500_100 + i,
  }));
  const bot = await bothPlatforms(t, {
    channels: dest.flatMap((d) => [d.channel, d.quietChannel]),
    guildId: '932000000000000001',
    telegramToken: '7000000021:AAFakeTokenForTheI18nDelivery_012345',
    marketClock: now,
    now,
    timeScale: 0.01,
  });
  const { app, discord, telegram } = bot;
  const minute = Math.floor((clock % 86_400_000) / 60_000);
  const quiet = { from: (minute + 1440 - 60) % 1440, to: (minute + 120) % 1440, tz: 'UTC' };
  for (const d of dest) {
    for (const [platform, id, q] of [
      ['discord', d.channel, false],
      ['discord', d.quietChannel, true],
      ['telegram', String(d.chat), false],
      ['telegram', String(d.quietChat), true],
    ] as const) {
      await app.store.languages.set(platform, id, d.locale);
      await app.store.subscriptions.put({
        ...openSubscription(platform, id, { followups: [60] }),
        ...(q ? { quiet } : {}),
      });
    }
  }
  const watcher = app.startAlerts([bot.dc.sender, bot.tg.sender], {
    followupNow: now,
    digestNow: now,
    digestSchedule: false,
  });
  await watcher.tick();
  const sb = app.sandbox!;
  const tok = sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
  const kol = sb.data.kols[0]!;
  sb.addTweets(1, { token: tok.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  const seen = (d: (typeof dest)[number], n: number) =>
    discord.channelMessages(d.channel).length >= n && telegram.messages(d.chat).length >= n;
  await until(() => dest.every((d) => seen(d, 1)), 'an alert everywhere');
  // Delivery records each call before marking its alert sent (the quiet destinations' alerts stay held).
  const recorded = async () => {
    for (const d of dest)
      for (const id of [`discord:${d.channel}`, `telegram:${d.chat}`])
        if ((await app.store.calls.list(id, 0)).length === 0) return false;
    return true;
  };
  await until(recorded, 'every alert recorded as a call');

  // An hour later: the follow-up is edited into each alert.
  clock += HOUR + 60_000;
  await watcher.tick();
  const edited = (d: (typeof dest)[number]) =>
    discord.channelMessages(d.channel)[0]!.edits > 0 && telegram.messages(d.chat)[0]!.edits.length > 0;
  await until(() => dest.every(edited), 'a follow-up everywhere');

  // Quiet hours over: one summary in each quiet destination.
  clock += 2 * HOUR;
  await watcher.tick();
  await until(
    () =>
      dest.every(
        (d) => discord.channelMessages(d.quietChannel).length > 0 && telegram.messages(d.quietChat).length > 0,
      ),
    'a quiet-hours summary everywhere',
  );

  // A digest asked for now.
  for (const d of dest)
    for (const [platform, id] of [
      ['discord', d.channel],
      ['telegram', String(d.chat)],
    ] as const) {
      const caller: Caller = { platform, userId: 'adm', chatId: id, chatType: 'group', canManage: async () => true };
      await app.dispatcher.text('/digest now', caller);
    }
  await until(() => dest.every((d) => seen(d, 2)), 'a digest everywhere');

  const posted = (d: (typeof dest)[number]) => ({
    alert: [discordText(discord.channelMessages(d.channel)[0]!), telegramText(telegram.messages(d.chat)[0]!)],
    summary: [
      discordText(discord.channelMessages(d.quietChannel)[0]!),
      telegramText(telegram.messages(d.quietChat)[0]!),
    ],
    digest: [discordText(discord.channelMessages(d.channel)[1]!), telegramText(telegram.messages(d.chat)[1]!)],
  });
  const english = posted(dest[0]!);
  assert.match(english.alert.join('\n'), /shilled by/);
  assert.match(english.alert.join('\n'), /Since alert \(1h\)/, 'the follow-up line');
  assert.match(english.summary.join('\n'), /during quiet hours/);
  assert.match(english.digest.join('\n'), /digest/i);
  for (const d of dest.slice(1)) {
    const got = posted(d);
    for (const kind of ['alert', 'summary', 'digest'] as const)
      for (const [p, text] of got[kind].entries()) {
        const what = `${d.locale} ${kind} on ${p ? 'Telegram' : 'Discord'}`;
        assert.notEqual(text, english[kind][p], `${what}: not the English text`);
        assert.deepEqual(englishLeft(text, sb, d.locale as Locale), [], what);
      }
  }
  const refused = [
    ...discord.requests.filter((q) => q.status >= 400 && q.status !== 429),
    ...telegram.requests.filter((q) => q.status >= 400 && q.status !== 429),
  ];
  assert.deepEqual(refused, [], 'every post and edit accepted');
  assert.equal(discord.violations.length + telegram.violations.length, 0);
});
