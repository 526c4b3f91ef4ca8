/**
 * A real browser for the tests of what a visitor sees: Debian's Chromium
 * (`/usr/bin/chromium`, installed by `.ci/run`), driven by playwright-core,
 * which downloads no browser of its own. Without the binary a browser test is
 * skipped with a visible notice, except under CI, where its absence fails.
 *
 * Each launch gets a fresh profile (Playwright makes a temporary user-data-dir
 * per launch and removes it at close) and no network of its own: no component
 * updates, sync, QUIC or background fetches, so a test's requests are the page's.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TestContext } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { PATIENCE_MS } from './wait.ts';

/** The system's Chromium; CHROMIUM_PATH points elsewhere (another distribution's path). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const BROWSER_SKIP = `${CHROMIUM} not found: browser tests skipped (apt-get install chromium to run them)`;

/** Whether Chromium is there to drive; under CI its absence throws instead of skipping. */
export function browserAvailable(): boolean {
  let found = true;
  try {
    accessSync(CHROMIUM, constants.X_OK);
  } catch {
    found = false;
  }
  if (!found && process.env.CI === 'true') throw new Error(`${CHROMIUM} is required under CI but was not found`);
  return found;
}

/**
 * The `skip` option of a browser test: false when Chromium is there, else the notice (also
 * written to stderr once, so a run that skipped them says so in its log, not only in the TAP).
 */
export function browserSkip(): false | string {
  if (browserAvailable()) return false;
  if (!noticeWritten) process.stderr.write(`NOTICE: ${BROWSER_SKIP}\n`);
  noticeWritten = true;
  return BROWSER_SKIP;
}
let noticeWritten = false;

const ARGS = [
  '--headless',
  '--no-sandbox', // the tests and CI run as root, where Chromium's sandbox refuses to start
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Chromium; closed when `t` ends where one is given (a test's context), else by the
 * caller (a file's `after`: a hook registered from inside `before` runs when that hook ends).
 */
export async function launchBrowser(t?: Pick<TestContext, 'after'>): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true, timeout: PATIENCE_MS });
  t?.after(() => browser.close());
  return browser;
}

/** A fresh page of `width` x `height` CSS pixels, every action and navigation bounded by the kit's patience. */
export async function openPage(
  browser: Browser,
  opts: { width: number; height?: number; locale?: string; dark?: boolean } = { width: 1280 },
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: opts.width, height: opts.height ?? 900 },
    locale: opts.locale ?? 'en-US',
    colorScheme: opts.dark ? 'dark' : 'light',
  });
  context.setDefaultTimeout(PATIENCE_MS);
  context.setDefaultNavigationTimeout(PATIENCE_MS);
  return context.newPage();
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule axe-core found broken, with where (CSS selectors of the first few nodes). */
export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  where: string[];
}

/**
 * axe-core's serious and critical violations on the page as it stands (WCAG 2.x A and AA rules,
 * contrast included). The engine goes in through the debugging protocol, not a script tag, so a
 * page's Content-Security-Policy (no inline script) neither blocks it nor is loosened for it.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as PageGlobals & { axe: Axe };
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        where: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      }));
  });
}

/*
 * The few browser globals the measures below use, typed here: the project type-checks for Node
 * (no DOM library), and these functions run in the page, where the globals exist.
 */
interface Rect {
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
}
interface PageElement {
  id: string;
  tagName: string;
  classList: ArrayLike<string> & Iterable<string>;
  parentElement: PageElement | null;
  getBoundingClientRect(): Rect;
  closest(selector: string): PageElement | null;
}
interface PageNode {
  textContent: string | null;
  parentElement: PageElement | null;
}
interface PageGlobals {
  document: {
    documentElement: PageElement & { clientWidth: number; scrollWidth: number };
    body: PageElement & { querySelectorAll(selector: string): Iterable<PageElement> };
    createTreeWalker(root: PageElement, what: number): { nextNode(): PageNode | null };
    createRange(): { selectNodeContents(node: PageNode): void; getClientRects(): Iterable<Rect> };
  };
  getComputedStyle(
    el: PageElement,
  ): Record<'overflowX' | 'clipPath' | 'clip' | 'display' | 'visibility' | 'opacity' | 'fontSize', string>;
  NodeFilter: { SHOW_TEXT: number };
}
type AxeResult = { id: string; impact: string; help: string; nodes: { target: string[] }[] };
interface Axe {
  run(context: unknown, options: unknown): Promise<{ violations: AxeResult[] }>;
}

/** What the layout check found: each a sentence naming the element or texts and their boxes. */
export interface LayoutReport {
  /** Elements whose box reaches past the viewport's left or right edge (and no ancestor clips it). */
  overflowing: string[];
  /** Pairs of text boxes (line by line, from the page's ranges) that cover each other. */
  overlapping: string[];
  /** Visible text drawn smaller than `minFontPx`. */
  tooSmall: string[];
  /** The document is wider than the viewport: the visitor can scroll sideways. */
  scrollsSideways: boolean;
}

/**
 * Measures the page from its element boxes, as a visitor's screen would show it: nothing may
 * reach past the viewport's sides, no line of text may cover another, no text under `minFontPx`.
 * Text a visitor cannot see (hidden, clipped to nothing as screen-reader text is) is left out;
 * boxes that merely touch (adjacent words, lines set tight) are not an overlap: two boxes cover
 * each other when they share more than 1 px across and a quarter of the smaller one's height.
 */
export async function layoutReport(page: Page, minFontPx = 12): Promise<LayoutReport> {
  return page.evaluate((minFont) => {
    const { document, getComputedStyle, NodeFilter } = globalThis as unknown as PageGlobals;
    const vw = document.documentElement.clientWidth;
    const label = (el: PageElement): string => {
      const id = el.id ? `#${el.id}` : '';
      const cls = el.classList.length ? `.${[...el.classList].join('.')}` : '';
      return `<${el.tagName.toLowerCase()}${id}${cls}>`;
    };
    const clips = (el: PageElement): boolean => {
      const s = getComputedStyle(el);
      return s.overflowX !== 'visible' || s.clipPath !== 'none' || (s.clip !== 'auto' && s.clip !== '');
    };
    /**
     * What remains of the span left..right once `from` and its ancestors clip it (overflow, clip,
     * clip-path): the visible horizontal span. A box starts at its parent (its own overflow clips
     * its content, not itself); a text at the element holding it.
     */
    const visibleSpan = (from: PageElement | null, left: number, right: number): [number, number] => {
      for (let a = from; a; a = a.parentElement) {
        if (a === document.documentElement || a === document.body) continue;
        if (!clips(a)) continue;
        const r = a.getBoundingClientRect();
        left = Math.max(left, r.left);
        right = Math.min(right, r.right);
      }
      return [left, right];
    };
    const shown = (el: PageElement): boolean => {
      if (el.closest('[hidden], [aria-hidden="true"]')) return false;
      const s = getComputedStyle(el);
      return s.display !== 'none' && s.visibility !== 'hidden' && Number(s.opacity) > 0;
    };

    const overflowing: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const [left, right] = visibleSpan(el.parentElement, r.left, r.right);
      if (right <= left) continue; // clipped away entirely
      if (left < -0.5 || right > vw + 0.5)
        overflowing.push(`${label(el)} spans ${Math.round(left)}..${Math.round(right)} px of a ${vw} px viewport`);
    }

    type Box = { node: number; text: string; el: PageElement; x: number; y: number; w: number; h: number };
    const boxes: Box[] = [];
    const tooSmall: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let node = 0;
    for (let n = walker.nextNode(); n; n = walker.nextNode(), node++) {
      const text = n.textContent?.trim() ?? '';
      const el = n.parentElement;
      if (!text || !el || !shown(el)) continue;
      // SVG's tag names are lower case: <title> and <desc> are a chart's text alternative, never drawn.
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TITLE', 'DESC'].includes(el.tagName.toUpperCase())) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      const visible = rects.filter((r) => {
        const [left, right] = visibleSpan(el, r.left, r.right);
        return right - left > 1;
      });
      if (visible.length === 0) continue; // screen-reader text, clipped to a pixel
      const size = Number.parseFloat(getComputedStyle(el).fontSize);
      if (size < minFont) tooSmall.push(`"${text.slice(0, 40)}" in ${label(el)} at ${size} px`);
      for (const r of visible) boxes.push({ node, text, el, x: r.left, y: r.top, w: r.width, h: r.height });
    }
    const overlapping: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.node === b.node) continue; // two lines of one text
        const across = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
        const down = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
        if (across > 1 && down > Math.min(a.h, b.h) / 4)
          overlapping.push(
            `"${a.text.slice(0, 30)}" (${label(a.el)}) covers "${b.text.slice(0, 30)}" (${label(b.el)}) by ${Math.round(across)} x ${Math.round(down)} px`,
          );
      }
    }
    const scrollsSideways = document.documentElement.scrollWidth > vw + 0.5;
    return { overflowing, overlapping, tooSmall, scrollsSideways };
  }, minFontPx);
}
