/**
 * Finds English left in an answer meant for another language: the prose a
 * user reads (titles, text, fields, labels, errors), without what is never
 * translated (code spans, examples, links, URLs, button ids). Words are
 * English function words that no other of our languages writes in Latin
 * letters, so brand words (KOL, shill, market cap, win rate) do not count.
 */
import type { View } from '../../src/domain/view.ts';

// Letter boundaries by Unicode: 'and' in Turkish 'andığı' is no English word.
export const ENGLISH_WORDS =
  /(?<!\p{L})(the|and|with|this|that|your|you|are|from|for|of|to|is|was|has|have|there|here|only|can|cannot|please|try|again|not|one)(?!\p{L})/giu;
const SKIP = new Set([
  'code',
  'example',
  'url',
  'id',
  'command',
  'options',
  'link',
  'thumbnailUrl',
  'png',
  'name_',
  'key',
]);

/** The prose of a view, one string per piece. */
export function prose(view: View): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (v instanceof Uint8Array) return;
      for (const [k, x] of Object.entries(v)) if (!SKIP.has(k) && k !== 'kind' && k !== 'colour') walk(x);
    }
  };
  walk(view);
  return out;
}

/**
 * English words found in the view's prose (empty when none). `quoted` says
 * which pieces are upstream text shown as it was written (tweets): those are
 * no translation's business.
 */
export function englishIn(view: View, quoted: (piece: string) => boolean = () => false): string[] {
  return prose(view)
    .filter((s) => !quoted(s))
    .flatMap((s) =>
      [...s.replace(/\/[a-z_]+/g, '').matchAll(ENGLISH_WORDS)].map((m) => `${m[0]} (in “${s.trim().slice(0, 60)}”)`),
    );
}
