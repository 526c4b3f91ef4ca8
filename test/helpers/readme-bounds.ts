/**
 * The bounds the README's Security section promises, read from the README
 * itself: a cost test fails when the code allows more than the document says.
 */
import { readFileSync } from 'node:fs';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The "most upstream requests per user per minute" of the table row whose first cell is `entry`. */
export function readmeBound(entry: string): number {
  const row = README.split('\n').find((l) => l.startsWith(`| ${entry} |`));
  if (!row) throw new Error(`README has no bound for "${entry}"`);
  const n = Number(row.split('|')[2]?.trim());
  if (!Number.isInteger(n) || n <= 0) throw new Error(`README's bound for "${entry}" is not a number: ${row}`);
  return n;
}
