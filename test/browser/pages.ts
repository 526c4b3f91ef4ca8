/**
 * Reading the community pages as a visitor's browser shows them: the board's row
 * of a member (cells by their column, as the page marks them), the preview tags,
 * and what the chat's /lb answer says for the same member. Not a test file itself.
 */
import type { Page } from 'playwright-core';

/** The leaderboard's columns, as /lb's table names them. */
export interface BoardRow {
  member: string;
  hit: string;
  calls: string;
  median: string;
  best: string;
}

/** The board's row of `member` (its text as shown), failing by name when the board has none. */
export async function boardRow(page: Page, member: string): Promise<BoardRow> {
  const rows = page
    .locator('#board tbody tr')
    .filter({ has: page.locator('[data-col="member"]', { hasText: member }) });
  if ((await rows.count()) !== 1) throw new Error(`the board has ${await rows.count()} rows for ${member}`);
  const cell = async (col: keyof BoardRow) =>
    ((await rows.locator(`[data-col="${col}"]`).textContent()) ?? '').replace(/\s+/g, ' ').trim();
  return {
    member: await cell('member'),
    hit: await cell('hit'),
    calls: await cell('calls'),
    median: await cell('median'),
    best: await cell('best'),
  };
}

const literally = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the chat's /lb answer (its text as the platform shows it) ranks `row.member` with the
 * same figures: the member's line and the next one (a phone-wide table wraps the last column
 * under its row) read member, hit rate, calls and median in order, and hold the best call.
 */
export function lbRowMatches(answer: string, row: BoardRow): boolean {
  const lines = answer.split('\n');
  const at = lines.findIndex((l) => l.includes(row.member));
  if (at < 0) return false;
  const text = `${lines[at]} ${lines[at + 1] ?? ''}`.replace(/\s+/g, ' ');
  const inOrder = new RegExp([row.member, row.hit, row.calls, row.median].map(literally).join('\\s+'));
  return inOrder.test(text) && text.includes(row.best);
}

/** The link-preview tags of the page: what X, Telegram and Discord read when its link is pasted. */
export async function previewOf(page: Page) {
  const meta = async (attr: 'property' | 'name', key: string) =>
    (await page.locator(`head meta[${attr}="${key}"]`).getAttribute('content')) ?? '';
  return {
    title: await meta('property', 'og:title'),
    url: await meta('property', 'og:url'),
    image: await meta('property', 'og:image'),
    imageType: await meta('property', 'og:image:type'),
    twitterCard: await meta('name', 'twitter:card'),
    twitterImage: await meta('name', 'twitter:image'),
  };
}

/** The eight bytes every PNG starts with. */
export const isPng = (b: Uint8Array): boolean =>
  Buffer.from(b.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
