/**
 * A member's call as one picture to share: token, caller and time since, the
 * multiple large, and the market cap at the call, the peak and now, with the
 * sampled market caps as a line. Every word and figure arrives formatted in the
 * destination's language; sized to stay readable on a phone (800 px wide).
 */
import { circle, line, pathThrough, rect, svgDocument, textEl } from './svg.ts';
import { escapeXml, svgText, wrapText } from './text.ts';
import { legibleSize, THEME } from './theme.ts';

export interface CallCardInput {
  /** "$PEPE · Pepe · Solana" */
  readonly title: string;
  /** "called by @alice · 3 hours ago" */
  readonly subtitle: string;
  /** "2.1x": now over the market cap at the call. */
  readonly multiple: string;
  /** Up, down or flat since the call: the multiple's colour. */
  readonly trend: 'up' | 'down' | 'flat';
  /** At the call, the peak, now: label, value and an optional second line. */
  readonly boxes: readonly { readonly label: string; readonly value: string; readonly sub?: string }[];
  /** Market caps from the call on (the call's first): the line. */
  readonly series: readonly number[];
  readonly footnote: string;
}

const W = 800;
/** The smallest size a phone shows legibly at this width (theme.ts): 23. */
const TEXT = legibleSize(W);

export function callCardSvg(input: CallCardInput): string {
  const colour = input.trend === 'up' ? THEME.up : input.trend === 'down' ? THEME.down : THEME.neutral;
  const body: string[] = [
    textEl(32, 56, svgText(input.title, W - 64, 34, true), { size: 34, bold: true }),
    textEl(32, 94, svgText(input.subtitle, W - 64, Math.max(24, TEXT)), {
      size: Math.max(24, TEXT),
      fill: THEME.muted,
    }),
    textEl(32, 190, svgText(input.multiple, 330, 84, true), { size: 84, bold: true, fill: colour }),
  ];
  // The sampled market caps beside the multiple, on a log scale (a 10x and a rug both fit).
  const xs = { from: 400, to: W - 40 };
  const ys = { top: 120, bottom: 205 };
  const logs = input.series.filter((v) => v > 0).map(Math.log);
  if (logs.length >= 2) {
    const lo = Math.min(...logs);
    const span = Math.max(1e-9, Math.max(...logs) - lo);
    const pts = logs.map((v, i) => ({
      x: xs.from + ((xs.to - xs.from) * i) / (logs.length - 1),
      y: ys.bottom - ((ys.bottom - ys.top) * (v - lo)) / span,
    }));
    body.push(line(xs.from, pts[0]!.y, xs.to, pts[0]!.y, THEME.grid, 1.5, 'stroke-dasharray="6 6"'));
    body.push(
      `<path d="${pathThrough(pts)}" fill="none" stroke="${colour}" stroke-width="4" stroke-linejoin="round"/>`,
    );
    body.push(circle(pts.at(-1)!.x, pts.at(-1)!.y, 7, colour));
  }
  const n = Math.max(1, input.boxes.length);
  const gap = 16;
  const boxW = (W - 64 - gap * (n - 1)) / n;
  input.boxes.forEach((b, i) => {
    const x = 32 + i * (boxW + gap);
    body.push(rect(x, 240, boxW, 150, THEME.panel, 'rx="12"'));
    body.push(textEl(x + 18, 278, svgText(b.label, boxW - 36, TEXT), { size: TEXT, fill: THEME.muted }));
    body.push(textEl(x + 18, 330, svgText(b.value, boxW - 36, 40, true), { size: 40, bold: true }));
    if (b.sub) body.push(textEl(x + 18, 370, svgText(b.sub, boxW - 36, TEXT), { size: TEXT, fill: THEME.muted }));
  });
  // The footnote wraps at words onto up to three lines: a long language still fits.
  const lines = wrapText(input.footnote, W - 64, TEXT, 3);
  for (const [i, l] of lines.entries())
    body.push(textEl(32, 428 + i * 30, escapeXml(l), { size: TEXT, fill: THEME.faint }));
  return svgDocument(W, 428 + lines.length * 30, body);
}
