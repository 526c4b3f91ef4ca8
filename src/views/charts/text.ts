/**
 * Untrusted text (token symbols, names, KOL handles) on its way into SVG:
 * cleaned so it can never break the XML, measured with the shipped font, and
 * cut with an ellipsis so it stays inside the space the layout gave it.
 */
import { hasGlyph, textWidth } from './font.ts';

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes the five XML special characters, for text nodes and attribute values alike. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

// Code points XML 1.0 forbids (a parser would reject the whole image), bidi
// overrides that could reorder neighbouring labels, and invisible formatters.
const UNSAFE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFFE\uFFFF]/gu;

/** Makes any string safe to embed: well-formed, no control characters, single-line. */
export function cleanText(raw: string): string {
  return String(raw).toWellFormed().normalize('NFC').replace(UNSAFE, '').replace(/\s+/gu, ' ').trim();
}

// Emoji the font lacks are dropped instead of painted as boxes: "🐸PEPE" reads
// as "PEPE". Joiners, variation selectors, skin tones, keycaps and tag
// characters only make sense next to such emoji.
const EMOJI_PART =
  /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u200D\uFE0E\uFE0F\u20E3\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;

/** Cleans text and drops emoji the shipped font cannot draw; other missing glyphs are kept. */
export function drawableText(raw: string): string {
  let out = '';
  for (const ch of cleanText(raw)) {
    if (EMOJI_PART.test(ch) && !hasGlyph(ch.codePointAt(0)!)) continue;
    out += ch;
  }
  return out.replace(/\s+/gu, ' ').trim();
}

/** True when every character has a glyph in the shipped font. */
function fullyDrawable(text: string): boolean {
  for (const ch of text) {
    if (ch !== ' ' && !hasGlyph(ch.codePointAt(0)!)) return false;
  }
  return true;
}

/**
 * The first candidate that draws completely (e.g. symbol, then name), else the
 * first non-empty one (its missing glyphs show as boxes), else the fallback.
 */
export function pickLabel(candidates: readonly (string | null | undefined)[], fallback: string): string {
  const cleaned = candidates.map((c) => drawableText(c ?? '')).filter((c) => c !== '');
  return cleaned.find(fullyDrawable) ?? cleaned[0] ?? fallback;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const ELLIPSIS = '…';

/**
 * Cuts text to fit maxWidth px, at grapheme boundaries so no emoji or accent
 * is split, ending with an ellipsis when anything was cut.
 */
export function fitText(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const room = maxWidth - textWidth(ELLIPSIS, fontSize, bold);
  let out = '';
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = textWidth(segment, fontSize, bold);
    if (width + w > room) break;
    out += segment;
    width += w;
  }
  return out.trimEnd() + ELLIPSIS;
}

/** Cleans, cuts and escapes in one go: ready to sit inside a <text> element. */
export function svgText(raw: string, maxWidth: number, fontSize: number, bold = false): string {
  return escapeXml(fitText(drawableText(raw), maxWidth, fontSize, bold));
}

const words = new Intl.Segmenter('en', { granularity: 'word' });

/**
 * Cleans and breaks text into at most maxLines lines of maxWidth px, at word
 * boundaries (any script); what does not fit ends the last line with an ellipsis.
 * Lines come back unescaped.
 */
export function wrapText(raw: string, maxWidth: number, fontSize: number, maxLines: number, bold = false): string[] {
  const lines: string[] = [];
  let current = '';
  for (const { segment } of words.segment(drawableText(raw))) {
    const next = current + segment;
    // On the last line everything left is kept, to be cut with an ellipsis below.
    if (current === '' || lines.length === maxLines - 1 || textWidth(next.trimEnd(), fontSize, bold) <= maxWidth) {
      current = next;
      continue;
    }
    lines.push(current.trimEnd());
    current = segment.trimStart();
  }
  if (current.trim() !== '') lines.push(current.trim());
  return lines.map((l) => fitText(l, maxWidth, fontSize, bold));
}
