/**
 * Deterministic radial layout of a token graph: the queried token in the
 * middle, the others on up to three rings, the most strongly linked on the
 * inner ring. Node area follows value (sqrt scale); edges carry their weight as
 * width and opacity. Same input, same picture: no randomness anywhere.
 */
import type { ChartWords } from './words.ts';
import { finite } from './format.ts';
import { placeLabels } from './labels.ts';
import type { Box, Circle, LabelRequest, PlacedLabel } from './labels.ts';
import { pickLabel } from './text.ts';
import { legibleSize } from './theme.ts';

export type { Box, PlacedLabel } from './labels.ts';

/** Ids may come as API integers or as strings; they are compared as strings. */
export type NodeId = string | number;

export interface MindmapInput {
  readonly centerId: NodeId;
  readonly nodes: readonly { readonly id: NodeId; readonly value: number }[];
  readonly edges: readonly { readonly source: NodeId; readonly target: NodeId; readonly value: number }[];
  /** Keyed by token id as a string (as in the API's `tokens` object). */
  readonly tokens: Readonly<Record<string, { readonly symbol: string; readonly name: string }>>;
  readonly title?: string;
  /** The chart's own words in the reader's language; English when absent. */
  readonly words?: ChartWords;
}

export interface MindmapOptions {
  readonly width?: number;
  readonly height?: number;
  /** Largest graph drawn, centre included; the weakest others are left out. */
  readonly maxNodes?: number;
}

export interface LayoutNode extends Circle {
  readonly id: string;
  readonly value: number;
  readonly center: boolean;
  /** 0 for the centre, 1.. for the rings outward. */
  readonly ring: number;
}

export interface LayoutEdge {
  readonly source: string;
  readonly target: string;
  readonly value: number;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly width: number;
  readonly opacity: number;
  readonly touchesCenter: boolean;
  /** A link between two linked tokens bends round the circles in its way: the curve's control point. */
  readonly bend?: { readonly x: number; readonly y: number };
}

export interface MindmapLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly LayoutNode[];
  readonly edges: readonly LayoutEdge[];
  /** One per node, same order as `nodes`. */
  readonly labels: readonly PlacedLabel[];
  /** Area the graph and labels keep to (below the title). */
  readonly plot: Box;
  readonly totalNodes: number;
}

const MINDMAP_HEADER = 130;
/** Room under the map for its key (mindmap.ts): two lines. */
const FOOTER = 130;

const nonNegative = (v: unknown): number => Math.max(0, finite(v) ?? 0);
const compareIds = (p: string, q: string): number => (p < q ? -1 : p > q ? 1 : 0);

/** Picks a step through n ring slots so consecutive (similarly sized) nodes land apart. */
function spreadStride(n: number): number {
  if (n <= 3) return 1;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const ideal = Math.round(n * 0.382);
  for (let d = 0; d < n; d++) {
    for (const s of [ideal + d, ideal - d]) if (s > 0 && s < n && gcd(s, n) === 1) return s;
  }
  return 1;
}

export function mindmapLayout(input: MindmapInput, opts: MindmapOptions = {}): MindmapLayout {
  const width = opts.width ?? 900;
  const height = opts.height ?? 900;
  const maxNodes = Math.max(2, opts.maxNodes ?? 60);
  const centerId = String(input.centerId);

  const values = new Map<string, number>();
  for (const n of input.nodes) {
    const id = String(n.id);
    values.set(id, Math.max(values.get(id) ?? 0, nonNegative(n.value)));
  }
  if (!values.has(centerId))
    values.set(
      centerId,
      [...values.values()].reduce((m, v) => Math.max(m, v), 0),
    );

  // Undirected, duplicates merged, self-links dropped.
  const merged = new Map<string, { a: string; b: string; value: number }>();
  for (const e of input.edges) {
    const s = String(e.source);
    const t = String(e.target);
    if (s === t || !values.has(s) || !values.has(t)) continue;
    const [a, b] = s < t ? [s, t] : [t, s];
    const key = `${a}\u0000${b}`;
    const prev = merged.get(key);
    merged.set(key, { a, b, value: (prev?.value ?? 0) + nonNegative(e.value) });
  }
  const strength = new Map<string, number>();
  for (const e of merged.values()) {
    if (e.a === centerId) strength.set(e.b, (strength.get(e.b) ?? 0) + e.value);
    if (e.b === centerId) strength.set(e.a, (strength.get(e.a) ?? 0) + e.value);
  }
  const others = [...values.keys()]
    .filter((id) => id !== centerId)
    .sort(
      (p, q) => (strength.get(q) ?? 0) - (strength.get(p) ?? 0) || values.get(q)! - values.get(p)! || compareIds(p, q),
    );
  const totalNodes = others.length + 1;
  const kept = others.slice(0, maxNodes - 1);

  const plot: Box = { x: 10, y: MINDMAP_HEADER, width: width - 20, height: height - MINDMAP_HEADER - FOOTER };
  const cx = plot.x + plot.width / 2;
  const cy = plot.y + plot.height / 2;
  const n = kept.length;
  const ringCount = n === 0 ? 0 : n <= 8 ? 1 : n <= 24 ? 2 : 3;
  const outer = Math.min(plot.width, plot.height) / 2 - (n > 24 ? 70 : 95);
  const inner = Math.min(outer, n > 24 ? 150 : 175);
  const radii =
    ringCount === 1
      ? [outer * 0.72]
      : Array.from({ length: ringCount }, (_, k) => inner + ((outer - inner) * k) / (ringCount - 1));

  // One angle per node across all rings, the rings taking turns: no two nodes
  // share a direction from the centre, so no spoke runs through another node
  // and suggests a link that does not exist. Consecutive (similarly strong)
  // nodes are spread round by the stride.
  const step = (2 * Math.PI) / Math.max(1, n);
  const stride = spreadStride(n);
  const slotOf = (k: number): number => (k * stride) % Math.max(1, n);
  const ringOfSlot = (slot: number): number => slot % Math.max(1, ringCount);

  const minChord = Math.min((2 * Math.PI * radii[0]!) / Math.max(1, n), 200) * Math.max(1, ringCount);
  const rMax = Math.max(12, Math.min(34, Math.min(minChord * 0.3, radii[0]! * Math.sin(step) - 6)));
  const rMin = n > 30 ? 4 : 6;
  const vMax = kept.reduce((m, id) => Math.max(m, values.get(id)!), 1e-9);
  const radiusOf = (v: number): number => rMin + (rMax - rMin) * Math.sqrt(v / vMax);

  const nodes: LayoutNode[] = [
    {
      id: centerId,
      value: values.get(centerId)!,
      center: true,
      ring: 0,
      x: cx,
      y: cy,
      r: Math.min(50, Math.max(30, rMax * 1.4)),
    },
  ];
  kept.forEach((id, k) => {
    const slot = slotOf(k);
    const ring = ringOfSlot(slot);
    const a = -Math.PI / 2 + slot * step;
    const R = radii[ring]!;
    const value = values.get(id)!;
    nodes.push({
      id,
      value,
      center: false,
      ring: ring + 1,
      x: cx + R * Math.cos(a),
      y: cy + R * Math.sin(a),
      r: radiusOf(value),
    });
  });

  const at = new Map(nodes.map((nd) => [nd.id, nd]));
  const shownEdges = [...merged.values()].filter((e) => at.has(e.a) && at.has(e.b));
  const eMax = shownEdges.reduce((m, e) => Math.max(m, e.value), 1e-9);
  const edges: LayoutEdge[] = shownEdges
    .flatMap((e): LayoutEdge[] => {
      const p = at.get(e.a)!;
      const q = at.get(e.b)!;
      const t = Math.sqrt(e.value / eMax);
      const touchesCenter = e.a === centerId || e.b === centerId;
      // A line across another token's circle would read as a link to it: bend round, or leave the link out.
      const bend = touchesCenter ? null : clearPath(p, q, nodes);
      if (bend === undefined) return [];
      return [
        {
          source: e.a,
          target: e.b,
          value: e.value,
          x1: p.x,
          y1: p.y,
          x2: q.x,
          y2: q.y,
          // At least 1 px wide on a phone (900 px shown at 390): the thinnest link stays visible.
          width: 2.4 + 7.6 * t,
          opacity: 0.4 + 0.5 * t,
          touchesCenter,
          ...(bend ? { bend } : {}),
        },
      ];
    })
    // Heavier edges drawn last so they stay visible where lines cross.
    .sort((p, q) => p.value - q.value || compareIds(p.source, q.source) || compareIds(p.target, q.target));

  const dense = n > 24;
  const legible = legibleSize(width);
  const requests: LabelRequest[] = nodes.map((nd) => {
    const token = input.tokens[nd.id];
    const text = pickLabel([token?.symbol, token?.name], `#${nd.id}`);
    const outward = nd.center ? Math.PI / 2 : Math.atan2(nd.y - cy, nd.x - cx);
    // Never below what a phone shows legibly (theme.ts): a label that cannot fit at that size is left out.
    const size = nd.center ? legible + 8 : Math.round(legible + (dense ? 1 : 3) * Math.sqrt(nd.value / vMax));
    return {
      id: nd.id,
      text,
      circle: nd,
      outward,
      fontSize: size,
      minFontSize: legible,
      maxWidth: legible * 7,
      bold: nd.center,
    };
  });
  const order = requests
    .map((_, i) => i)
    .sort((i, j) => (i === 0 ? -1 : j === 0 ? 1 : nodes[j]!.value - nodes[i]!.value || i - j));
  const placed = placeLabels(
    order.map((i) => requests[i]!),
    nodes,
    plot,
  );
  const byId = new Map(placed.map((p) => [p.id, p]));
  const labels = nodes.map((nd) => byId.get(nd.id)!);

  return { width, height, nodes, edges, labels, plot, totalNodes };
}

/** Room kept between a link and a circle it passes, in px. */
const CLEARANCE = 6;

/** Points along the straight line (bend null) or the quadratic curve from p to q. */
export function edgePoints(
  p: { x: number; y: number },
  q: { x: number; y: number },
  bend: { x: number; y: number } | null,
  steps = 24,
): { x: number; y: number }[] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    const c = bend ?? { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
    return {
      x: (1 - t) ** 2 * p.x + 2 * (1 - t) * t * c.x + t ** 2 * q.x,
      y: (1 - t) ** 2 * p.y + 2 * (1 - t) * t * c.y + t ** 2 * q.y,
    };
  });
}

function segmentDistance(
  a: { x: number; y: number },
  b: { x: number; y: number },
  c: { x: number; y: number },
): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy || 1e-9;
  const t = Math.max(0, Math.min(1, ((c.x - a.x) * dx + (c.y - a.y) * dy) / len2));
  return Math.hypot(a.x + t * dx - c.x, a.y + t * dy - c.y);
}

/** True when the polyline keeps clear of every circle but its own two ends'. */
export function passesClear(
  points: readonly { x: number; y: number }[],
  ends: readonly LayoutNode[],
  nodes: readonly LayoutNode[],
): boolean {
  for (const nd of nodes) {
    if (ends.includes(nd)) continue;
    // The centre's glow (r + 10) counts as its circle.
    const room = nd.r + (nd.center ? 10 : 0) + CLEARANCE;
    for (let i = 1; i < points.length; i++) if (segmentDistance(points[i - 1]!, points[i]!, nd) < room) return false;
  }
  return true;
}

/** Null: straight is clear; a control point: the first bend that is; undefined: none is. */
function clearPath(
  p: LayoutNode,
  q: LayoutNode,
  nodes: readonly LayoutNode[],
): { x: number; y: number } | null | undefined {
  if (passesClear(edgePoints(p, q, null), [p, q], nodes)) return null;
  const mx = (p.x + q.x) / 2;
  const my = (p.y + q.y) / 2;
  const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  const nx = -(q.y - p.y) / len;
  const ny = (q.x - p.x) / len;
  for (const k of [0.25, -0.25, 0.5, -0.5, 0.8, -0.8]) {
    const bend = { x: mx + nx * k * len, y: my + ny * k * len };
    if (passesClear(edgePoints(p, q, bend), [p, q], nodes)) return bend;
  }
  return undefined;
}
