/**
 * Child of the i18n benchmark: a fresh process draws one chart and prints how
 * long the first and a warm render took, in ms, as JSON. `en` draws English
 * labels only; `cjk` first warms up on English, then draws Chinese and Korean
 * labels, so its first render carries exactly the fallback fonts' cost.
 */
import { momentumSvg, renderPng } from '../src/views/charts/index.ts';
import type { MomentumInput } from '../src/views/charts/momentum.ts';
import { sampleMomentum } from '../src/views/charts/samples.ts';

const mode = process.argv[2];
const english = sampleMomentum(3, 4);
const cjk: MomentumInput = {
  ...english,
  title: 'Дмитрий',
  tokens: english.tokens.map((t, i) => ({ ...t, symbol: ['龙币', '한국토큰', 'ミーム'][i]! })),
};

/** Layout (which measures text, and so reads the fonts) and drawing, as a command pays them. */
const time = (input: MomentumInput): number => {
  const t0 = performance.now();
  renderPng(momentumSvg(input));
  return performance.now() - t0;
};
if (mode === 'cjk') {
  time(english);
  time(english);
}
const input = mode === 'cjk' ? cjk : english;
const first = time(input);
const warm = time(input);
process.stdout.write(`${JSON.stringify({ first, warm, rssMb: process.memoryUsage().rss / 2 ** 20 })}\n`);
