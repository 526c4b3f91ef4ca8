/** The token mindmap (operation 1) as text: the strongest links around a token. */
import type { MindmapGraph, TokenSummary } from '../../api/index.ts';
import type { Span } from '../../domain/view.ts';
import { ticker } from './common.ts';
import { fmt, type T } from './lang.ts';

export interface MindmapLink {
  readonly source: string;
  readonly target: string;
  readonly weight: number;
}

/** Edges by weight, heaviest first (a stable sort keeps the API's order on ties). */
function mindmapLinks(graph: MindmapGraph): MindmapLink[] {
  return graph.edges
    .map((e) => ({ source: e.source, target: e.target, weight: e.value }))
    .sort((x, y) => y.weight - x.weight);
}

function tokenSpans(t: TokenSummary | undefined, id: string, tr: T): Span[] {
  return t ? [{ b: ticker(t.symbol, t.name) }, ` ${t.name} (${t.chain_id})`] : [tr('mindmap.tokenId', { id })];
}

export function mindmapText(
  graph: MindmapGraph,
  centre: TokenSummary | undefined,
  hours: number,
  max: number,
  t: T,
): Span[] {
  const { int } = fmt(t);
  const name = centre ? ticker(centre.symbol, centre.name) : t('mindmap.thisToken');
  const node = centre ? graph.nodes.find((n) => n.id === centre.id) : undefined;
  const out: Span[] = [
    { b: t('mindmap.title', { name }) },
    ` · ${t('mindmap.last', { hours })}${node ? ` · ${t('mindmap.nodeValue', { value: int(node.value) })}` : ''}\n`,
  ];
  const links = mindmapLinks(graph).slice(0, max);
  if (links.length === 0) {
    out.push(t('mindmap.none', { name }));
    return out;
  }
  out.push(t('mindmap.linked', { name }));
  links.forEach((l, i) => {
    out.push(`\n${i + 1}. `);
    // An edge from the centre names only the other end; any other edge names both.
    const ends = l.source === centre?.id ? [l.target] : l.target === centre?.id ? [l.source] : [l.source, l.target];
    ends.forEach((id, j) => {
      out.push(...(j ? [' ↔ '] : []), ...tokenSpans(graph.tokens[id], id, t));
    });
    out.push(` — ${t('mindmap.weight', { value: int(l.weight) })}`);
  });
  return out;
}
