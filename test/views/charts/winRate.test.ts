import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPng, WINDOWS, winRatePercents, winRateSvg } from '../../../src/views/charts/index.ts';
import type { WinRateInput } from '../../../src/views/charts/index.ts';
import { sampleWinRate } from '../../../src/views/charts/samples.ts';
import { countColour, decodePng, looksDrawn } from './png.ts';
import { coordinates, externalReferences, textContents } from './svgCheck.ts';

type Summary = WinRateInput['summary'];
const summaryOf = (f: (i: number) => number | null): Summary =>
  Object.fromEntries(WINDOWS.map((w, i) => [w, f(i)])) as Summary;

test('every window is on the axis and every known win rate is written as a percent', () => {
  const summary = summaryOf((i) => [0.5, 0.25, 0.125, 0.6, 0.75, 1, 0, 0.333, 0.9, 0.42, 0.58][i]!);
  const texts = textContents(winRateSvg({ title: 'KOL', summary }));
  for (const w of WINDOWS) assert.ok(texts.includes(w), `window ${w} missing`);
  for (const p of ['50%', '25%', '12.5%', '60%', '75%', '100%', '0%', '33.3%', '90%', '42%', '58%'])
    assert.ok(texts.includes(p), `${p} missing`);
});

test('fractions and percents draw the same curve; an explicit scale wins over detection', () => {
  const fractions = summaryOf((i) => 0.3 + i * 0.05);
  const percents = summaryOf((i) => 30 + i * 5);
  assert.equal(winRateSvg({ title: 'a', summary: fractions }), winRateSvg({ title: 'a', summary: percents }));
  assert.deepEqual(
    winRatePercents(
      summaryOf(() => 0.5),
      'percent',
    ),
    WINDOWS.map(() => 0.5),
  );
  assert.deepEqual(
    winRatePercents(summaryOf(() => '0.5' as unknown as number)),
    WINDOWS.map(() => 50),
    'decimal strings accepted',
  );
  assert.deepEqual(
    winRatePercents(summaryOf(() => 180)),
    WINDOWS.map(() => 100),
    'clamped to 100%',
  );
});

test('unknown windows show n/a and break the line instead of inventing a value', () => {
  const summary = summaryOf((i) => (i === 4 || i === 5 ? null : 0.5));
  const svg = winRateSvg({ title: 'gaps', summary });
  assert.equal(textContents(svg).filter((t) => t === 'n/a').length, 2);
  const line = /<path d="([^"]*)" fill="none"/.exec(svg)![1]!;
  assert.equal(line.match(/M/g)!.length, 2, 'two separate runs');
  const empty = winRateSvg({ title: 'none', summary: summaryOf(() => null) });
  assert.ok(textContents(empty).includes('No win-rate data yet'));
  renderPng(empty);
});

test('scores sit beside the curve, escaped, long ones cut with an ellipsis', () => {
  const svg = winRateSvg({
    title: `<b>"KOL" & 'friends'</b>`,
    summary: summaryOf(() => 0.6),
    scores: [
      { label: 'Score v2', value: '78.4' },
      { label: '<img src=x>', value: '&amp;' },
      { label: 'An extremely long score label that cannot possibly fit the panel', value: '12345678901234567890123' },
    ],
  });
  const texts = textContents(svg);
  assert.ok(texts.includes('Score v2') && texts.includes('78.4'));
  assert.ok(texts.includes('<img src=x>') && texts.includes('&amp;'));
  assert.ok(texts.includes(`<b>"KOL" & 'friends'</b>`));
  assert.doesNotMatch(svg, /<img|<b>/);
  assert.ok(texts.some((t) => t.startsWith('An extremely') && t.endsWith('…')));
  assert.deepEqual(externalReferences(svg), []);
  for (const x of coordinates(svg, 'x')) assert.ok(x >= 0 && x <= 600);
});

test('renders a narrow picture, scores under the curve, with the green curve visible', () => {
  const img = decodePng(renderPng(winRateSvg(sampleWinRate())));
  assert.equal(img.width, 600);
  assert.ok(img.height > 600, 'taller than wide: the scores sit under the curve');
  assert.ok(looksDrawn(img));
  assert.ok(countColour(img, '#2ecc71', 20) > 800, 'curve not visible');
});
