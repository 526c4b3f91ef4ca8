/** A compact strip of a token's price change per window: green up, red down, each value written on its bar. */
import type { ChartWords } from './words.ts';
import { finite, signedPercent } from './format.ts';
import { header, line, rect, svgDocument, textEl } from './svg.ts';
import { escapeXml } from './text.ts';
import { legibleSize, THEME } from './theme.ts';

export interface PriceStripInput {
  readonly symbol: string;
  /** Percent change per window, as the API's `changes` (m5, h1, h4, h24). */
  readonly changes: {
    readonly m5: number | null;
    readonly h1: number | null;
    readonly h4: number | null;
    readonly h24: number | null;
  };
  readonly title?: string;
  /** The chart's own words in the reader's language; English when absent. */
  readonly words?: ChartWords;
}

const W = 800;
const H = 300;
/** The smallest size a phone shows legibly at this width (theme.ts). */
const TEXT = legibleSize(W);
const COLUMNS = [
  ['m5', '5m'],
  ['h1', '1h'],
  ['h4', '4h'],
  ['h24', '24h'],
] as const;

export function priceStripSvg(input: PriceStripInput): string {
  const values = COLUMNS.map(([key]) => finite(input.changes[key]));
  const maxAbs = Math.max(1, ...values.map((v) => Math.abs(v ?? 0)));
  const zero = 170;
  const half = 60;
  const colW = (W - 80) / COLUMNS.length;
  const body: string[] = header(W, input.title ?? `${input.symbol} price change`, undefined).body;

  body.push(line(40, zero, W - 40, zero, THEME.axis, 1.5));
  COLUMNS.forEach(([, label], i) => {
    const v = values[i]!;
    const cx = 40 + colW * (i + 0.5);
    const barW = Math.min(90, colW * 0.5);
    body.push(textEl(cx, H - 16, label, { size: TEXT, fill: THEME.muted, anchor: 'middle' }));
    if (v === null) {
      body.push(
        textEl(cx, zero - 10, escapeXml(input.words?.na ?? 'n/a'), { size: TEXT, fill: THEME.faint, anchor: 'middle' }),
      );
      return;
    }
    const h = v === 0 ? 0 : Math.max(3, (half * Math.abs(v)) / maxAbs);
    const up = v >= 0;
    const colour = v > 0 ? THEME.up : v < 0 ? THEME.down : THEME.neutral;
    body.push(rect(cx - barW / 2, up ? zero - h : zero, barW, h, colour, 'rx="4"'));
    const labelY = up ? zero - h - 10 : zero + h + TEXT + 4;
    body.push(
      textEl(cx, labelY, escapeXml(signedPercent(v)), { size: TEXT, bold: true, fill: colour, anchor: 'middle' }),
    );
  });
  return svgDocument(W, H, body);
}
