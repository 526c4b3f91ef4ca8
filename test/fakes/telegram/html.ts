// Telegram's HTML parse mode, close enough to the server's parser that markup our
// bot emits is accepted or refused the way the real API would do it. Offsets are
// UTF-16 (as in MessageEntity); error positions are UTF-8 byte offsets (as in
// Telegram's "can't parse entities" descriptions).
import { badRequest, type ApiError } from './errors.ts';
import type { MessageEntity } from './types.ts';

export interface ParsedText {
  text: string;
  entities: MessageEntity[];
}

const ENTITY_OF_TAG: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  a: 'text_link',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  'tg-emoji': 'custom_emoji',
};

interface OpenTag {
  tag: string;
  type: string;
  start: number;
  attrs: Map<string, string>;
  language?: string;
}

const fail = (msg: string): ApiError => badRequest(`can't parse entities: ${msg}`);

function byteOffset(raw: string, index: number): number {
  return Buffer.byteLength(raw.slice(0, index), 'utf8');
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Decodes the entity at raw[i] ('&'); unknown names stay literal, as Telegram does. */
function decodeEntity(raw: string, i: number): { value: string; length: number } {
  const m = /^&(#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[a-zA-Z]{1,10});/.exec(raw.slice(i, i + 12));
  if (!m || m[1] === undefined) return { value: '&', length: 1 };
  const name = m[1];
  if (name.startsWith('#')) {
    const cp = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      return { value: String.fromCodePoint(cp), length: m[0].length };
    }
    return { value: '&', length: 1 };
  }
  const named = NAMED[name.toLowerCase()];
  return named === undefined ? { value: '&', length: 1 } : { value: named, length: m[0].length };
}

function decodeAll(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; ) {
    if (s[i] === '&') {
      const d = decodeEntity(s, i);
      out += d.value;
      i += d.length;
    } else {
      out += s[i];
      i++;
    }
  }
  return out;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isNameChar = (c: string | undefined): boolean => c !== undefined && /[a-zA-Z0-9_-]/.test(c);

/** Reads `<tag attr="v" ...>` starting at raw[at] === '<'; returns the index after '>'. */
function readStartTag(raw: string, at: number): { tag: string; attrs: Map<string, string>; end: number } {
  let i = at + 1;
  let name = '';
  while (i < raw.length && !isSpace(raw[i]) && raw[i] !== '>' && raw[i] !== '/') name += raw[i++];
  const tag = name.toLowerCase();
  if (!(tag in ENTITY_OF_TAG)) throw fail(`Unsupported start tag "${name}" at byte offset ${byteOffset(raw, at)}`);
  const attrs = new Map<string, string>();
  for (;;) {
    while (isSpace(raw[i])) i++;
    if (i >= raw.length) throw fail(`Unclosed start tag at byte offset ${byteOffset(raw, at)}`);
    if (raw[i] === '>') return { tag, attrs, end: i + 1 };
    let attr = '';
    while (isNameChar(raw[i])) attr += raw[i++];
    if (attr === '') throw fail(`Empty attribute name in the tag "${tag}" at byte offset ${byteOffset(raw, at)}`);
    while (isSpace(raw[i])) i++;
    if (raw[i] !== '=') {
      attrs.set(attr.toLowerCase(), '');
      continue;
    }
    i++;
    while (isSpace(raw[i])) i++;
    let value = '';
    const quote = raw[i];
    if (quote === '"' || quote === "'") {
      const close = raw.indexOf(quote, i + 1);
      if (close < 0) throw fail(`Unclosed start tag at byte offset ${byteOffset(raw, at)}`);
      value = raw.slice(i + 1, close);
      i = close + 1;
    } else {
      while (i < raw.length && !isSpace(raw[i]) && raw[i] !== '>') value += raw[i++];
    }
    attrs.set(attr.toLowerCase(), decodeAll(value));
  }
}

const isQuote = (type: string): boolean => type === 'blockquote' || type === 'expandable_blockquote';

/** Entities that may not contain others (Telegram drops the inner one). */
function insideOpaque(stack: OpenTag[], type: string): boolean {
  return stack.some(
    (o) =>
      o.type === 'code' ||
      o.type === 'pre' ||
      o.type === 'custom_emoji' ||
      (o.type === 'text_link' && type === 'text_link') ||
      (isQuote(o.type) && isQuote(type)),
  );
}

export function parseHtml(raw: string): ParsedText {
  let text = '';
  const entities: MessageEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    if (c === '&') {
      const d = decodeEntity(raw, i);
      text += d.value;
      i += d.length;
      continue;
    }
    if (c !== '<') {
      text += c;
      i++;
      continue;
    }
    if (raw[i + 1] === '/') {
      const close = raw.indexOf('>', i);
      if (close < 0) throw fail(`Unclosed end tag at byte offset ${byteOffset(raw, i)}`);
      const name = raw
        .slice(i + 2, close)
        .trim()
        .toLowerCase();
      const open = stack.pop();
      if (!open) throw fail(`Unexpected end tag at byte offset ${byteOffset(raw, i)}`);
      if (open.tag !== name) {
        throw fail(
          `Unmatched end tag at byte offset ${byteOffset(raw, i)}, expected "</${open.tag}>", found "</${name}>"`,
        );
      }
      closeTag(open, stack, text, entities);
      i = close + 1;
      continue;
    }
    const { tag, attrs, end } = readStartTag(raw, i);
    if (tag === 'span' && attrs.get('class') !== 'tg-spoiler') {
      throw fail(`Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(raw, i)}`);
    }
    if (tag === 'tg-emoji' && !attrs.get('emoji-id')) {
      throw fail(`Custom emoji entity must contain a tg://emoji URL at byte offset ${byteOffset(raw, i)}`);
    }
    let type = ENTITY_OF_TAG[tag] ?? tag;
    if (tag === 'blockquote' && attrs.has('expandable')) type = 'expandable_blockquote';
    stack.push({ tag, type, start: text.length, attrs });
    i = end;
  }
  const unclosed = stack.at(-1);
  if (unclosed) throw fail(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities };
}

function closeTag(open: OpenTag, stack: OpenTag[], text: string, entities: MessageEntity[]): void {
  const length = text.length - open.start;
  const parent = stack.at(-1);
  // <pre><code class="language-x"> names the language of the pre block instead of adding a code entity.
  if (open.type === 'code' && parent?.type === 'pre') {
    const lang = open.attrs.get('class')?.match(/^language-(.+)$/)?.[1];
    if (lang) parent.language = lang;
    return;
  }
  if (length === 0 || insideOpaque(stack, open.type)) return;
  const e: MessageEntity = { type: open.type, offset: open.start, length };
  if (open.type === 'text_link') {
    const href = open.attrs.get('href');
    if (!href) return;
    e.url = href;
  } else if (open.type === 'pre' && open.language) {
    e.language = open.language;
  } else if (open.type === 'custom_emoji') {
    e.custom_emoji_id = open.attrs.get('emoji-id') ?? '';
  }
  entities.push(e);
}

/** Telegram counts the length limit in Unicode scalars (measured), not UTF-16 units. */
export function textLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
