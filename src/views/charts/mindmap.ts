/** The token graph picture, drawn from `mindmapLayout`. */
import { mindmapLayout } from './mindmapLayout.ts';
import type { MindmapInput, MindmapOptions } from './mindmapLayout.ts';
import { circle, header, line, svgDocument, textEl } from './svg.ts';
import { escapeXml, pickLabel } from './text.ts';
import { legibleSize, THEME } from './theme.ts';
import { fill } from './words.ts';

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
      (layout.totalNodes > shown ? fill(w.strongest, { n: shown - 1, m: layout.totalNodes - 1 }) : '') +
      w.legend
    : `${shown - 1} linked token${shown === 2 ? '' : 's'}` +
      (layout.totalNodes > shown ? ` (strongest ${shown - 1} of ${layout.totalNodes - 1})` : '') +
      ' · circle size = value · line width = link strength';

  // One title line and two of subtitle: the layout keeps MINDMAP_HEADER px for them.
  const body: string[] = header(width, title, subtitle, 2, 1).body;

  for (const e of edges) {
    const colour = e.touchesCenter ? THEME.accent : THEME.edge;
    body.push(
      line(e.x1, e.y1, e.x2, e.y2, colour, e.width, `stroke-opacity="${e.opacity.toFixed(2)}" stroke-linecap="round"`),
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
  return svgDocument(width, height, body);
}
