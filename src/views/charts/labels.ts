/**
 * Greedy label placement around circles: each label tries positions around
 * its own node (inside when it fits, then outward from the graph centre, then
 * round the clock, then a little further out) and takes the first-best that
 * overlaps no label already placed and stays on the canvas. Labels are placed
 * in order of importance, so when space runs out it is the least important
 * labels that shrink or, at the very end, are hidden.
 */
import { lineMetrics, textWidth } from './font.ts';
import { fitText } from './text.ts';

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Circle {
  readonly x: number;
  readonly y: number;
  readonly r: number;
}

export interface LabelRequest {
  readonly id: string;
  readonly text: string;
  readonly circle: Circle;
  /** Direction (radians) the label prefers, usually away from the graph centre. */
  readonly outward: number;
  readonly fontSize: number;
  readonly minFontSize: number;
  readonly maxWidth: number;
  readonly bold: boolean;
}

export interface PlacedLabel extends Box {
  readonly id: string;
  /** The text as drawn (cut with an ellipsis if needed); not escaped. */
  readonly text: string;
  readonly fontSize: number;
  readonly bold: boolean;
  /** Baseline y for the <text> element; x is the box centre. */
  readonly baseline: number;
  /** False when no free spot was found: the label is not drawn. */
  readonly visible: boolean;
}

const PAD = 2;
const GAPS = [3, 12, 24, 40];
const TURNS = [0, 1, -1, 2, -2, 3, -3, 4].map((k) => (k * Math.PI) / 4);

function boxesOverlap(a: Box, b: Box, pad = 0): boolean {
  return (
    a.x < b.x + b.width + pad && b.x < a.x + a.width + pad && a.y < b.y + b.height + pad && b.y < a.y + a.height + pad
  );
}

function boxHitsCircle(b: Box, c: Circle, pad: number): boolean {
  const nx = Math.max(b.x, Math.min(c.x, b.x + b.width));
  const ny = Math.max(b.y, Math.min(c.y, b.y + b.height));
  return (nx - c.x) ** 2 + (ny - c.y) ** 2 < (c.r + pad) ** 2;
}

function inside(bounds: Box, b: Box): boolean {
  return (
    b.x >= bounds.x &&
    b.y >= bounds.y &&
    b.x + b.width <= bounds.x + bounds.width &&
    b.y + b.height <= bounds.y + bounds.height
  );
}

const clamp1 = (t: number): number => Math.max(-1, Math.min(1, t * 1.5));

/** Candidate boxes for one label, most preferred first. */
function candidates(req: LabelRequest, width: number, height: number): { box: Box; rank: number; own: boolean }[] {
  const { x, y, r } = req.circle;
  const out: { box: Box; rank: number; own: boolean }[] = [];
  if (width <= r * 1.8 && height <= r * 1.3) {
    out.push({ box: { x: x - width / 2, y: y - height / 2, width, height }, rank: 0, own: true });
  }
  GAPS.forEach((gap, gi) => {
    TURNS.forEach((turn, ti) => {
      const a = req.outward + turn;
      const dx = Math.cos(a);
      const dy = Math.sin(a);
      const px = x + dx * (r + gap);
      const py = y + dy * (r + gap);
      const cx = px + (clamp1(dx) * width) / 2;
      const cy = py + (clamp1(dy) * height) / 2;
      out.push({ box: { x: cx - width / 2, y: cy - height / 2, width, height }, rank: 1 + ti + gi * 10, own: false });
    });
  });
  return out;
}

/**
 * Places labels in the given order (most important first). Every circle is an
 * obstacle a label should avoid; labels never overlap each other.
 */
export function placeLabels(requests: readonly LabelRequest[], circles: readonly Circle[], bounds: Box): PlacedLabel[] {
  const placed: PlacedLabel[] = [];
  for (const req of requests) {
    let chosen: PlacedLabel | undefined;
    let fallback: PlacedLabel | undefined;
    for (let size = req.fontSize; size >= req.minFontSize && !chosen; size--) {
      const text = fitText(req.text, req.maxWidth, size, req.bold);
      const { ascent, height } = lineMetrics(size);
      const width = textWidth(text, size, req.bold) + 2;
      let best: { box: Box; cost: number } | undefined;
      for (const cand of candidates(req, width, height)) {
        if (!inside(bounds, cand.box)) continue;
        if (placed.some((p) => p.visible && boxesOverlap(p, cand.box, PAD))) continue;
        let hits = 0;
        for (const c of circles) {
          if (c === req.circle) {
            if (!cand.own && boxHitsCircle(cand.box, c, 1)) hits += 100;
          } else if (boxHitsCircle(cand.box, c, PAD)) hits += 1;
        }
        const cost = hits * 1000 + cand.rank;
        if (!best || cost < best.cost) best = { box: cand.box, cost };
      }
      if (!best) continue;
      const label = {
        id: req.id,
        text,
        fontSize: size,
        bold: req.bold,
        baseline: best.box.y + ascent,
        visible: true,
        ...best.box,
      };
      if (best.cost < 1000) chosen = label;
      else fallback ??= label;
    }
    const result = chosen ?? fallback;
    placed.push(
      result ?? {
        id: req.id,
        text: req.text,
        fontSize: req.minFontSize,
        bold: req.bold,
        baseline: 0,
        visible: false,
        x: 0,
        y: 0,
        width: 0,
        height: 0,
      },
    );
  }
  return placed;
}
