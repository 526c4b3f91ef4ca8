/** Small helpers for the benchmark: percentiles and a printed table. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summary(samples: readonly number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    mean: s.reduce((a, b) => a + b, 0) / (s.length || 1),
  };
}

export interface Row {
  readonly area: string;
  readonly metric: string;
  readonly value: string;
  readonly target?: string;
  readonly ok?: boolean;
}

export function printTable(rows: readonly Row[]): string {
  const head = ['area', 'metric', 'value', 'target', ''];
  const cells = rows.map((r) => [
    r.area,
    r.metric,
    r.value,
    r.target ?? '',
    r.ok === undefined ? '' : r.ok ? 'ok' : 'MISS',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

export const ms = (x: number, digits = 2) => `${x.toFixed(digits)} ms`;
