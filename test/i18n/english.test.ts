import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { age, compact, dateShort, int, pct, score, timeAgo, usd } from '../../src/i18n/english.ts';

test('usd: big amounts compact, dollars with cents, tiny prices with a zero count', () => {
  assert.equal(usd(1234567), '$1.23M');
  assert.equal(usd('950234'), '$950.2K');
  assert.equal(usd(12.5), '$12.50');
  assert.equal(usd('3200000000'), '$3.2B');
  assert.equal(usd(0.5123), '$0.5123');
  assert.equal(usd(0.3), '$0.30');
  assert.equal(usd('0.0001234'), '$0.0001234');
  assert.equal(usd('0.00001234'), '$0.0₄1234');
  assert.equal(usd('0.000000012345'), '$0.0₇1235');
  assert.equal(usd(1e-7), '$0.0₆1');
  assert.equal(usd(0), '$0');
});

test('usd: no float noise, whatever the input type', () => {
  assert.equal(usd(0.1 + 0.2), '$0.30');
  assert.equal(usd('0.30000000000000004'), '$0.30');
  assert.equal(usd(1.005), '$1.01', 'decimal rounding, not binary');
  assert.equal(usd('123456789012345678901234'), '$123,456,789,012T');
});

test('usd: rounding up moves to the next unit instead of showing 1000K', () => {
  assert.equal(usd(999.999), '$1K');
  assert.equal(usd(999_999), '$1M');
  assert.equal(usd('0.99996'), '$1.00');
});

test('negative values keep their sign', () => {
  assert.equal(usd(-3.4), '-$3.40');
  assert.equal(usd('-1500000'), '-$1.5M');
  assert.equal(compact(-1234), '-1.2K');
  assert.equal(int('-12345.4'), '-12,345');
  assert.equal(pct(-0.123, 'fraction'), '-12.3%');
  assert.equal(pct('-5', 'percent', { sign: true }), '-5.0%');
  assert.equal(score(-1.25), '-1.3');
});

test('missing, empty or unparseable values render as "-"', () => {
  for (const v of [null, undefined, Number.NaN, Infinity, '', '  ', 'abc', '1.2.3', '--1']) {
    for (const f of [usd, compact, int, score, (x: typeof v) => pct(x, 'percent'), (x: typeof v) => age(x, 'days')]) {
      assert.equal(f(v as never), '-', `${f.name}(${String(v)})`);
    }
  }
  assert.equal(timeAgo(undefined), '-');
  assert.equal(timeAgo('not a date'), '-');
  assert.equal(dateShort(null), '-');
});

test('compact counts, grouped integers, one-decimal scores', () => {
  assert.equal(compact(950), '950');
  assert.equal(compact(1234), '1.2K');
  assert.equal(compact('123456'), '123K');
  assert.equal(compact(3_400_000), '3.4M');
  assert.equal(int(12345), '12,345');
  assert.equal(int('98765432109876543210'), '98,765,432,109,876,543,210');
  assert.equal(score('82.44'), '82.4');
  assert.equal(score(82), '82.0');
});

test('pct: the caller says whether the input is a fraction or a percent', () => {
  assert.equal(pct(0.123, 'fraction'), '12.3%');
  assert.equal(pct(12.3, 'percent'), '12.3%');
  assert.equal(pct('12.34', 'percent', { sign: true }), '+12.3%');
  assert.equal(pct(0, 'percent', { sign: true }), '0.0%');
  assert.equal(pct(-0.01, 'percent', { sign: true }), '0.0%', 'no "-0.0%"');
  assert.equal(pct(15234.5, 'percent', { sign: true }), '+15,235%');
  assert.equal(pct(0.5, 'fraction', { decimals: 0 }), '50%');
});

test('age: two adjacent units from seconds, hours or days', () => {
  assert.equal(age(3 * 86400 + 4 * 3600 + 59, 'seconds'), '3d 4h');
  assert.equal(age(45 * 60, 'seconds'), '45m');
  assert.equal(age(90, 'minutes'), '1h 30m');
  assert.equal(age(1.5, 'hours'), '1h 30m');
  assert.equal(age(2 * 365 + 95, 'days'), '2y 3mo');
  assert.equal(age('364', 'days'), '11mo 29d');
  assert.equal(age(0, 'seconds'), '0s');
  assert.equal(age(-5, 'seconds'), '-');
});

test('timeAgo and dateShort', () => {
  const now = Date.parse('2024-03-05T12:00:00Z');
  assert.equal(timeAgo('2024-03-05T11:55:00Z', now), '5m ago');
  assert.equal(timeAgo('2024-03-05T11:59:30Z', now), 'just now');
  assert.equal(timeAgo('2024-03-02T02:00:00Z', now), '3d ago');
  assert.equal(timeAgo('2024-03-05T15:00:00Z', now), 'in 3h');
  assert.equal(timeAgo(new Date(now - 400 * 86400_000), new Date(now)), '1y ago');
  assert.equal(dateShort('2024-03-05T23:59:59Z'), '2024-03-05');
});

test('any decimal string formats without float noise or exponent notation', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }), (m, decimals) => {
      const digits = (m < 0n ? -m : m).toString().padStart(decimals + 1, '0');
      const text = `${m < 0n ? '-' : ''}${digits.slice(0, digits.length - decimals)}${decimals ? `.${digits.slice(-decimals)}` : ''}`;
      for (const out of [usd(text), compact(text), int(text), score(text), pct(text, 'percent', { sign: true })]) {
        assert.match(out, /^[-+]?\$?[0-9,.₀-₉]+[KMBT%]?$/, `${text} -> ${out}`);
        assert.doesNotMatch(out, /0000000000|9999999999|e/i, `${text} -> ${out}`);
      }
      // usd keeps at most 4 significant digits below a dollar.
      const body = usd(text).replace(/^-?\$0\.0[₀-₉]+|^-?\$0\.0*/, '');
      if (/^-?\$0\./.test(usd(text))) assert.ok(body.length <= 4, `${text} -> ${usd(text)}`);
    }),
    { numRuns: 500 },
  );
});
