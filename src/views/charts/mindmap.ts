/** The token graph picture, drawn from `mindmapLayout`. */
import { mindmapLayout } from './mindmapLayout.ts';
import type { MindmapInput, MindmapLayout, MindmapOptions } from './mindmapLayout.ts';
import type { ChartWords } from './words.ts';
import { circle, header, line, svgDocument, textEl } from './svg.ts';
import { escapeXml, pickLabel, svgText } from './text.ts';
import { legibleSize, THEME } from './theme.ts';
import { fill } from './words.ts';
import { px } from './format.ts';

export function mindmapSvg(input: MindmapInput, opts: MindmapOptions = {}): string {
  const layout = mindmapLayout(input, opts);
  const { width, height, nodes, edges, labels } = layout;
  const centre = nodes[0]!;
  const centreToken = input.tokens[centre.id];
  const centreLabel = pickLabel([centreToken?.symbol, centreToken?.name], `#${centre.id}`);
  const title = input.title ?? `${centreLabel} token map`;
  const shown = nodes.length;
  const w = input.words;
  const subtitle = w
    ? fill(w.linked, { n: shown - 1 }, w.locale) +
      (layout.totalNodes > shown ? fill(w.strongest, { n: shown - 1, m: layout.totalNodes - 1 }) : '')
    : `${shown - 1} linked token${shown === 2 ? '' : 's'}` +
      (layout.totalNodes > shown ? ` (strongest ${shown - 1} of ${layout.totalNodes - 1})` : '');

  // One title line and two of subtitle: the layout keeps MINDMAP_HEADER px for them.
  const body: string[] = header(width, title, subtitle, 2, 1).body;

  for (const e of edges) {
    const colour = e.touchesCenter ? THEME.accent : THEME.edge;
    const style = `stroke-opacity="${e.opacity.toFixed(2)}" stroke-linecap="round"`;
    body.push(
      e.bend
        ? `<path d="M${px(e.x1)} ${px(e.y1)}Q${px(e.bend.x)} ${px(e.bend.y)} ${px(e.x2)} ${px(e.y2)}" fill="none" stroke="${colour}" stroke-width="${px(e.width)}" ${style}/>`
        : line(e.x1, e.y1, e.x2, e.y2, colour, e.width, style),
    );
  }

  // Centre glow first so the ring of other nodes sits above it.
  body.push(circle(centre.x, centre.y, centre.r + 10, THEME.accent, 'fill-opacity="0.18"'));
  for (const nd of nodes.slice(1).sort((p, q) => q.r - p.r)) {
    body.push(circle(nd.x, nd.y, nd.r, THEME.node, `stroke="${THEME.nodeStroke}" stroke-width="1.5"`));
  }
  body.push(circle(centre.x, centre.y, centre.r, THEME.accent, `stroke="#fff3d6" stroke-width="3"`));

  const byId = new Map(nodes.map((nd) => [nd.id, nd]));
  for (const lb of labels) {
    if (!lb.visible) continue;
    const isCentre = lb.id === centre.id;
    const node = byId.get(lb.id)!;
    // A label inside its own circle needs no halo; the fill already gives contrast.
    const onNode =
      Math.abs(lb.x + lb.width / 2 - node.x) < 1 && lb.y >= node.y - node.r && lb.y + lb.height <= node.y + node.r;
    body.push(
      textEl(lb.x + lb.width / 2, lb.baseline, escapeXml(lb.text), {
        size: lb.fontSize,
        anchor: 'middle',
        bold: lb.bold,
        fill: onNode && isCentre ? '#1b1300' : isCentre ? THEME.accent : THEME.text,
        halo: !onNode,
      }),
    );
  }

  if (nodes.length === 1) {
    body.push(
      textEl(width / 2, centre.y + centre.r + 60, escapeXml('No linked tokens yet'), {
        size: legibleSize(width),
        anchor: 'middle',
        fill: THEME.muted,
      }),
    );
  }
  body.push(...mapKey(layout, w));
  return svgDocument(width, height, body);
}

/**
 * The key under the map: a small and a large circle with the values they
 * stand for, a thin and a thick line with theirs. The API does not say what a
 * node's or a link's value counts, so the key names them as weight and
 * strength and gives their range; the reader sees what a size is worth.
 */
function mapKey(layout: MindmapLayout, w: ChartWords | undefined): string[] {
  const others = layout.nodes.filter((n) => !n.center);
  if (others.length === 0) return [];
  const size = legibleSize(layout.width);
  const number = new Intl.NumberFormat(w?.locale ?? 'en', { maximumFractionDigits: 0 });
  const range = (vs: number[]) => ({ min: number.format(Math.min(...vs)), max: number.format(Math.max(...vs)) });
  const small = others.reduce((a, b) => (b.value < a.value ? b : a));
  const large = others.reduce((a, b) => (b.value > a.value ? b : a));
  const c1 = layout.plot.y + layout.plot.height + 12 + large.r;
  const c2 = c1 + large.r + 28;
  const y1 = c1 + size * 0.35;
  const y2 = c2 + size * 0.35;
  const textX = 28 + 2 * large.r + 24;
  const room = layout.width - textX - 28;
  const out = [
    circle(28 + small.r, c1, small.r, THEME.node, `stroke="${THEME.nodeStroke}" stroke-width="1.5"`),
    circle(28 + 2 * small.r + 6 + large.r, c1, large.r, THEME.node, `stroke="${THEME.nodeStroke}" stroke-width="1.5"`),
  ];
  const sizeKey = fill(w?.sizeKey ?? 'circle size: token weight, {min} to {max}', range(others.map((n) => n.value)));
  out.push(textEl(textX + small.r * 2, y1, svgText(sizeKey, room - small.r * 2, size), { size, fill: THEME.muted }));
  if (layout.edges.length > 0) {
    const thin = layout.edges.reduce((a, b) => (b.value < a.value ? b : a));
    const thick = layout.edges.reduce((a, b) => (b.value > a.value ? b : a));
    const mid = c2;
    out.push(
      line(
        28,
        mid - 8,
        textX - 12,
        mid - 8,
        THEME.accent,
        thin.width,
        `stroke-opacity="${thin.opacity.toFixed(2)}" stroke-linecap="round"`,
      ),
      line(
        28,
        mid + 8,
        textX - 12,
        mid + 8,
        THEME.accent,
        thick.width,
        `stroke-opacity="${thick.opacity.toFixed(2)}" stroke-linecap="round"`,
      ),
    );
    const linkKey = fill(
      w?.linkKey ?? 'line width: link strength, {min} to {max}',
      range(layout.edges.map((e) => e.value)),
    );
    out.push(textEl(textX + small.r * 2, y2, svgText(linkKey, room - small.r * 2, size), { size, fill: THEME.muted }));
  }
  return out;
}
