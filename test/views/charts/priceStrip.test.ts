// The /token picture: the day's price as a line from operation 2's changes (the only prices the API gives),
// with no figure the card's text already states (the old strip repeated them, rounded its own way:
// -0.53% beside the text's -0.5%), and no picture at all where a line would say nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priceLine, priceStripSvg, renderPng } from '../../../src/views/charts/index.ts';
import { priceStripChart } from '../../../src/views/cards/pictureInputs.ts';
import { translator } from '../../../src/i18n/index.ts';
import { THEME } from '../../../src/views/charts/theme.ts';
import { countColour, decodePng } from './png.ts';
import { externalReferences, textContents } from './svgCheck.ts';

const changes = (m5: number | null, h1: number | null, h4: number | null, h24: number | null) => ({ m5, h1, h4, h24 });

test('the line is the price over the day against 24h ago, read back from "now against then"', () => {
  // Doubled between 24h and 4h ago, flat since: +100% from 4h ago on.
  const line = priceLine(changes(0, 0, 0, 100))!;
  assert.deepEqual(
    line.map((p) => p.label),
    ['-24h', '-4h', '-1h', '-5m', 'now'],
  );
  assert.deepEqual(
    line.map((p) => Math.round(p.change!)),
    [0, 100, 100, 100, 100],
  );
  // Pumped to +50% an hour ago, back to where it started now.
  const pump = priceLine(changes(-10, (-1 / 3) * 100, 0, 0))!;
  assert.deepEqual(
    pump.map((p) => Math.round(p.change!)),
    [0, 0, 50, 11, 0],
  );
});

test('no figure on the picture repeats the text’s: only the axis, in round steps', () => {
  const c = changes(-0.53, 2.17, 7.91, -12.38);
  const texts = textContents(priceStripSvg({ symbol: 'PEPE', changes: c }));
  for (const v of [-0.53, 2.17, 7.91, -12.38])
    for (const shown of [v.toFixed(2), v.toFixed(1), Math.abs(v).toFixed(2), Math.abs(v).toFixed(1)])
      assert.ok(!texts.some((t) => t.includes(shown)), `${shown} written on the picture: ${texts.join(' | ')}`);
  for (const w of ['-24h', '-4h', '-1h', '-5m', 'now']) assert.ok(texts.includes(w), w);
});

test('no picture where a line says nothing the text does not: one window known, or no move', () => {
  assert.equal(priceLine(changes(null, null, null, 4.2)), null, 'one window: the text’s one number');
  assert.equal(priceLine(changes(0, 0, 0.01, -0.02)), null, 'flat all day');
  assert.equal(priceLine(changes(null, Number.NaN, null, null)), null);
  const item = (c: ReturnType<typeof changes>) =>
    ({ token: { id: 1, name: 'Pepe', symbol: 'PEPE', icon_url: '', address: 'x' }, changes: c }) as never;
  const t = translator('es');
  assert.equal(priceStripChart(item(changes(0, 0, 0, 0)), t), undefined);
  const input = priceStripChart(item(changes(1, 2, 3, 4)), t)!;
  assert.ok(textContents(priceStripSvg(input)).includes('ahora'), 'the last point is "now" in the reader’s language');
});

test('an unknown or impossible window is skipped and the line joins the known ones', () => {
  const line = priceLine(changes(1, null, -100, 10))!;
  assert.deepEqual(
    line.map((p) => (p.change === null ? null : Math.round(p.change * 10) / 10)),
    [0, null, null, 8.9, 10],
  );
  const svg = priceStripSvg({ symbol: 'X', changes: changes(1, null, -100, 10) });
  const d = /<path d="([^"]*)" fill="none"/.exec(svg)![1]!;
  assert.equal(d.match(/[ML]/g)!.length, 3, 'one line through the three known points');
});

test('a day up is drawn green, a day down red; the symbol is escaped', () => {
  const up = decodePng(renderPng(priceStripSvg({ symbol: 'X', changes: changes(1, 5, -3, 20) })));
  const down = decodePng(renderPng(priceStripSvg({ symbol: 'X', changes: changes(1, 5, 3, -20) })));
  assert.ok(countColour(up, THEME.up, 10) > 800 && countColour(up, THEME.down, 10) === 0);
  assert.ok(countColour(down, THEME.down, 10) > 800 && countColour(down, THEME.up, 10) === 0);
  const svg = priceStripSvg({ symbol: `<script>&"'`, changes: changes(1, 2, 3, 4) });
  assert.ok(textContents(svg).includes(`<script>&"' price change`));
  assert.doesNotMatch(svg, /<script/);
  assert.deepEqual(externalReferences(svg), []);
});
