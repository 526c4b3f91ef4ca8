/**
 * Discord markdown for untrusted text: plain text is escaped so it can never
 * format, link or mention; spans add only the markup the view asked for.
 */
import type { Rich, Span } from '../../domain/view.ts';
import { clean, neuterMentions, singleLine } from '../text.ts';
import { fitSpans, safeUrl, spansOf, spanText } from './common.ts';

// Bare web URLs are left unescaped so Discord still links them; they stop at
// any character that could start markup, which is then escaped as usual.
const URL_RE = /https?:\/\/[^\s<>`|~*[\]()"'\\]+/g;
// Characters that format anywhere in a line. Discord drops the backslash before any ASCII punctuation.
const INLINE_RE = /[\\*_~`|[\]<>]/g;

function escapeSegment(text: string): string {
  return (
    text
      .replace(INLINE_RE, '\\$&')
      // Line-start markup: headings, lists, subtext "-#", numbered lists. Only spaces within the
      // line may come first: a `\s*` would span lines and be retried from every one (quadratic).
      .replace(/^([^\S\n]*)([-+#])/gm, '$1\\$2')
      .replace(/^([^\S\n]*\d+)\./gm, '$1\\.')
      // A span starting with "." may follow another span's digits at a line start.
      .replace(/^\./, '\\.')
  );
}

/** Escapes Discord markdown and neuters mentions in plain text (already `clean`ed or not). */
export function escapeMarkdown(text: string): string {
  const safe = neuterMentions(clean(text));
  let out = '';
  let last = 0;
  for (const match of safe.matchAll(URL_RE)) {
    out += escapeSegment(safe.slice(last, match.index));
    out += match[0];
    last = match.index + match[0].length;
  }
  return out + escapeSegment(safe.slice(last));
}

/** Wraps in a delimiter, keeping edge whitespace outside (Discord ignores "** x **"). */
function wrap(text: string, delim: string): string {
  // trim() rather than a regex: a lazy body before `\s*$` is quadratic on inner runs of spaces.
  const body = text.trim();
  if (!body) return text;
  const start = text.length - text.trimStart().length;
  return `${text.slice(0, start)}${delim}${body}${delim}${text.slice(start + body.length)}`;
}

/** Inline code that stays inline code whatever backticks the content holds. */
export function inlineCode(text: string): string {
  const body = neuterMentions(singleLine(clean(text)));
  if (!body) return '';
  if (!body.includes('`')) return `\`${body}\``;
  // Double-backtick delimiters allow single backticks inside; longer runs are replaced.
  const safe = body.replace(/`{2,}/g, (run) => 'ˋ'.repeat(run.length));
  return `\`\` ${safe} \`\``;
}

/** Percent-encodes what would end a markdown link target or break it over lines. */
function linkTarget(url: string): string {
  return url.replace(/[()\s<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function spanMarkdown(span: Span): string {
  if (typeof span === 'string') return escapeMarkdown(span);
  if ('b' in span) return wrap(escapeMarkdown(span.b), '**');
  if ('i' in span) return wrap(escapeMarkdown(span.i), '*');
  if ('code' in span) return inlineCode(span.code);
  const url = safeUrl(span.url);
  const label = escapeMarkdown(singleLine(span.link));
  if (!url || !label) return label;
  return `[${label}](${linkTarget(url)})`;
}

/** Joins rendered spans, separating emphasis that would otherwise merge ("**a***b*"). */
function join(parts: readonly string[]): string {
  let out = '';
  for (const part of parts) {
    if (out.endsWith('*') && part.startsWith('*')) out += '\u200b';
    out += part;
  }
  return out;
}

/** Rich text as Discord markdown, at most `max` characters. */
export function richMarkdown(rich: Rich | undefined, max: number): string {
  const spans = spansOf(rich).filter((s) => spanText(s) !== '');
  // +1 covers a separator the join may add between two spans.
  const fitted = fitSpans(spans, max, (s) => spanMarkdown(s).length + 1);
  return join(fitted.map(spanMarkdown));
}
