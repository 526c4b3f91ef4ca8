// The calls chart (/calls and the digest): best first whatever order the calls come in,
// its figures column says which figure is which, and a page of flat calls still shows each call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callsSvg, renderPng } from '../../../src/views/charts/index.ts';
import type { CallsChartRow } from '../../../src/views/charts/index.ts';
import { THEME } from '../../../src/views/charts/theme.ts';
import { countColour, decodePng } from './png.ts';
import { textContents } from './svgCheck.ts';

const row = (label: string, peak: number, now: number): CallsChartRow => ({
  label,
  peak,
  now,
  figures: `${peak}x · ${now}x`,
});
const chart = (rows: CallsChartRow[]) =>
  callsSvg({ title: 'Calls', subtitle: 'summary', rows, threshold: 2, legend: { peak: 'peak', now: 'now' } });

test('calls are drawn best first (peak, then now), not in the order they were made', () => {
  // Oldest first, as a store lists them.
  const svg = chart([
    row('$OLD', 1.2, 1.1),
    row('$MOON', 3, 2.5),
    row('$FLATDOWN', 1, 0.5),
    row('$FLAT', 1, 1),
    row('$RUG', 1.2, 0.1),
  ]);
  const labels = textContents(svg).filter((t) => t.startsWith('$'));
  assert.deepEqual(labels, ['$MOON', '$OLD', '$RUG', '$FLAT', '$FLATDOWN']);
});

test('the figures column is labelled: which number is the peak and which is now', () => {
  const svg = chart([row('$A', 2.2, 1)]);
  const head = /<text x="([\d.]+)" y="([\d.]+)"[^>]*>peak · now<\/text>/.exec(svg);
  assert.ok(head, 'a "peak · now" column head');
  const figures = /<text x="([\d.]+)" y="([\d.]+)"[^>]*>2.2x · 1x<\/text>/.exec(svg)!;
  assert.equal(head[1], figures[1], 'right-aligned over the figures');
  assert.match(head[0], /text-anchor="end"/);
  assert.ok(Number(head[2]) < Number(figures[2]), 'above them');
});

test('a page of flat calls still shows a mark for every call at 1x', () => {
  const flat = [row('$A', 1, 1), row('$B', 1, 1), row('$C', 1, 1), row('$D', 1, 1)];
  const marks = (rows: CallsChartRow[]) => countColour(decodePng(renderPng(chart(rows))), THEME.neutral, 4);
  const none = marks([]);
  const drawn = marks(flat) - none;
  assert.ok(drawn >= flat.length * 80, `only ${drawn} px of flat marks for ${flat.length} calls`);
});

test('in every language the legend and the column head share their line without touching', async () => {
  const { LOCALES, translator } = await import('../../../src/i18n/index.ts');
  const { textWidth } = await import('../../../src/views/charts/font.ts');
  for (const locale of LOCALES) {
    const t = translator(locale);
    const legend = { peak: t('calls.legendPeak'), now: t('calls.legendNow') };
    const svg = callsSvg({ title: 'Calls', subtitle: 's', rows: [row('$A', 2, 1)], threshold: 2, legend });
    const runs = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"([^>]*)>([^<]*)<\/text>/g)];
    const now = runs.find((m) => m[5] === legend.now)!;
    const head = runs.find((m) => m[5] === `${legend.peak} · ${legend.now}`);
    assert.ok(now && head, locale);
    assert.equal(now[2], head[2], 'one line');
    const legendEnd = Number(now[1]) + textWidth(legend.now, Number(now[3]));
    const headStart = Number(head[1]) - textWidth(head[5]!, Number(head[3]));
    assert.ok(legendEnd + 12 < headStart, `${locale}: legend ends at ${legendEnd}, head starts at ${headStart}`);
  }
});
