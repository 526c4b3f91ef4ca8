/**
 * The bounds the security page (docs/security.md, "What one user can cost the
 * upstream") promises, read from that page itself: a cost test fails when the
 * code allows more than the document says.
 */
import { readFileSync } from 'node:fs';

const PAGE = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');

/** The "most upstream requests per user per minute" of the table row whose first cell is `entry`. */
export function readmeBound(entry: string): number {
  const row = PAGE.split('\n').find((l) => l.startsWith(`| ${entry} |`));
  if (!row) throw new Error(`docs/security.md has no bound for "${entry}"`);
  const n = Number(row.split('|')[2]?.trim());
  if (!Number.isInteger(n) || n <= 0) throw new Error(`The bound for "${entry}" is not a number: ${row}`);
  return n;
}
