/** Helpers to read back what an SVG string shows, for tests. */

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The text of every <text> element, entities decoded: what the picture spells out. */
export function textContents(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1]!.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!),
  );
}

/** Anything that would make a renderer reach outside the document. */
export function externalReferences(svg: string): string[] {
  const found: string[] = [];
  for (const m of svg.matchAll(/(?:xlink:)?href\s*=\s*["']([^"']*)["']/g)) if (!m[1]!.startsWith('#')) found.push(m[0]);
  for (const m of svg.matchAll(/url\(\s*['"]?([^)'"]*)/g)) if (!m[1]!.startsWith('#')) found.push(m[0]);
  for (const m of svg.matchAll(/@import|<image\b|<foreignObject\b|<script\b/gi)) found.push(m[0]);
  // Text content may legitimately spell a URL; only markup can make a renderer fetch one.
  const markup = svg.replace(/>[^<]*</g, '><').replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, '');
  for (const m of markup.matchAll(/(?:https?|ftp|file|data):/gi)) found.push(m[0]);
  return found;
}

/** All numbers in the geometry attributes (x, y, cx, cy, x1.., d), to check nothing lands off-canvas. */
export function coordinates(svg: string, attr: 'x' | 'y'): number[] {
  const names = attr === 'x' ? ['x', 'cx', 'x1', 'x2'] : ['y', 'cy', 'y1', 'y2'];
  const out: number[] = [];
  for (const m of svg.matchAll(/\s([a-z0-9]+)="(-?[\d.]+)"/g)) if (names.includes(m[1]!)) out.push(Number(m[2]));
  for (const m of svg.matchAll(/\sd="([^"]*)"/g)) {
    for (const p of m[1]!.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)) out.push(Number(attr === 'x' ? p[1] : p[2]));
  }
  return out;
}
