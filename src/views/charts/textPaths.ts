/**
 * Replaces the simple <text> elements our charts emit with glyph outlines
 * (see outline.ts for why). Anything unusual (nested tspans, attributes we do
 * not model) is left as <text> for resvg to draw with the same font files.
 *
 * The fast path places one glyph after another, left to right, with no
 * shaping and no kerning: right for Latin, Cyrillic, Greek, Vietnamese and
 * CJK, wrong for right-to-left and joining scripts (an Arabic name would come
 * out reversed, its letters unjoined). Text with such characters goes to
 * resvg's own text layout, which runs the bidirectional algorithm and shapes
 * with rustybuzz (a HarfBuzz port) using the same DejaVu Sans files: DejaVu
 * covers Arabic and Hebrew, so no font is added. Slower per glyph, and rare.
 */
import { glyphFor, type Face } from './font.ts';
import { glyphPath } from './outline.ts';

const HANDLED = new Set([
  'x',
  'y',
  'font-size',
  'font-weight',
  'font-family',
  'text-anchor',
  'fill',
  'fill-opacity',
  'opacity',
  'stroke',
  'stroke-width',
  'stroke-linejoin',
  'stroke-opacity',
  'paint-order',
]);
const PASSED_ON = ['fill', 'fill-opacity', 'opacity', 'stroke', 'stroke-linejoin', 'stroke-opacity', 'paint-order'];

/**
 * Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
 * Mandaic and their presentation forms), explicit right-to-left marks and
 * embeddings, and the Indic and Thai scripts that reorder or stack: left to resvg.
 */
const COMPLEX_SCRIPT = /[\u0590-\u08FF\u0900-\u0DFF\u0E00-\u0E7F\u200F\u202B\u202E\u2067\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(ENTITY, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name]!;
    const cp = hex ? parseInt(hex, 16) : Number(dec);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
  });
}

const n2 = (v: number): string => String(Math.round(v * 100) / 100);

function toPath(attrText: string, content: string): string | null {
  const attrs = new Map<string, string>();
  for (const m of attrText.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)) attrs.set(m[1]!, m[2]!);
  for (const name of attrs.keys()) if (!HANDLED.has(name)) return null;
  const x = Number(attrs.get('x') ?? '0');
  const y = Number(attrs.get('y') ?? '0');
  // Without its own font-size the text inherits one we cannot see here: leave it to resvg.
  if (!attrs.has('font-size')) return null;
  const size = Number(attrs.get('font-size'));
  if (!Number.isFinite(x) || !Number.isFinite(y) || !(size > 0)) return null;
  const weight = attrs.get('font-weight');
  const bold = weight === 'bold' || Number(weight) >= 600;
  const text = decodeEntities(content);
  if (COMPLEX_SCRIPT.test(text)) return null;

  // Consecutive characters from one face form a run, drawn in that face's units and scale.
  const runs: { face: Face; d: string; pen: number }[] = [];
  for (const ch of text) {
    const { face, glyph } = glyphFor(ch.codePointAt(0)!, bold);
    let run = runs[runs.length - 1];
    if (run?.face !== face) {
      run = { face, d: '', pen: 0 };
      runs.push(run);
    }
    run.d += glyphPath(face, glyph, run.pen);
    run.pen += face.advanceOf(glyph);
  }
  const widths = runs.map((r) => r.pen * (size / r.face.unitsPerEm));
  const total = widths.reduce((a, b) => a + b, 0);
  const anchor = attrs.get('text-anchor');
  let left = x - (anchor === 'middle' ? total / 2 : anchor === 'end' ? total : 0);

  let out = '';
  runs.forEach((r, i) => {
    const k = size / r.face.unitsPerEm;
    if (r.d !== '') {
      const parts = [`transform="translate(${n2(left)} ${n2(y)}) scale(${k} ${-k})"`, `d="${r.d}"`];
      for (const name of PASSED_ON) if (attrs.has(name)) parts.push(`${name}="${attrs.get(name)}"`);
      // The stroke width is in px; the path's coordinates are in font units.
      if (attrs.has('stroke-width')) parts.push(`stroke-width="${n2(Number(attrs.get('stroke-width')) / k)}"`);
      out += `<path ${parts.join(' ')}/>`;
    }
    left += widths[i]!;
  });
  return out;
}

/** The SVG with every plain <text> element drawn as glyph paths instead. */
export function textToPaths(svg: string): string {
  return svg.replace(
    /<text\b([^>]*)>([^<]*)<\/text>/g,
    (whole, attrText: string, content: string) => toPath(attrText, content) ?? whole,
  );
}
