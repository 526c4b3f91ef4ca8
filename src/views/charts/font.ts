/**
 * The fonts every chart is drawn with, shipped as package dependencies so a
 * PNG looks the same on every host (no system fonts are ever loaded).
 *
 * Layout needs text widths before resvg runs (label collision, ellipsis), so the
 * advance widths and the character map are read from the same TTF files resvg
 * uses: the measured boxes then match what gets painted.
 *
 * DejaVu Sans draws Latin (Vietnamese too), Greek and Cyrillic. Chinese, kana
 * and Hangul come from fallback faces, chosen per character in measuring as in
 * drawing (`glyphFor`), each scaled by its own units per em (Noto 1000, DejaVu
 * 2048). Full Noto Sans SC (Han + kana) and KR (Hangul) regular, not subsets:
 * a subset brings the box back for rarer characters, and token names are
 * anything. They are read only when a character of those scripts first
 * appears, so English charts never pay for them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const FONT_FAMILY = 'DejaVu Sans';

const require = createRequire(import.meta.url);

/** Absolute paths of the TTF files handed to resvg (regular, bold). */
export const FONT_FILES: readonly string[] = [
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
];

/**
 * Tried in order for East Asian characters DejaVu lacks; regular weight only
 * (bold labels in these scripts are drawn regular). Outlines are drawn by our
 * own code (outline.ts), so resvg never loads these files.
 */
export const FALLBACK_FILES: readonly string[] = [
  require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
  require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
];

// Only these scripts look past DejaVu, so an emoji in an English name never loads 16 MB of fonts.
// Script_Extensions, so shared marks count too (ー U+30FC is "Common" by Script, Hiragana/Katakana by extension).
const FALLBACK_SCRIPTS =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}\u3000-\u303F\u3200-\u33FF\uFE30-\uFE4F\uFF00-\uFFEF]/u;

/** One parsed font file: what layout and glyph drawing need. */
export interface Face {
  readonly buf: Buffer;
  readonly tables: ReadonlyMap<string, number>;
  readonly unitsPerEm: number;
  readonly ascent: number;
  readonly descent: number;
  glyphOf(cp: number): number;
  advanceOf(glyph: number): number;
}

function tableOffsets(buf: Buffer): Map<string, number> {
  const count = buf.readUInt16BE(4);
  const tables = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const rec = 12 + i * 16;
    tables.set(buf.toString('latin1', rec, rec + 4), buf.readUInt32BE(rec + 8));
  }
  return tables;
}

type Segment = readonly [start: number, end: number, map: (cp: number) => number];

/** Reads a format 4 or 12 subtable into sorted code point segments. */
function readCmap(buf: Buffer, cmap: number): Segment[] {
  const n = buf.readUInt16BE(cmap + 2);
  let best = -1;
  let bestRank = 0;
  for (let i = 0; i < n; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = buf.readUInt16BE(rec);
    const encoding = buf.readUInt16BE(rec + 2);
    const sub = cmap + buf.readUInt32BE(rec + 4);
    const format = buf.readUInt16BE(sub);
    const rank =
      format === 12
        ? 3
        : format === 4 && (platform === 3 || platform === 0)
          ? encoding === 1 || platform === 0
            ? 2
            : 1
          : 0;
    if (rank > bestRank) {
      bestRank = rank;
      best = sub;
    }
  }
  if (best < 0) return [];
  const segments: Segment[] = [];
  if (buf.readUInt16BE(best) === 12) {
    const groups = buf.readUInt32BE(best + 12);
    for (let i = 0; i < groups; i++) {
      const g = best + 16 + i * 12;
      const start = buf.readUInt32BE(g);
      const glyph = buf.readUInt32BE(g + 8);
      segments.push([start, buf.readUInt32BE(g + 4), (cp) => glyph + cp - start]);
    }
    return segments;
  }
  const segCount = buf.readUInt16BE(best + 6) / 2;
  const ends = best + 14;
  const starts = ends + segCount * 2 + 2;
  const deltas = starts + segCount * 2;
  const ranges = deltas + segCount * 2;
  for (let i = 0; i < segCount; i++) {
    const end = buf.readUInt16BE(ends + i * 2);
    const start = buf.readUInt16BE(starts + i * 2);
    const delta = buf.readInt16BE(deltas + i * 2);
    const rangeAt = ranges + i * 2;
    const range = buf.readUInt16BE(rangeAt);
    if (start === 0xffff) continue;
    segments.push([
      start,
      end,
      range === 0
        ? (cp) => (cp + delta) & 0xffff
        : (cp) => {
            const g = buf.readUInt16BE(rangeAt + range + (cp - start) * 2);
            return g === 0 ? 0 : (g + delta) & 0xffff;
          },
    ]);
  }
  return segments;
}

function parseFont(buf: Buffer): Face {
  const t = tableOffsets(buf);
  const head = t.get('head');
  const hhea = t.get('hhea');
  const hmtx = t.get('hmtx');
  const cmap = t.get('cmap');
  if (head === undefined || hhea === undefined || hmtx === undefined || cmap === undefined) {
    throw new Error('chart font is missing a required table');
  }
  const numberOfHMetrics = buf.readUInt16BE(hhea + 34);
  const segments = readCmap(buf, cmap);
  return {
    buf,
    tables: t,
    unitsPerEm: buf.readUInt16BE(head + 18),
    ascent: buf.readInt16BE(hhea + 4),
    descent: -buf.readInt16BE(hhea + 6),
    glyphOf(cp) {
      let lo = 0;
      let hi = segments.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const seg = segments[mid]!;
        if (cp < seg[0]) hi = mid - 1;
        else if (cp > seg[1]) lo = mid + 1;
        else return seg[2](cp);
      }
      return 0;
    },
    advanceOf(glyph) {
      const i = Math.min(glyph, numberOfHMetrics - 1);
      return buf.readUInt16BE(hmtx + i * 4);
    },
  };
}

let loaded: { regular: Face; bold: Face } | undefined;
/** Parsed fallback faces, by index in FALLBACK_FILES; read on first need. */
const fallbacks: (Face | undefined)[] = [];
let fallbacksOn = true;
const widthCache = new Map<number, number>();
const glyphCache = new Map<number, Glyph>();

function fonts(): { regular: Face; bold: Face } {
  loaded ??= {
    regular: parseFont(readFileSync(FONT_FILES[0]!)),
    bold: parseFont(readFileSync(FONT_FILES[1]!)),
  };
  return loaded;
}

function fallback(i: number): Face {
  const face = fallbacks[i] ?? parseFont(readFileSync(FALLBACK_FILES[i]!));
  fallbacks[i] = face;
  return face;
}

/** The parsed regular or bold face (read once, on first use). */
export function face(bold: boolean): Face {
  return bold ? fonts().bold : fonts().regular;
}

/** A glyph and the face it comes from. */
export interface Glyph {
  readonly face: Face;
  readonly glyph: number;
}

/** The face that draws a code point: DejaVu, else the first fallback that has it, else DejaVu's box (glyph 0). */
export function glyphFor(cp: number, bold: boolean): Glyph {
  const key = bold ? -cp - 1 : cp;
  let g = glyphCache.get(key);
  if (g) return g;
  const primary = face(bold);
  const own = primary.glyphOf(cp);
  g = { face: primary, glyph: own };
  if (own === 0 && fallbacksOn && FALLBACK_SCRIPTS.test(String.fromCodePoint(cp))) {
    for (let i = 0; i < FALLBACK_FILES.length; i++) {
      const f = fallback(i);
      const glyph = f.glyphOf(cp);
      if (glyph !== 0) {
        g = { face: f, glyph };
        break;
      }
    }
  }
  glyphCache.set(key, g);
  return g;
}

/**
 * Test hook: without fallbacks, East Asian text draws as boxes again (as it
 * did before them), for comparing the two renders.
 */
export function setFallbackFaces(on: boolean): void {
  fallbacksOn = on;
  glyphCache.clear();
  widthCache.clear();
}

/** True when a shipped font has a glyph for the code point (else a box is painted). */
export function hasGlyph(cp: number): boolean {
  return glyphFor(cp, false).glyph !== 0;
}

/** Advance width in em of one code point, in the face that draws it; a missing glyph measures as the box. */
function advanceEm(cp: number, bold: boolean): number {
  const key = bold ? -cp - 1 : cp;
  let w = widthCache.get(key);
  if (w === undefined) {
    const { face: f, glyph } = glyphFor(cp, bold);
    w = f.advanceOf(glyph) / f.unitsPerEm;
    widthCache.set(key, w);
  }
  return w;
}

/** Width in px of a single-line text at the given size (kerning ignored: a slight overestimate). */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const ch of text) em += advanceEm(ch.codePointAt(0)!, bold);
  return em * fontSize;
}

/** Ascent and descent in px: the vertical extent of a line of text. */
export function lineMetrics(fontSize: number): { ascent: number; descent: number; height: number } {
  const m = fonts().regular;
  const ascent = (m.ascent / m.unitsPerEm) * fontSize;
  const descent = (m.descent / m.unitsPerEm) * fontSize;
  return { ascent, descent, height: ascent + descent };
}
