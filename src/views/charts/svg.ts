/**
 * Small builders for SVG markup. Every caller passes text through `svgText`
 * or `escapeXml` first; numbers go through `px`. No element here can refer to
 * anything outside the document (no external href, no remote fonts).
 */
import { FONT_FAMILY } from './font.ts';
import { px } from './format.ts';
import { escapeXml, wrapText } from './text.ts';
import { FONT_SIZE, legibleSize, THEME } from './theme.ts';

export function svgDocument(width: number, height: number, body: readonly string[], defs = ''): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}">`,
    defs === '' ? '' : `<defs>${defs}</defs>`,
    `<rect width="${width}" height="${height}" fill="${THEME.background}"/>`,
    ...body,
    '</svg>',
  ].join('');
}

export interface TextStyle {
  readonly size: number;
  readonly fill?: string;
  readonly anchor?: 'start' | 'middle' | 'end';
  readonly bold?: boolean;
  /** Dark outline behind the glyphs so text stays legible over lines. */
  readonly halo?: boolean;
}

/** A <text> element; `escaped` must already be XML-escaped. */
export function textEl(x: number, y: number, escaped: string, style: TextStyle): string {
  const attrs = [`x="${px(x)}"`, `y="${px(y)}"`, `font-size="${style.size}"`, `fill="${style.fill ?? THEME.text}"`];
  if (style.anchor && style.anchor !== 'start') attrs.push(`text-anchor="${style.anchor}"`);
  if (style.bold) attrs.push('font-weight="bold"');
  if (style.halo) attrs.push(`stroke="${THEME.halo}" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`);
  return `<text ${attrs.join(' ')}>${escaped}</text>`;
}

/** Title and optional subtitle at the top left. */
export interface Header {
  readonly body: string[];
  /** Where the header's last line ends: the chart starts below. */
  readonly bottom: number;
}

/**
 * Title and optional subtitle at the top left, sized to stay legible on a
 * phone; the subtitle wraps onto up to `subtitleLines` lines, the title is cut.
 */
export function header(width: number, title: string, subtitle?: string, subtitleLines = 2, titleLines = 2): Header {
  const min = legibleSize(width);
  const titleSize = Math.max(FONT_SIZE.title, min + 6);
  const subSize = Math.max(FONT_SIZE.subtitle, min);
  // A long name in the title takes a second line rather than an ellipsis.
  const body: string[] = [];
  let titleY = 16 + titleSize;
  wrapText(title, width - 56, titleSize, titleLines, true).forEach((l, i) => {
    if (i > 0) titleY += Math.round(titleSize * 1.2);
    body.push(textEl(28, titleY, escapeXml(l), { size: titleSize, bold: true }));
  });
  let bottom = titleY + titleSize * 0.3;
  if (subtitle) {
    wrapText(subtitle, width - 56, subSize, subtitleLines).forEach((l, i) => {
      const y = titleY + subSize + 8 + i * Math.round(subSize * 1.3);
      body.push(textEl(28, y, escapeXml(l), { size: subSize, fill: THEME.muted }));
      bottom = y + subSize * 0.35;
    });
  }
  return { body, bottom };
}

export function line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1, extra = ''): string {
  return `<line x1="${px(x1)}" y1="${px(y1)}" x2="${px(x2)}" y2="${px(y2)}" stroke="${stroke}" stroke-width="${px(width)}"${extra === '' ? '' : ` ${extra}`}/>`;
}

export function rect(x: number, y: number, w: number, h: number, fill: string, extra = ''): string {
  return `<rect x="${px(x)}" y="${px(y)}" width="${px(Math.max(0, w))}" height="${px(Math.max(0, h))}" fill="${fill}"${extra === '' ? '' : ` ${extra}`}/>`;
}

export function circle(x: number, y: number, r: number, fill: string, extra = ''): string {
  return `<circle cx="${px(x)}" cy="${px(y)}" r="${px(r)}" fill="${fill}"${extra === '' ? '' : ` ${extra}`}/>`;
}

/** A polyline path through points; null points break the line into separate runs. */
export function pathThrough(points: readonly ({ x: number; y: number } | null)[]): string {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (!p) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${px(p.x)} ${px(p.y)}`;
    pen = true;
  }
  return d;
}
