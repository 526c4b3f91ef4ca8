/**
 * View -> Telegram message in HTML parse mode (never Markdown: its escaping
 * rules are easy to get wrong with untrusted text). Lengths are counted as
 * Telegram does, after entity parsing: only visible characters, so budgets
 * are spent on the plain text before it is escaped, and cuts happen on that
 * plain text, never inside a tag or an entity.
 */
import type { CardView, ErrorView, Rich, Span, TableView, TextView, View } from '../../domain/view.ts';
import { clean, cut, singleLine } from '../text.ts';
import {
  chunk,
  fitSpans,
  moreRows,
  safeFileName,
  safeUrl,
  spansOf,
  spanText,
  usableActions,
  usableLinks,
} from './common.ts';
import { layoutTable } from './table.ts';

export const TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;
export const CALLBACK_DATA_MAX_BYTES = 64;
export const BUTTONS_PER_ROW = 3;
export const BUTTON_TEXT_MAX = 64;
/** Columns before a `<pre>` line wraps on a phone. */
export const TABLE_WIDTH = 44;

export type TelegramButton = { text: string; url: string } | { text: string; callback_data: string };

export interface TelegramMessage {
  /** HTML; at most TEXT_MAX visible characters. */
  text: string;
  parse_mode: 'HTML';
  reply_markup?: { inline_keyboard: TelegramButton[][] };
  link_preview_options: { is_disabled: true };
  /** Send as a photo with `caption` (same parse mode) instead of a text message. */
  photo?: { name: string; data: Uint8Array };
  caption?: string;
  /**
   * The card did not fit a caption: the caption is only the title, and `text`
   * must follow as a second message (put `reply_markup` on that one).
   */
  textAfterPhoto?: boolean;
}

/** Escapes text content: `&`, `<`, `>`. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}

/** Rendered HTML and its length as Telegram counts it. */
interface Html {
  readonly html: string;
  readonly visible: number;
}

const EMPTY: Html = { html: '', visible: 0 };

function spanHtml(span: Span): string {
  const text = escapeHtml(clean(spanText(span)));
  if (typeof span === 'string') return text;
  if ('b' in span) return `<b>${text}</b>`;
  if ('i' in span) return `<i>${text}</i>`;
  if ('code' in span) return `<code>${text}</code>`;
  const url = safeUrl(span.url);
  return url ? `<a href="${escapeAttr(url)}">${text}</a>` : text;
}

const visibleOf = (span: Span): number => clean(spanText(span)).length;

/** Rich text as HTML within `max` visible characters. */
export function richHtml(rich: Rich | undefined, max: number): Html {
  // Empty spans would leave empty tags behind (`<b></b>`), which count for nothing.
  const spans = fitSpans(
    spansOf(rich).filter((s) => visibleOf(s) > 0),
    max,
    visibleOf,
  );
  return { html: spans.map(spanHtml).join(''), visible: spans.reduce((n, s) => n + visibleOf(s), 0) };
}

function line(text: string | undefined, max: number, tag?: 'b' | 'i', url?: string): Html {
  const plain = text === undefined ? '' : cut(singleLine(clean(text)), max);
  if (!plain) return EMPTY;
  let html = escapeHtml(plain);
  const href = safeUrl(url);
  if (href) html = `<a href="${escapeAttr(href)}">${html}</a>`;
  if (tag) html = `<${tag}>${html}</${tag}>`;
  return { html, visible: plain.length };
}

/** Joins the non-empty blocks with `sep`, counting the separators. */
function join(blocks: readonly Html[], sep: string): Html {
  const kept = blocks.filter((b) => b.html !== '');
  return {
    html: kept.map((b) => b.html).join(sep),
    visible: kept.reduce((n, b) => n + b.visible, 0) + sep.length * Math.max(0, kept.length - 1),
  };
}

const TITLE_MAX = 256;
const FOOTER_MAX = 256;
const FIELD_NAME_MAX = 256;
const FIELD_VALUE_MAX = 1024;
/** The description keeps this much before fields or rows give way. */
const DESCRIPTION_KEEP = 1000;
const SECTION = '\n\n';

function cardHtml(view: CardView, max: number): Html {
  const title = line(view.title, TITLE_MAX, 'b', view.url);
  const footer = line(view.footer, FOOTER_MAX, 'i');
  const fields = (view.fields ?? []).map((f) => {
    const name = line(f.name, FIELD_NAME_MAX, 'b');
    const value = richHtml(f.value, FIELD_VALUE_MAX);
    return name.html ? join([name, value], ': ') : value;
  });
  // Room for the text once title, footer and the three section breaks are paid.
  const budget = max - title.visible - footer.visible - 3 * SECTION.length;
  const descKeep = Math.min(richHtml(view.description, budget).visible, DESCRIPTION_KEEP);
  // Over the limit: fields go from the last, whole lines, while the description keeps its share.
  while (fields.length > 0 && join(fields, '\n').visible > budget - descKeep) fields.pop();
  const body = join(fields, '\n');
  const description = richHtml(view.description, Math.max(0, budget - body.visible));
  return join([title, description, body, footer], SECTION);
}

function tableHtml(view: TableView, max: number): Html {
  const title = line(view.title, TITLE_MAX, 'b');
  const footer = line(view.footer, FOOTER_MAX, 'i');
  const budget = max - title.visible - footer.visible - 2 * SECTION.length;
  const intro = richHtml(view.description, Math.min(DESCRIPTION_KEEP, Math.floor(budget / 4)));
  const t = layoutTable(view.columns, view.rows, { width: TABLE_WIDTH, maxColumn: 24 });
  const notes = (view.notes ?? []).map((n) => richHtml(n, 300)).filter((n) => n.html !== '');
  // Notes given one per row go with their rows; other notes fill what room is left.
  const perRow = notes.length === view.rows.length;
  const build = (k: number): Html[] => {
    const pre = [t.header, t.rule, ...t.rows.slice(0, k)].join('\n');
    const parts: Html[] = [intro, { html: `<pre>${escapeHtml(pre)}</pre>`, visible: pre.length }];
    if (k < t.rows.length) parts.push(line(moreRows(t.rows.length - k), 100, 'i'));
    if (perRow) parts.push(...notes.slice(0, k));
    return parts;
  };
  // Whole rows only: drop rows (and their notes) from the end until it fits.
  let k = t.rows.length;
  let parts = build(k);
  while (join(parts, '\n').visible > budget && k > 0) parts = build(--k);
  if (!perRow) {
    for (const note of notes) {
      if (join([...parts, note], '\n').visible > budget) break;
      parts.push(note);
    }
  }
  const body = join(parts, '\n');
  return join([title, body.visible <= budget ? body : EMPTY, footer], SECTION);
}

function textHtml(view: TextView, max: number): Html {
  return richHtml(view.text, max);
}

function errorHtml(view: ErrorView, max: number): Html {
  const example = view.example ? cut(singleLine(clean(view.example)), 500) : '';
  const label = view.labels ? `${cut(singleLine(clean(view.labels.example)), 40)} ` : '';
  const exampleHtml: Html = example
    ? { html: `${escapeHtml(label)}<code>${escapeHtml(example)}</code>`, visible: label.length + example.length }
    : EMPTY;
  const message = richHtml(['⚠️ ', view.message], max - exampleHtml.visible - 1);
  return join([message, exampleHtml], '\n');
}

function render(view: View, max: number): Html {
  switch (view.kind) {
    case 'card':
      return cardHtml(view, max);
    case 'table':
      return tableHtml(view, max);
    case 'text':
      return textHtml(view, max);
    case 'error':
      return errorHtml(view, max);
  }
}

function keyboard(view: View): TelegramButton[][] {
  const label = (text: string): string => cut(singleLine(clean(text)), BUTTON_TEXT_MAX) || '•';
  const actions: TelegramButton[] = usableActions(view).map((a) => {
    const bytes = Buffer.byteLength(a.id, 'utf8');
    if (bytes > CALLBACK_DATA_MAX_BYTES) {
      throw new RangeError(
        `Action "${a.label}" has a ${bytes}-byte id; Telegram callback_data allows ${CALLBACK_DATA_MAX_BYTES}`,
      );
    }
    return { text: label(a.label), callback_data: a.id };
  });
  const links: TelegramButton[] = usableLinks(view).map((l) => ({ text: label(l.label), url: l.url }));
  return [...chunk(actions, BUTTONS_PER_ROW), ...chunk(links, BUTTONS_PER_ROW)];
}

export function toTelegramHtml(view: View): TelegramMessage {
  const full = render(view, TEXT_MAX);
  const message: TelegramMessage = {
    // Telegram rejects a message that is empty once trimmed (entities stand for non-space characters).
    text: /\S/.test(full.html.replace(/<[^<>]*>/g, '')) ? full.html : '-',
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  };
  const rows = keyboard(view);
  if (rows.length) message.reply_markup = { inline_keyboard: rows };
  const picture = view.kind === 'error' ? undefined : view.picture;
  if (picture) {
    message.photo = { name: safeFileName(picture.name), data: picture.png };
    if (full.visible <= CAPTION_MAX) {
      message.caption = message.text;
    } else {
      const heading =
        view.kind === 'card'
          ? line(view.title, CAPTION_MAX, 'b', view.url)
          : view.kind === 'table'
            ? line(view.title, CAPTION_MAX, 'b')
            : line(picture.alt, CAPTION_MAX);
      message.caption = heading.html;
      message.textAfterPhoto = true;
    }
  }
  return message;
}
