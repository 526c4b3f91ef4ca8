// The alert in every language: its words from the catalogue, within Discord's and Telegram's limits
// with six long-named KOLs and 5,000-character tweets; delivery reads the destination's language,
// and /subscribe seeds it from the Discord server's language or the admin's.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TweetFacts } from '../../src/alerts/matcher.ts';
import { filterChecks } from '../../src/alerts/checks.ts';
import { DEFAULT_FILTERS } from '../../src/alerts/filters.ts';
import type { Caller } from '../../src/core/command.ts';
import { LOCALES, translator } from '../../src/i18n/index.ts';
import type { AlertContent } from '../../src/store/outbox.ts';
import { alertView } from '../../src/views/cards/alert.ts';
import {
  EMBED_DESCRIPTION_MAX,
  EMBED_TITLE_MAX,
  EMBED_TOTAL_MAX,
  FIELD_NAME_MAX,
  FIELD_VALUE_MAX,
  FOOTER_MAX,
  toDiscordPayload,
} from '../../src/views/render/discord.ts';
import { TEXT_MAX, toTelegramHtml } from '../../src/views/render/telegram.ts';
import { harness } from '../commands/harness.ts';
import { englishIn } from '../helpers/english.ts';
import { telegramVisible, TWEET_5000 } from '../views/render/helpers.ts';

const facts = {
  chain: 'solana',
  tokenScore: 82.5,
  kolScore: 40,
  followers: 12_300,
  tweetType: 'tweet',
  username: 'a',
  labels: ['alpha'],
} as unknown as TweetFacts;
const { parts, checks } = filterChecks({ ...DEFAULT_FILTERS, chains: ['solana'], labels: ['alpha'] }, facts);
const kol = (i: number) => ({
  username: `kol_longer_handle${i}`,
  displayName: `Satoshi Nakamoto Jr ${i}`,
  followers: i === 0 ? null : 1_234_567,
  score: i === 1 ? null : 77.7,
  tweetUrl: `https://x.com/k${i}/status/1`,
  text: TWEET_5000,
  tweetedAt: '2026-11-23T00:00:00Z',
});
const content: AlertContent = {
  kind: 'alert',
  token: {
    name: 'Dogwifhat',
    symbol: 'WIF',
    chain: 'solana',
    address: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm',
    score: 91.2,
    marketCap: 2_345_678_901,
    liquidity: 12_345_678,
    change1h: 1.23,
    change24h: -45.6,
  },
  kols: Array.from({ length: 6 }, (_, i) => kol(i)),
  reason: parts.join(', '),
  checks,
  actions: [],
};

test('English alerts read as before: the checks render to the stored English line', () => {
  const card = alertView(content, translator('en'));
  assert.ok(card.kind === 'card');
  assert.match(JSON.stringify(card.description), /Why: chain solana, token score 82.5 >= 70/);
  assert.equal(alertView({ ...content, checks: undefined }, translator('en')).kind, 'card');
});

test('the alert speaks each language, and fits Discord and Telegram in each', () => {
  for (const locale of LOCALES) {
    const t = translator(locale);
    for (const c of [content, { ...content, test: true }, { ...content, kols: content.kols.slice(0, 1) }]) {
      const view = alertView(c, t);
      if (locale !== 'en')
        assert.deepEqual(
          englishIn(view, (s) => s.startsWith('gm @everyone')),
          [],
          locale,
        );
      const d = toDiscordPayload(view);
      for (const e of d.embeds) {
        assert.ok((e.title ?? '').length <= EMBED_TITLE_MAX, `${locale} title`);
        assert.ok((e.description ?? '').length <= EMBED_DESCRIPTION_MAX, `${locale} description`);
        assert.ok((e.footer?.text ?? '').length <= FOOTER_MAX, `${locale} footer`);
        for (const f of e.fields ?? [])
          assert.ok(f.name.length <= FIELD_NAME_MAX && f.value.length <= FIELD_VALUE_MAX, `${locale} field`);
        const total =
          (e.title ?? '').length +
          (e.description ?? '').length +
          (e.footer?.text ?? '').length +
          (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
        assert.ok(total <= EMBED_TOTAL_MAX, `${locale} embed total ${total}`);
      }
      assert.ok(telegramVisible(toTelegramHtml(view).text).length <= TEXT_MAX, `${locale} telegram`);
    }
  }
  const ru = alertView(content, translator('ru'));
  assert.match(JSON.stringify(ru), /Почему: сеть solana, оценка токена 82,5 >= 70/);
  const notice = alertView({ kind: 'notice', text: 'English text of an older build', skipped: 1234 }, translator('ru'));
  assert.match(
    notice.kind === 'text' ? String(notice.text) : '',
    /^kolradar отстал от ленты: пропущено старых твитов — 1\s234;/u,
  );
});

const h = await harness();
after(() => h.close());

test('/subscribe stores the alert language: the Discord server’s, else the admin’s; a chosen one stays', async () => {
  const admin = (over: Partial<Caller>): Caller => ({
    platform: 'discord',
    userId: 'adm',
    chatId: 'c',
    chatType: 'group',
    locale: 'en-US',
    canManage: async () => true,
    ...over,
  });
  await h.dispatcher.text('/subscribe', admin({ chatId: 'guild-ko', guildLocale: 'ko' }));
  assert.equal(await h.store.languages.get('discord', 'guild-ko'), 'ko');
  await h.dispatcher.text('/subscribe', admin({ platform: 'telegram', chatId: 'tg-tr', locale: 'tr' }));
  assert.equal(await h.store.languages.get('telegram', 'tg-tr'), 'tr');
  await h.store.languages.set('telegram', 'tg-set', 'vi');
  const view = await h.dispatcher.text('/subscribe', admin({ platform: 'telegram', chatId: 'tg-set', locale: 'ru' }));
  assert.equal(await h.store.languages.get('telegram', 'tg-set'), 'vi');
  assert.ok(view?.kind === 'card' && view.title === 'Đã bật cảnh báo');
});
