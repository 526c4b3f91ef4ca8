import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formats } from '../../src/i18n/format.ts';
import { LOCALES, negotiate, pickLocale } from '../../src/i18n/index.ts';
import * as english from '../../src/i18n/english.ts';

test('platform language tags map to the language we speak, others to nothing', () => {
  const cases: [string | undefined, string | undefined][] = [
    // Discord locales
    ['zh-CN', 'zh'],
    ['zh-TW', 'zh'],
    ['pt-BR', 'pt-BR'],
    ['es-419', 'es'],
    ['es-ES', 'es'],
    ['en-GB', 'en'],
    ['en-US', 'en'],
    ['ko', 'ko'],
    ['tr', 'tr'],
    ['vi', 'vi'],
    ['ru', 'ru'],
    ['de', undefined],
    ['ja', undefined],
    ['uk', undefined],
    // Telegram language_code
    ['pt-br', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['zh-hans', 'zh'],
    ['zh-hant', 'zh'],
    ['PT_br', 'pt-BR'],
    // LANG
    ['ru_RU.UTF-8', 'ru'],
    ['ko_KR.UTF-8', 'ko'],
    ['es_MX.utf8@euro', 'es'],
    ['C.UTF-8', undefined],
    ['POSIX', undefined],
    ['C', undefined],
    ['', undefined],
    [undefined, undefined],
    [' tr-TR ', 'tr'],
    ['toString', undefined],
    ['__proto__', undefined],
  ];
  for (const [tag, want] of cases) assert.equal(negotiate(tag), want, String(tag));
});

test('the chat setting wins over the caller, the caller over English', () => {
  assert.equal(pickLocale('ru', 'ko'), 'ru');
  assert.equal(pickLocale(undefined, 'ko'), 'ko');
  assert.equal(pickLocale(undefined, 'de-DE'), 'en');
  assert.equal(pickLocale(), 'en');
});

test('English formats are the existing ones, unchanged', () => {
  const f = formats('en');
  for (const v of [1234567, '0.00001234', 12.5, -3.4, null]) assert.equal(f.usd(v), english.usd(v));
  assert.equal(f.pct(0.123, 'fraction', { sign: true }), '+12.3%');
  assert.equal(f.timeAgo(0, 5 * 60_000), '5m ago');
});

test('market caps keep K/M/B in every language; separators, percentages and times follow the locale', () => {
  const now = Date.UTC(2026, 0, 10);
  const row = (l: Parameters<typeof formats>[0]) => {
    const f = formats(l);
    return [
      f.usd(1234567),
      f.usd('0.00001234'),
      f.int(12345),
      f.pct(0.123, 'fraction', { sign: true }),
      f.age(3 * 86400 + 4 * 3600, 'seconds'),
      f.timeAgo(now - 5 * 60_000, now),
      f.timeAgo(now - 10_000, now),
    ];
  };
  assert.deepEqual(row('ru'), [
    '$1,23M',
    '$0,0₄1234',
    '12\u00a0345',
    '+12,3\u00a0%',
    '3 д. 4 ч',
    '5 мин. назад',
    'сейчас',
  ]);
  assert.deepEqual(row('zh'), ['$1.23M', '$0.0₄1234', '12,345', '+12.3%', '3天4小时', '5分钟前', '现在']);
  assert.deepEqual(row('tr'), ['$1,23M', '$0,0₄1234', '12.345', '+%12,3', '3g 4s', '5 dk. önce', 'şimdi']);
  assert.deepEqual(row('pt-BR'), ['$1,23M', '$0,0₄1234', '12.345', '+12,3%', '3 dias 4 h', 'há 5 min.', 'agora']);
  assert.deepEqual(row('ko'), ['$1.23M', '$0.0₄1234', '12,345', '+12.3%', '3일 4시간', '5분 전', '지금']);
  // Missing values stay "-" in every language.
  for (const l of ['ru', 'vi', 'es'] as const) {
    const f = formats(l);
    assert.deepEqual(
      [f.usd(null), f.pct('x', 'percent'), f.age(-1, 'days'), f.timeAgo(undefined)],
      ['-', '-', '-', '-'],
    );
  }
});

test('an age of zero shows a value, and an age in months never reads as minutes, in every language', () => {
  for (const locale of LOCALES) {
    const f = formats(locale);
    assert.match(f.age(0, 'seconds'), /\p{N}/u, `${locale}: zero age`);
    assert.match(f.age(0, 'days'), /\p{N}/u, `${locale}: zero age in days`);
    // A window label ("5m") and an age of one month must not share a unit word.
    const month = f.age(31, 'days').replace(/[\d\s.,]/g, '');
    const minutes = f.age(5, 'minutes').replace(/[\d\s.,]/g, '');
    assert.notEqual(month, minutes, `${locale}: ${f.age(31, 'days')} vs ${f.age(5, 'minutes')}`);
    assert.notEqual(month, 'm', `${locale}: a month as "${f.age(31, 'days')}" reads as minutes`);
  }
});
