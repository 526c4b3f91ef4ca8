/**
 * Lays a table out as aligned monospace lines. Widths are counted in terminal
 * columns (wide CJK and emoji take two), so columns line up in code blocks.
 */
import type { Column } from '../../domain/view.ts';
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
  const maxColumn = Math.min(opts.maxColumn ?? opts.width, opts.width);
  const widest = columns.map((_, i) => Math.max(displayWidth(labels[i]!), ...cells.map((r) => displayWidth(r[i]!))));
  let natural = widest.map((w) => Math.min(maxColumn, w));
  const oneLine = natural.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, natural.length - 1) <= opts.width;
  // A continuation line is indented: no column may be wider than what it leaves.
  if (!oneLine) natural = natural.map((w) => Math.min(w, opts.width - INDENT.length));
  // Too wide for one line: each row takes several lines rather than any value
  // being cut (a cut handle or price cannot be used). Only a value wider than a
  // whole line is still cut.
  const groups = lineGroups(columns, natural, opts.width);
  const lines = (values: readonly string[]): string =>
    groups
      .map(
        (g, n) =>
          (n > 0 ? INDENT : '') +
          g
            .map((i) => pad(cutWidth(values[i]!, natural[i]!), natural[i]!, columns[i]!.align ?? 'left'))
            .join(GAP)
            .trimEnd(),
      )
      .join('\n');
  const header = lines(labels);
  // Several lines per row: one rule under the whole header reads better than one per line.
  const rule =
    groups.length === 1
      ? natural.map((w) => '-'.repeat(w)).join(GAP)
      : '-'.repeat(Math.max(...header.split('\n').map((l) => displayWidth(l))));
  return {
    header,
    rule,
    rows: cells.map(lines),
  };
}

const INDENT = '  ';

/**
 * Column indexes per line of a row. One line when it fits; else the leading
 * columns up to the last left-aligned one (what names the row: rank, handle,
 * token) on the first line and the figures after, each line filled greedily.
 */
function lineGroups(columns: readonly Column[], widths: readonly number[], width: number): number[][] {
  const span = (g: readonly number[]) => g.reduce((a, i) => a + widths[i]!, 0) + GAP.length * Math.max(0, g.length - 1);
  const all = columns.map((_, i) => i);
  if (span(all) <= width) return [all];
  const lastText = columns.reduce((last, c, i) => ((c.align ?? 'left') === 'left' ? i : last), 0);
  const groups: number[][] = [];
  let current: number[] = [];
  for (const i of all) {
    const room = width - (groups.length > 0 ? INDENT.length : 0);
    const breakHere = groups.length === 0 && current.length > 0 && i === lastText + 1;
    if (current.length > 0 && (breakHere || span([...current, i]) > room)) {
      groups.push(current);
      current = [];
    }
    current.push(i);
  }
  groups.push(current);
  return groups;
}
