/**
 * The pages' markup. Hono's `html` tagged template escapes every value it is
 * given (text, attributes, arrays of either), so a token or member named
 * `<script>` can only ever show as text; markup enters a page only as another
 * `html` template or through `raw()` on text this file made itself (the SVG
 * chart, the JSON-free head). Chosen over Hono's JSX: the project has no .tsx
 * and no JSX build settings, and a tagged template needs neither.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Rich, TableView } from '../domain/view.ts';
import type { Locale, T } from '../i18n/index.ts';

/**
 * `html` typed as what it returns here: it gives a Promise only when one of its values is a
 * Promise, and no page passes one (everything is read before the markup is built).
 */
export const h = html as (strings: TemplateStringsArray, ...values: unknown[]) => HtmlEscapedString;
export type Html = HtmlEscapedString;

/** Right-to-left languages the catalogue may gain; none of the eight is, but names in Arabic are shaped by `dir="auto"`. */
const RTL: ReadonlySet<string> = new Set(['ar', 'fa', 'he', 'ur']);

export interface Head {
  readonly title: string;
  readonly description: string;
  /** Absolute URL of this page (WEB_URL + path): link previews need absolute addresses. */
  readonly url: string;
  /** Absolute URL of the preview image (a call's card); absent: the text card. */
  readonly image?: { readonly url: string; readonly alt: string };
}

/** Rich text as escaped markup: emphasis kept, links only to http(s). */
export function rich(r: Rich | undefined): Html {
  if (r === undefined) return h``;
  if (typeof r === 'string') return h`${r}`;
  return h`${r.map((s) =>
    typeof s === 'string'
      ? h`${s}`
      : 'b' in s
        ? h`<strong>${s.b}</strong>`
        : 'i' in s
          ? h`<em>${s.i}</em>`
          : 'code' in s
            ? h`<code>${s.code}</code>`
            : /^https?:\/\//i.test(s.url)
              ? h`<a href="${s.url}" rel="nofollow noopener">${s.link}</a>`
              : h`${s.link}`,
  )}`;
}

/**
 * A command's table as an HTML table: the same rows the chat shows, cell for cell.
 * `link(row)` may turn a row's first text column into a link (a member's page).
 * Every cell carries data-col so tests and scripts read figures by column, not position.
 */
export function table(
  view: TableView,
  o: { id: string; caption?: string; link?: (row: Readonly<Record<string, string>>) => string | undefined },
): Html {
  const linkKey = view.columns.find((c) => c.key !== 'n')?.key;
  return h`<div class="scroll"><table id="${o.id}" data-rows="${view.rows.length}">
<caption>${o.caption ?? view.title}</caption>
<thead><tr>${view.columns.map((c) => h`<th scope="col" class="${c.align === 'right' ? 'num' : ''}" data-col="${c.key}">${c.label}</th>`)}</tr></thead>
<tbody>${view.rows.map(
    (row) =>
      h`<tr>${view.columns.map((c) => {
        const value = row[c.key] ?? '';
        const href = c.key === linkKey ? o.link?.(row) : undefined;
        const cell = href ? h`<a href="${href}">${value}</a>` : h`${value}`;
        return c.key === linkKey
          ? h`<th scope="row" dir="auto" data-col="${c.key}">${cell}</th>`
          : h`<td class="${c.align === 'right' ? 'num' : ''}" dir="auto" data-col="${c.key}">${cell}</td>`;
      })}</tr>`,
  )}</tbody>
</table></div>`;
}

/** The whole document: head with the preview tags, the page's body, the footer. No inline script or style. */
export function documentOf(o: { locale: Locale; t: T; head: Head; body: Html; home?: string; asOf?: string }): string {
  const { head, t } = o;
  const dir = RTL.has(o.locale.split('-')[0]!) ? 'rtl' : 'ltr';
  const image = head.image;
  return `<!doctype html>${h`<html lang="${o.locale}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${head.title}</title>
<meta name="description" content="${head.description}">
<link rel="canonical" href="${head.url}">
<link rel="stylesheet" href="/static/site.css">
<meta property="og:type" content="website">
<meta property="og:site_name" content="kolradar">
<meta property="og:title" content="${head.title}">
<meta property="og:description" content="${head.description}">
<meta property="og:url" content="${head.url}">
${
  image
    ? h`<meta property="og:image" content="${image.url}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:alt" content="${image.alt}">
<meta name="twitter:image" content="${image.url}">
<meta name="twitter:image:alt" content="${image.alt}">`
    : ''
}
<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${head.title}">
<meta name="twitter:description" content="${head.description}">
<script src="/static/app.js" defer></script>
</head>
<body>
<main>
${o.body}
</main>
<footer>
${o.asOf ? h`<p class="asof" id="as-of">${o.asOf}</p>` : ''}
<p>${t('web.footer')}</p>
${o.home ? h`<p><a href="${o.home}">${t('web.back')}</a></p>` : ''}
</footer>
</body>
</html>`}`;
}
