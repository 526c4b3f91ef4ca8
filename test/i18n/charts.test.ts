// Chart words in every language: titles, legends, axes and notes come from the catalogue,
// no English is left in another language's picture, and every line fits its canvas
// (CJK glyphs are a full em wide; ru and es run about 30 % longer than English).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCALES, translator } from '../../src/i18n/index.ts';
import { mindmapSvg, momentumSvg, priceStripSvg, winRateSvg } from '../../src/views/charts/index.ts';
import { sampleMindmap, sampleMomentum, sampleWinRate } from '../../src/views/charts/samples.ts';
import { textWidth } from '../../src/views/charts/font.ts';
import { chartWords } from '../../src/views/cards/pictureInputs.ts';
import { englishIn } from '../helpers/english.ts';
import { coordinates, textContents } from '../views/charts/svgCheck.ts';

const width = (svg: string): number => Number(/<svg[^>]*\bwidth="(\d+)"/.exec(svg)![1]);

function svgsFor(locale: (typeof LOCALES)[number]): { name: string; svg: string }[] {
  const t = translator(locale);
  const words = chartWords(t);
  const win = sampleWinRate();
  const labels = [
    'chart.scoreV2',
    'chart.rankV2',
    'chart.score',
    'chart.accuracy',
    'chart.speed',
    'chart.engagement',
    'chart.legality',
    'chart.active',
    'chart.shilledTokens',
  ] as const;
  const scores = labels.map((k) => ({ label: t(k), value: '100.0' }));
  return [
    {
      name: 'winrate',
      svg: winRateSvg({
        ...win,
        title: t('chart.winRateTitle', { who: 'Satoshi Nakamoto (@satoshi)' }),
        subtitle: t('chart.winRateSubtitle', { count: 143, n: 143 }),
        scores,
        words,
      }),
    },
    {
      name: 'momentum',
      svg: momentumSvg({ ...sampleMomentum(8), title: t('chart.momentumTitle', { who: '@satoshi' }), words }),
    },
    {
      name: 'mindmap',
      svg: mindmapSvg({ ...sampleMindmap(40), title: t('chart.mindmapTitle', { name: '$PEPE', hours: 24 }), words }),
    },
    {
      name: 'price',
      svg: priceStripSvg({
        symbol: '$PEPE',
        changes: { m5: 1.2, h1: null, h4: -3.4, h24: 120 },
        title: t('chart.priceTitle', { symbol: '$PEPE' }),
        words,
      }),
    },
  ];
}

test('chart words are translated: no English words in another language’s pictures', () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    for (const { name, svg } of svgsFor(locale)) {
      const texts = textContents(svg);
      assert.ok(texts.length > 0, `${locale} ${name} has text`);
      assert.deepEqual(englishIn({ kind: 'text', text: texts.join('\n') }), [], `${locale} ${name}`);
    }
  }
  const ru = svgsFor('ru');
  assert.ok(textContents(ru[0]!.svg).includes('Оценки'));
  assert.ok(textContents(ru[1]!.svg).includes('Последнее изменение'));
  assert.ok(textContents(ru[3]!.svg).includes('сейчас'), 'the price line’s last point');
});

test('every line of every chart fits its canvas in every language', () => {
  for (const locale of LOCALES) {
    for (const { name, svg } of svgsFor(locale)) {
      const w = width(svg);
      // Our words are whole (token labels in the map may be cut): a language whose words do not fit gets shorter words, not an ellipsis.
      const texts = name === 'mindmap' ? textContents(svg).slice(0, 2) : textContents(svg);
      for (const line of texts) assert.ok(!line.endsWith('…'), `${locale} ${name}: “${line}” is cut`);
      for (const x of coordinates(svg, 'x')) assert.ok(x >= 0 && x <= w, `${locale} ${name}: x=${x}`);
      // Left-anchored texts must end inside the canvas.
      for (const m of svg.matchAll(/<text\b[^>]*\bx="([\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)) {
        if (/text-anchor="(middle|end)"/.test(m[0])) continue;
        const end =
          Number(m[1]) +
          textWidth(m[3]!.replace(/&(amp|lt|gt|quot|#39);/g, 'x'), Number(m[2]), /font-weight="(bold|700)"/.test(m[0]));
        assert.ok(end <= w + 1, `${locale} ${name}: “${m[3]}” ends at ${end.toFixed(0)} of ${w}`);
      }
    }
  }
});
