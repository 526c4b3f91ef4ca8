/** A KOL's win rate across the eleven windows after a shill, with their scores beside it. */
import type { ChartWords } from './words.ts';
import { finite, percent, px } from './format.ts';
import { circle, header, line, pathThrough, rect, svgDocument, textEl } from './svg.ts';
import { escapeXml, svgText } from './text.ts';
import { legibleSize, THEME } from './theme.ts';
import { textWidth } from './font.ts';
import { WINDOWS } from './windows.ts';
import type { Window } from './windows.ts';

export interface WinRateInput {
  readonly title: string;
  readonly subtitle?: string;
  /** Win rate per window; the API's `summary` (win_rate5m.. win_rate7d) or a table item's win_rate_after*. */
  readonly summary: Readonly<Partial<Record<Window, number | string | null>>>;
  readonly scores?: readonly { readonly label: string; readonly value: string }[];
  /**
   * 'fraction' for 0..1, 'percent' for 0..100. Default: fraction when every
   * known value is at most 1 (a KOL at 1% everywhere is less likely than one at 100%).
   */
  readonly scale?: 'fraction' | 'percent';
  /** The chart's own words in the reader's language; English when absent. */
  readonly words?: ChartWords;
}

// Drawn narrow and tall, the scores under the curve: a phone shows the picture
// 390 px wide, where every word must stay at least 11 px tall (theme.ts).
const W = 600;
const TEXT = legibleSize(W);
const MAX_SCORES = 9;
const SCORE_COLUMNS = 3;

/** Win rates as percents in 0..100, null where unknown. */
export function winRatePercents(summary: WinRateInput['summary'], scale?: 'fraction' | 'percent'): (number | null)[] {
  const raw = WINDOWS.map((w) => finite(summary[w]));
  const known = raw.filter((v): v is number => v !== null);
  const factor = (scale ?? (known.every((v) => v <= 1) ? 'fraction' : 'percent')) === 'fraction' ? 100 : 1;
  // Rounded far below a pixel, so 0.55 and 55 draw the same curve.
  return raw.map((v) => (v === null ? null : Math.min(100, Math.max(0, Math.round(v * factor * 1e9) / 1e9))));
}

export function winRateSvg(input: WinRateInput): string {
  const values = winRatePercents(input.summary, input.scale);
  const scores = (input.scores ?? []).slice(0, MAX_SCORES);
  const head = header(
    W,
    input.title,
    input.subtitle ?? 'Win rate: share of shilled tokens above the shill price after each window',
  );
  const top = head.bottom + 34;
  const plot = { left: 64, top, right: W - 20, bottom: top + 270 };
  const xOf = (i: number): number => plot.left + 20 + (i * (plot.right - plot.left - 40)) / (WINDOWS.length - 1);
  const yOf = (v: number): number => plot.bottom - ((plot.bottom - plot.top) * v) / 100;
  const body: string[] = head.body;

  for (const tick of [0, 25, 50, 75, 100]) {
    const y = yOf(tick);
    const mid = tick === 50;
    body.push(line(plot.left, y, plot.right, y, mid ? THEME.axis : THEME.grid, 1, mid ? 'stroke-dasharray="6 5"' : ''));
    body.push(textEl(plot.left - 8, y + 6, `${tick}%`, { size: TEXT, fill: THEME.muted, anchor: 'end' }));
  }
  WINDOWS.forEach((w, i) => {
    body.push(textEl(xOf(i), plot.bottom + 26, w, { size: TEXT, fill: THEME.muted, anchor: 'middle' }));
  });
  body.push(
    textEl(
      plot.left + (plot.right - plot.left) / 2,
      plot.bottom + 54,
      svgText(input.words?.timeAfter ?? 'time after shill', plot.right - plot.left, TEXT),
      { size: TEXT, fill: THEME.faint, anchor: 'middle' },
    ),
  );

  const points = values.map((v, i) => (v === null ? null : { x: xOf(i), y: yOf(v) }));
  // Area under each unbroken run of known values.
  let run: { x: number; y: number }[] = [];
  const runs: { x: number; y: number }[][] = [];
  for (const p of [...points, null]) {
    if (p) run.push(p);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  for (const r of runs) {
    if (r.length < 2) continue;
    const d = `${pathThrough(r)}L${px(r[r.length - 1]!.x)} ${px(plot.bottom)}L${px(r[0]!.x)} ${px(plot.bottom)}Z`;
    body.push(`<path d="${d}" fill="url(#winArea)"/>`);
  }
  body.push(
    `<path d="${pathThrough(points)}" fill="none" stroke="${THEME.up}" stroke-width="3" stroke-linejoin="round"/>`,
  );

  const known = values.filter((v): v is number => v !== null);
  const best = known.length > 0 ? Math.max(...known) : null;
  // Labels are wider than the gap between two windows: each goes above its
  // point unless that would touch the label before it, then below.
  let previous: { right: number; y: number } | null = null;
  values.forEach((v, i) => {
    const x = xOf(i);
    if (v === null) {
      body.push(
        textEl(x, plot.bottom - 12, escapeXml(input.words?.na ?? 'n/a'), {
          size: TEXT,
          fill: THEME.faint,
          anchor: 'middle',
        }),
      );
      previous = null;
      return;
    }
    const isBest = v === best;
    body.push(
      circle(
        x,
        yOf(v),
        isBest ? 6.5 : 5,
        isBest ? THEME.accent : THEME.up,
        `stroke="${THEME.background}" stroke-width="2"`,
      ),
    );
    const text = percent(v);
    const half = textWidth(text, TEXT, isBest) / 2 + 2;
    const above = yOf(v) - 12;
    const below = yOf(v) + TEXT + 10;
    const clash = (y: number) => previous !== null && previous.right > x - half && Math.abs(previous.y - y) < TEXT + 2;
    const y = above - TEXT < plot.top - 28 || clash(above) ? (clash(below) ? above : below) : above;
    previous = { right: x + half, y };
    body.push(
      textEl(x, y, text, {
        size: TEXT,
        anchor: 'middle',
        bold: isBest,
        fill: isBest ? THEME.accent : THEME.text,
        halo: true,
      }),
    );
  });
  if (known.length === 0) {
    body.push(
      textEl((plot.left + plot.right) / 2, (plot.top + plot.bottom) / 2, 'No win-rate data yet', {
        size: TEXT,
        fill: THEME.muted,
        anchor: 'middle',
      }),
    );
  }

  let bottom = plot.bottom + 70;
  if (scores.length > 0) {
    const box = { x: 20, y: bottom, width: W - 40 };
    const panel = scorePanel(scores, box, input.words?.scores);
    body.push(...panel.body);
    bottom = panel.bottom + 20;
  }

  const defs =
    `<linearGradient id="winArea" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="${THEME.up}" stop-opacity="0.35"/><stop offset="1" stop-color="${THEME.up}" stop-opacity="0.02"/></linearGradient>`;
  return svgDocument(W, Math.round(bottom), body, defs);
}

/** The scores in a grid of three columns under the curve: label above, value below. */
function scorePanel(
  scores: readonly { readonly label: string; readonly value: string }[],
  box: { x: number; y: number; width: number },
  heading = 'Scores',
): { body: string[]; bottom: number } {
  const rows = Math.ceil(scores.length / SCORE_COLUMNS);
  const cellW = (box.width - 32) / SCORE_COLUMNS;
  const cellH = 58;
  const height = 50 + rows * cellH;
  const out = [rect(box.x, box.y, box.width, height, THEME.panel, `rx="12" stroke="${THEME.grid}"`)];
  out.push(
    textEl(box.x + 16, box.y + 32, svgText(heading, box.width - 32, TEXT + 2, true), { size: TEXT + 2, bold: true }),
  );
  scores.forEach((s, i) => {
    const x = box.x + 16 + (i % SCORE_COLUMNS) * cellW;
    const y = box.y + 48 + Math.floor(i / SCORE_COLUMNS) * cellH;
    out.push(textEl(x, y + TEXT, svgText(s.label, cellW - 12, TEXT), { size: TEXT, fill: THEME.muted }));
    out.push(textEl(x, y + TEXT + 26, svgText(s.value, cellW - 12, TEXT + 4, true), { size: TEXT + 4, bold: true }));
  });
  return { body: out, bottom: box.y + height };
}
