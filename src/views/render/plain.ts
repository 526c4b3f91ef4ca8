/**
 * View -> terminal text for the console adapter. Untrusted text is stripped
 * of control characters and escape sequences (it could otherwise move the
 * cursor, retitle the terminal or fake output); ANSI colour is added only by
 * this renderer and only when asked for.
 */
import type { Colour, Rich, Span, View } from '../../domain/view.ts';
import { clean, displayWidth, pad, singleLine } from '../text.ts';
import { safeUrl, spansOf, usableActions, usableLinks } from './common.ts';
import { layoutTable } from './table.ts';

export interface PlainAction {
  /** What the user types to press it. */
  readonly n: number;
  readonly id: string;
  readonly label: string;
}

export interface PlainText {
  readonly text: string;
  readonly actions: PlainAction[];
  readonly links: { label: string; url: string }[];
}

export interface PlainOptions {
  /** Use ANSI colour (pass `process.stdout.isTTY`). */
  readonly colour?: boolean;
  /** Terminal columns; tables are narrowed to fit. Default 80. */
  readonly width?: number;
}

type Style = 'bold' | 'dim' | 'italic' | 'underline' | Colour;

const ANSI: Readonly<Record<Style, string>> = {
  bold: '1',
  dim: '2',
  italic: '3',
  underline: '4',
  brand: '36',
  up: '32',
  down: '31',
  neutral: '37',
  warn: '33',
  error: '31',
};

export function toPlainText(view: View, opts: PlainOptions = {}): PlainText {
  const width = Math.max(20, opts.width ?? 80);
  const paint = (text: string, ...styles: (Style | undefined)[]): string => {
    const codes = styles.filter((s): s is Style => s !== undefined).map((s) => ANSI[s]);
    return opts.colour && codes.length && text ? `\u001b[${codes.join(';')}m${text}\u001b[0m` : text;
  };
  const span = (s: Span): string => {
    if (typeof s === 'string') return clean(s);
    if ('b' in s) return paint(clean(s.b), 'bold');
    if ('i' in s) return paint(clean(s.i), 'italic');
    if ('code' in s) return paint(clean(s.code), 'brand');
    const text = clean(s.link);
    const url = safeUrl(s.url);
    return url && url !== text ? `${paint(text, 'underline')} (${url})` : text;
  };
  const rich = (r: Rich | undefined): string => spansOf(r).map(span).join('');
  const oneLine = (text: string | undefined): string => singleLine(clean(text ?? ''));

  const blocks: string[] = [];
  switch (view.kind) {
    case 'card': {
      const colour = view.colour === 'neutral' ? undefined : view.colour;
      blocks.push(paint(oneLine(view.title), 'bold', colour));
      const url = safeUrl(view.url);
      if (url) blocks[0] += `\n${url}`;
      if (view.description !== undefined) blocks.push(rich(view.description));
      const fields = view.fields ?? [];
      if (fields.length) {
        const names = fields.map((f) => oneLine(f.name));
        const nameWidth = Math.min(24, Math.max(...names.map(displayWidth)));
        const indent = ' '.repeat(nameWidth + 2);
        blocks.push(
          fields
            .map((f, i) => {
              const value = rich(f.value).split('\n').join(`\n${indent}`);
              return `${paint(pad(names[i]!, nameWidth), 'bold')}  ${value}`;
            })
            .join('\n'),
        );
      }
      if (view.footer) blocks.push(paint(oneLine(view.footer), 'dim'));
      break;
    }
    case 'table': {
      const colour = view.colour === 'neutral' ? undefined : view.colour;
      blocks.push(paint(oneLine(view.title), 'bold', colour));
      if (view.description !== undefined) blocks.push(rich(view.description));
      const t = layoutTable(view.columns, view.rows, { width });
      blocks.push([paint(t.header, 'bold'), t.rule, ...t.rows].join('\n'));
      if (view.notes?.length) blocks.push(view.notes.map(rich).join('\n'));
      if (view.footer) blocks.push(paint(oneLine(view.footer), 'dim'));
      break;
    }
    case 'text':
      blocks.push(rich(view.text));
      break;
    case 'error': {
      const label = (text: string | undefined) => (text ? `${oneLine(text)} ` : '');
      const example = view.example ? `\n${label(view.labels?.example)}${oneLine(view.example)}` : '';
      // Without its label the error still stands out by colour and its mark.
      blocks.push(`${paint(label(view.labels?.error) || '✖ ', 'bold', 'error')}${clean(view.message)}${example}`);
      break;
    }
  }
  const picture = view.kind === 'error' ? undefined : view.picture;
  if (picture) blocks.push(paint(`[picture ${oneLine(picture.name)}: ${oneLine(picture.alt)}]`, 'dim'));

  const links = usableLinks(view).map((l) => ({ label: oneLine(l.label), url: l.url }));
  if (links.length) blocks.push(links.map((l) => `${l.label}: ${l.url}`).join('\n'));
  const actions = usableActions(view).map((a, i) => ({ n: i + 1, id: a.id, label: oneLine(a.label) }));
  if (actions.length) blocks.push(actions.map((a) => `${paint(`[${a.n}]`, 'bold')} ${a.label}`).join('  '));

  return { text: blocks.filter((b) => b !== '').join('\n\n'), actions, links };
}
