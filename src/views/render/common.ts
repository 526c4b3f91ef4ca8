/**
 * Pieces the three renderers share: reading spans, fitting rich text into a
 * budget, picking usable buttons, and checking URLs.
 */
import type { Action, LinkButton, Rich, Span, View } from '../../domain/view.ts';
import { cut, ELLIPSIS } from '../text.ts';

export function spansOf(rich: Rich | undefined): Span[] {
  if (rich === undefined) return [];
  return typeof rich === 'string' ? [rich] : [...rich];
}

export function spanText(span: Span): string {
  if (typeof span === 'string') return span;
  if ('b' in span) return span.b;
  if ('i' in span) return span.i;
  if ('code' in span) return span.code;
  return span.link;
}

function withText(span: Span, text: string): Span {
  if (typeof span === 'string') return text;
  if ('b' in span) return { b: text };
  if ('i' in span) return { i: text };
  if ('code' in span) return { code: text };
  return { link: text, url: span.url };
}

/** Plain reading of rich text (no markup). */
export function richText(rich: Rich | undefined): string {
  return spansOf(rich).map(spanText).join('');
}

/**
 * Keeps `spans` within `max` units of `cost` (rendered length, or visible
 * length, depending on the platform): whole spans while they fit, then the
 * first one that does not is cut at a grapheme boundary and ends with "…".
 * Cutting a span's text rather than its rendered form keeps markup balanced.
 */
export function fitSpans(spans: readonly Span[], max: number, cost: (s: Span) => number): Span[] {
  const costs = spans.map(cost);
  if (costs.reduce((a, b) => a + b, 0) <= max) return [...spans];
  if (max < ELLIPSIS.length) return [];
  const out: Span[] = [];
  let used = 0;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const c = costs[i]!;
    // Keep one unit spare for the ellipsis: something after this span is being dropped.
    if (used + c <= max - ELLIPSIS.length) {
      out.push(span);
      used += c;
      continue;
    }
    const shrunk = shrink(span, max - used, cost);
    out.push(shrunk ?? ELLIPSIS);
    return out;
  }
  return out;
}

/** The longest cut of `span` whose cost fits `room`, or null when not even one character does. */
function shrink(span: Span, room: number, cost: (s: Span) => number): Span | null {
  const text = spanText(span);
  let lo = 1;
  let hi = Math.min(text.length - 1, room);
  let best: Span | null = null;
  // Cost is close to proportional to length: search near the estimate first.
  const estimate = Math.floor(((hi * text.length) / Math.max(cost(span), 1)) * 0.95);
  if (estimate > 16 && estimate < hi) {
    const candidate = withText(span, cut(text, estimate));
    if (cost(candidate) <= room) {
      best = candidate;
      lo = estimate + 1;
      hi = Math.min(hi, Math.ceil(estimate * 1.1) + 16);
    }
  }
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const cutText = cut(text, mid);
    const candidate = withText(span, cutText);
    if (cutText !== ELLIPSIS && cost(candidate) <= room) {
      best = candidate;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/** Longest URL kept; platforms reject longer ones (Discord embeds 2,048). */
export const URL_MAX = 2048;

/** Only web links: never `javascript:`, `file:`, `tg:` or relative URLs from untrusted data. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed) || trimmed.length > URL_MAX) return undefined;
  try {
    const parsed = new URL(trimmed);
    const ok = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.href.length <= URL_MAX;
    return ok ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Actions the core has given an id, once each (platforms reject duplicate ids in one message). */
export function usableActions(view: View): (Action & { id: string })[] {
  const seen = new Set<string>();
  const out: (Action & { id: string })[] = [];
  for (const action of view.actions ?? []) {
    if (!action.id || seen.has(action.id)) continue;
    seen.add(action.id);
    out.push(action as Action & { id: string });
  }
  return out;
}

/** Link buttons with a web URL. */
export function usableLinks(view: View): { label: string; url: string }[] {
  const out: { label: string; url: string }[] = [];
  for (const link of view.links ?? ([] as readonly LinkButton[])) {
    const url = safeUrl(link.url);
    if (url) out.push({ label: link.label, url });
  }
  return out;
}

/** Splits `items` into rows of at most `perRow`. */
export function chunk<T>(items: readonly T[], perRow: number): T[][] {
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += perRow) rows.push(items.slice(i, i + perRow));
  return rows;
}

/** A file name safe in `attachment://` URLs and multipart headers. */
export function safeFileName(name: string): string {
  const base = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 64);
  const withName = base || 'picture';
  return /\.png$/i.test(withName) ? withName : `${withName}.png`;
}

/** "… 170 more rows" under a cut table. */
export function moreRows(n: number): string {
  return `${ELLIPSIS} ${n} more row${n === 1 ? '' : 's'}`;
}
