/**
 * TrueType glyph outlines as SVG path data, in font units (y up).
 *
 * resvg-js re-opens and re-reads the font file for every glyph it draws (about
 * 0.1 ms per character with this font), which made text most of a chart's
 * render time. Drawing glyphs as paths ourselves takes that to near zero and
 * makes the painted text match our own width measurements exactly.
 */
import type { Face } from './font.ts';

interface Point {
  x: number;
  y: number;
  on: boolean;
}

const MAX_COMPOSITE_DEPTH = 8;

function glyphRange(f: Face, glyph: number): [number, number] | null {
  const head = f.tables.get('head')!;
  const loca = f.tables.get('loca');
  const glyf = f.tables.get('glyf');
  if (loca === undefined || glyf === undefined) return null;
  const long = f.buf.readInt16BE(head + 50) === 1;
  const at = (i: number): number => (long ? f.buf.readUInt32BE(loca + i * 4) : f.buf.readUInt16BE(loca + i * 2) * 2);
  const numGlyphs = f.buf.readUInt16BE(f.tables.get('maxp')! + 4);
  if (glyph < 0 || glyph >= numGlyphs) return null;
  const start = at(glyph);
  const end = at(glyph + 1);
  return end > start ? [glyf + start, glyf + end] : null;
}

function simpleContours(buf: Buffer, at: number, contours: number): Point[][] {
  const ends: number[] = [];
  for (let i = 0; i < contours; i++) ends.push(buf.readUInt16BE(at + 10 + i * 2));
  const count = (ends[ends.length - 1] ?? -1) + 1;
  let p = at + 10 + contours * 2;
  p += 2 + buf.readUInt16BE(p);
  const flags: number[] = [];
  while (flags.length < count) {
    const flag = buf[p++]!;
    flags.push(flag);
    if (flag & 8) for (let r = buf[p++]!; r > 0; r--) flags.push(flag);
  }
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [out, short, same] of [
    [xs, 2, 16],
    [ys, 4, 32],
  ] as const) {
    let v = 0;
    for (let i = 0; i < count; i++) {
      const flag = flags[i]!;
      if (flag & short) v += flag & same ? buf[p++]! : -buf[p++]!;
      else if (!(flag & same)) {
        v += buf.readInt16BE(p);
        p += 2;
      }
      out.push(v);
    }
  }
  const result: Point[][] = [];
  let first = 0;
  for (const end of ends) {
    const contour: Point[] = [];
    for (let i = first; i <= end; i++) contour.push({ x: xs[i]!, y: ys[i]!, on: (flags[i]! & 1) === 1 });
    result.push(contour);
    first = end + 1;
  }
  return result;
}

function contoursOf(f: Face, glyph: number, depth = 0): Point[][] {
  const range = glyphRange(f, glyph);
  if (!range || depth > MAX_COMPOSITE_DEPTH) return [];
  const buf = f.buf;
  const [at] = range;
  const n = buf.readInt16BE(at);
  if (n >= 0) return simpleContours(buf, at, n);

  const out: Point[][] = [];
  let p = at + 10;
  for (let more = true; more; ) {
    const flags = buf.readUInt16BE(p);
    const component = buf.readUInt16BE(p + 2);
    p += 4;
    let dx: number;
    let dy: number;
    if (flags & 1) {
      dx = buf.readInt16BE(p);
      dy = buf.readInt16BE(p + 2);
      p += 4;
    } else {
      dx = buf.readInt8(p);
      dy = buf.readInt8(p + 1);
      p += 2;
    }
    // Point-matched placement (args are point numbers) is rare; place at the origin.
    if (!(flags & 2)) dx = dy = 0;
    let [a, b, c, d] = [1, 0, 0, 1];
    const f2 = (o: number): number => buf.readInt16BE(o) / 16384;
    if (flags & 8) {
      a = d = f2(p);
      p += 2;
    } else if (flags & 0x40) {
      a = f2(p);
      d = f2(p + 2);
      p += 4;
    } else if (flags & 0x80) {
      [a, b, c, d] = [f2(p), f2(p + 2), f2(p + 4), f2(p + 6)];
      p += 8;
    }
    for (const contour of contoursOf(f, component, depth + 1)) {
      out.push(contour.map((pt) => ({ x: a * pt.x + c * pt.y + dx, y: b * pt.x + d * pt.y + dy, on: pt.on })));
    }
    more = (flags & 0x20) !== 0;
  }
  return out;
}

const r1 = (v: number): number => Math.round(v * 10) / 10;
const n1 = (v: number): string => {
  const r = r1(v);
  return Object.is(r, -0) ? '0' : String(r);
};

/** A glyph's path with only its first point absolute, so it can be placed anywhere cheaply. */
interface GlyphPath {
  readonly x0: number;
  readonly y0: number;
  /** Relative commands after the initial moveto (empty glyph: ''). */
  readonly rest: string;
  readonly empty: boolean;
}

/**
 * Converts contours to relative path data. Quadratic segments as in the font;
 * implied on-curve midpoints made explicit. Deltas are taken between rounded
 * absolute points, so rounding never accumulates along a contour.
 */
function toGlyphPath(contours: readonly (readonly Point[])[]): GlyphPath {
  let d = '';
  let x0 = 0;
  let y0 = 0;
  let cx = 0;
  let cy = 0;
  let first = true;
  // Every point of a relative command (a quadratic's control point too) is relative to the current point.
  const rel = (cmd: string, ...pts: Point[]): void => {
    d += cmd + pts.map((p) => `${n1(r1(p.x) - cx)} ${n1(r1(p.y) - cy)}`).join(' ');
    const last = pts[pts.length - 1]!;
    cx = r1(last.x);
    cy = r1(last.y);
  };
  const mid = (p: Point, q: Point): Point => ({ x: (p.x + q.x) / 2, y: (p.y + q.y) / 2, on: true });
  for (const contour of contours) {
    const n = contour.length;
    if (n === 0) continue;
    const firstPt = contour[0]!;
    const lastPt = contour[n - 1]!;
    let start: Point;
    let order: Point[];
    if (firstPt.on) {
      start = firstPt;
      order = contour.slice(1);
    } else if (lastPt.on) {
      start = lastPt;
      order = contour.slice(0, n - 1);
    } else {
      start = mid(lastPt, firstPt);
      order = contour.slice();
    }
    if (first) {
      x0 = r1(start.x);
      y0 = r1(start.y);
      cx = x0;
      cy = y0;
      first = false;
    } else rel('m', start);
    let ctrl: Point | null = null;
    for (const p of [...order, start]) {
      if (p.on) {
        if (ctrl) rel('q', ctrl, p);
        else rel('l', p);
        ctrl = null;
      } else {
        if (ctrl) rel('q', ctrl, mid(ctrl, p));
        ctrl = p;
      }
    }
    d += 'z';
    // After closing, the current point is back at the subpath start.
    cx = r1(start.x);
    cy = r1(start.y);
  }
  return { x0, y0, rest: d, empty: first };
}

const cache = new WeakMap<Face, Map<number, GlyphPath>>();

/** Path data for a glyph drawn with its origin at x font units; '' for blank glyphs (space). */
export function glyphPath(f: Face, glyph: number, x: number): string {
  let perFace = cache.get(f);
  if (!perFace) {
    perFace = new Map();
    cache.set(f, perFace);
  }
  let g = perFace.get(glyph);
  if (!g) {
    g = toGlyphPath(contoursOf(f, glyph));
    perFace.set(glyph, g);
  }
  return g.empty ? '' : `M${n1(g.x0 + x)} ${n1(g.y0)}${g.rest}`;
}
