/**
 * Lays a table out as aligned monospace lines. Widths are counted in terminal
 * columns (wide CJK and emoji take two), so columns line up in code blocks.
 */
import type { Column } from '../model.ts';
import { clean, cutWidth, displayWidth, pad, singleLine } from '../text.ts';

export interface TableLines {
  readonly header: string;
  readonly rule: string;
  readonly rows: string[];
}

export interface TableOptions {
  /** Widest a whole line may be, in columns. */
  readonly width: number;
  /** Widest a single column may be, in columns. */
  readonly maxColumn?: number;
  /** Platform-specific cleaning of a cell after the common one (e.g. no backticks inside a Discord code block). */
  readonly cell?: (text: string) => string;
}

const GAP = '  ';
const MIN_COLUMN = 3;

export function layoutTable(
  columns: readonly Column[],
  rows: readonly Readonly<Record<string, string>>[],
  opts: TableOptions,
): TableLines {
  const prep = (text: string | undefined): string => {
    const plain = singleLine(clean(text ?? ''));
    return opts.cell ? opts.cell(plain) : plain;
  };
  const labels = columns.map((c) => prep(c.label));
  const cells = rows.map((row) => columns.map((c) => prep(row[c.key])));
  const maxColumn = opts.maxColumn ?? opts.width;
  const widths = columns.map((_, i) =>
    Math.min(maxColumn, Math.max(displayWidth(labels[i]!), ...cells.map((r) => displayWidth(r[i]!)))),
  );
  // Narrow the widest column until the line fits (or every column is at its minimum).
  const total = (): number => widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);
  while (total() > opts.width) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]! -= 1;
  }
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => pad(cutWidth(v, widths[i]!), widths[i]!, columns[i]!.align ?? 'left'))
      .join(GAP)
      .trimEnd();
  return {
    header: line(labels),
    rule: widths.map((w) => '-'.repeat(w)).join(GAP),
    rows: cells.map(line),
  };
}
