/**
 * Text safety helpers shared by the renderers. Upstream text (tweets, names,
 * bios) is untrusted: it may carry control characters, terminal escapes,
 * bidirectional overrides that reorder what a reader sees, mention syntax, or
 * be far longer than any platform allows.
 *
 * Lengths are counted in UTF-16 code units (`string.length`): never fewer than
 * the code points Discord and Telegram count, so a text that fits here fits there.
 */

export const ELLIPSIS = '…';

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Terminal escape sequences (CSI, OSC, and two-character ESC forms), removed whole so no payload is left behind. */
const ANSI_RE =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
/** C0/C1 controls except newline, plus DEL. Tabs are turned into spaces first. */
const CONTROL_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
/** Bidi embeddings, overrides and isolates: they can make text read differently from what it is. */
const BIDI_RE = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes untrusted text safe to show anywhere: well-formed UTF-16 (lone
 * surrogates become U+FFFD), newlines normalised to `\n`, tabs to spaces, and
 * terminal escapes, control characters and bidi overrides removed.
 */
export function clean(text: string): string {
  return text
    .toWellFormed()
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    .replace(ANSI_RE, '')
    .replace(CONTROL_RE, '')
    .replace(BIDI_RE, '');
}

/** Collapses every run of whitespace (newlines included) to one space and trims. */
export function singleLine(text: string): string {
  return text.replace(/[\s\u0085\u2028\u2029]+/g, ' ').trim();
}

/**
 * Stops Discord mention syntax from pinging: `@everyone`/`@here` get a
 * zero-width space after the `@`, and `<@id>`, `<@!id>`, `<@&id>`, `<#id>` one
 * after the `<`. Idempotent.
 */
export function neuterMentions(text: string): string {
  return text.replace(/@(?=everyone|here)/gi, '@\u200b').replace(/<(?=[@#])/g, '<\u200b');
}

/** Grapheme clusters (what a reader sees as one character). */
export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

/**
 * Shortens `text` to at most `max` UTF-16 code units including the trailing
 * "…". Cuts only between grapheme clusters (never inside a surrogate pair,
 * a combining sequence or an emoji ZWJ sequence), preferably at a space near
 * the end. Text that already fits is returned unchanged.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  const room = max - ELLIPSIS.length;
  // A boundary depends only on the text before it and the one code point after
  // it, so a prefix two code units past `room` segments like the whole text.
  const kept: string[] = [];
  let length = 0;
  let lastSpace = -1;
  let lastSpaceAt = 0;
  for (const { segment } of graphemeSegmenter.segment(text.slice(0, room + 2))) {
    if (length + segment.length > room) break;
    if (/^\s+$/.test(segment)) {
      lastSpace = kept.length;
      lastSpaceAt = length;
    }
    kept.push(segment);
    length += segment.length;
  }
  // Prefer ending at a word break if one is near the end.
  const window = Math.min(40, Math.floor(max / 4));
  if (lastSpace > 0 && lastSpaceAt >= length - window) kept.length = lastSpace;
  while (kept.length > 0 && /^\s+$/.test(kept[kept.length - 1]!)) kept.pop();
  return kept.join('') + ELLIPSIS;
}

// Emoji presentation and East Asian wide/fullwidth ranges: two terminal cells each.
const WIDE_RE =
  /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH_RE = /^[\u200b-\u200f\u2060\ufeff\p{Mn}\p{Me}]+$/u;
const TEXT_PICTOGRAPH_RE = /^[\u0000-\u00ff\u2000-\u2bff]$/u;

/** Columns a grapheme takes in a monospace font (0, 1 or 2); an estimate, fonts differ. */
export function graphemeWidth(g: string): number {
  if (ZERO_WIDTH_RE.test(g)) return 0;
  if (!WIDE_RE.test(g)) return 1;
  // Symbols like © or ↔ are pictographs but usually drawn narrow unless followed by VS16.
  if (TEXT_PICTOGRAPH_RE.test(g)) return 1;
  return 2;
}

/** Columns a text takes in a monospace font. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const { segment } of graphemeSegmenter.segment(text)) w += graphemeWidth(segment);
  return w;
}

/** Shortens `text` to at most `width` columns, ending with "…" when cut, at grapheme boundaries. */
export function cutWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width < 1) return '';
  let out = '';
  let used = 0;
  for (const { segment } of graphemeSegmenter.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + ELLIPSIS;
}

/** Pads to `width` columns on the right (left-aligned) or left (right-aligned). */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}
