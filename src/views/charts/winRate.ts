/** A KOL's win rate across the eleven windows after a shill, with their scores beside it. */
import type { ChartWords } from './words.ts';
import { finite, percent, px } from './format.ts';
import { circle, header, line, pathThrough, rect, svgDocument, textEl } from './svg.ts';
import { escapeXml, svgText } from './text.ts';
import { FONT_SIZE, THEME } from './theme.ts';
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

const W = 1000;
const H = 600;
const MAX_SCORES = 9;

/** Win rates as percents in 0..100, null where unknown. */
export function winRatePercents(summary: WinRateInput['summary'], scale?: 'fraction' | 'percent'): (number | null)[] {
  const raw = WINDOWS.map((w) => finite(summary[w]));
  const known = raw.filter((v): v is number => v !== null);
  const factor = (scale ?? (known.every((v) => v <= 1) ? 'fraction' : 'percent')) === 'fraction' ? 100 : 1;
  return raw.map((v) => (v === null ? null : Math.min(100, Math.max(0, v * factor))));
}

export function winRateSvg(input: WinRateInput): string {
  const values = winRatePercents(input.summary, input.scale);
  const scores = (input.scores ?? []).slice(0, MAX_SCORES);
  const plot = { left: 78, top: 104, right: scores.length > 0 ? 690 : W - 40, bottom: 530 };
  const xOf = (i: number): number => plot.left + 24 + (i * (plot.right - plot.left - 48)) / (WINDOWS.length - 1);
  const yOf = (v: number): number => plot.bottom - ((plot.bottom - plot.top) * v) / 100;

  const body: string[] = header(
    W,
    input.title,
    input.subtitle ?? 'Win rate: share of shilled tokens above the shill price after each window',
  );

  for (const tick of [0, 25, 50, 75, 100]) {
    const y = yOf(tick);
    const mid = tick === 50;
    body.push(line(plot.left, y, plot.right, y, mid ? THEME.axis : THEME.grid, 1, mid ? 'stroke-dasharray="6 5"' : ''));
    body.push(textEl(plot.left - 10, y + 4, `${tick}%`, { size: FONT_SIZE.axis, fill: THEME.muted, anchor: 'end' }));
  }
  WINDOWS.forEach((w, i) => {
    body.push(textEl(xOf(i), plot.bottom + 24, w, { size: FONT_SIZE.axis, fill: THEME.muted, anchor: 'middle' }));
  });
  body.push(
    textEl(
      plot.left + (plot.right - plot.left) / 2,
      plot.bottom + 50,
      escapeXml(input.words?.timeAfter ?? 'time after shill'),
      { size: FONT_SIZE.value, fill: THEME.faint, anchor: 'middle' },
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
  values.forEach((v, i) => {
    const x = xOf(i);
    if (v === null) {
      body.push(textEl(x, plot.bottom - 10, 'n/a', { size: FONT_SIZE.value, fill: THEME.faint, anchor: 'middle' }));
      return;
    }
    const top = v === best;
    body.push(
      circle(x, yOf(v), top ? 6.5 : 5, top ? THEME.accent : THEME.up, `stroke="${THEME.background}" stroke-width="2"`),
    );
    const labelY = yOf(v) > plot.top + 24 ? yOf(v) - 13 : yOf(v) + 24;
    body.push(
      textEl(x, labelY, percent(v), {
        size: FONT_SIZE.value,
        anchor: 'middle',
        bold: top,
        fill: top ? THEME.accent : THEME.text,
        halo: true,
      }),
    );
  });
  if (known.length === 0) {
    body.push(
      textEl((plot.left + plot.right) / 2, (plot.top + plot.bottom) / 2, 'No win-rate data yet', {
        size: FONT_SIZE.subtitle,
        fill: THEME.muted,
        anchor: 'middle',
      }),
    );
  }

  if (scores.length > 0)
    body.push(
      ...scorePanel(
        scores,
        { x: 720, y: plot.top - 8, width: W - 720 - 28, height: plot.bottom - plot.top + 16 },
        input.words?.scores,
      ),
    );

  const defs =
    `<linearGradient id="winArea" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="${THEME.up}" stop-opacity="0.35"/><stop offset="1" stop-color="${THEME.up}" stop-opacity="0.02"/></linearGradient>`;
  return svgDocument(W, H, body, defs);
}

function scorePanel(
  scores: readonly { readonly label: string; readonly value: string }[],
  box: { x: number; y: number; width: number; height: number },
  heading = 'Scores',
): string[] {
  const out = [rect(box.x, box.y, box.width, box.height, THEME.panel, `rx="12" stroke="${THEME.grid}"`)];
  out.push(textEl(box.x + 18, box.y + 32, svgText(heading, box.width - 36, 17, true), { size: 17, bold: true }));
  const rowH = Math.min(48, (box.height - 56) / Math.max(1, scores.length));
  const inner = box.width - 36;
  scores.forEach((s, i) => {
    const y = box.y + 56 + i * rowH + rowH / 2;
    const valueText = svgText(s.value, inner * 0.45, 17, true);
    out.push(textEl(box.x + 18, y + 5, svgText(s.label, inner * 0.55 - 8, 14), { size: 14, fill: THEME.muted }));
    out.push(textEl(box.x + box.width - 18, y + 6, valueText, { size: 17, bold: true, anchor: 'end' }));
    if (i < scores.length - 1)
      out.push(line(box.x + 18, y + rowH / 2, box.x + box.width - 18, y + rowH / 2, THEME.grid, 1));
  });
  return out;
}
