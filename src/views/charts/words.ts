/**
 * The chart words a picture needs, already in the reader's language: charts
 * stay pure (no catalogue in the render worker). A word with a count comes in
 * the plural forms of its language, chosen here by Intl.PluralRules; `{n}`,
 * `{m}`, `{change}` and `{window}` are filled in by the chart.
 */
export interface ChartWords {
  readonly locale: string;
  readonly latest: string;
  readonly noData: string;
  readonly changeAfter: string;
  readonly scores: string;
  readonly na: string;
  readonly momentumSubtitle: string;
  readonly skipped: Readonly<Record<string, string>>;
  readonly linked: Readonly<Record<string, string>>;
  readonly strongest: string;
  /** The map's key: what size and width stand for; `{min}` and `{max}` filled in by the chart. */
  readonly sizeKey: string;
  readonly linkKey: string;
  /** The win-rate chart's x axis. */
  readonly timeAfter: string;
  /** The momentum chart's first column: the moment of the shill. */
  readonly shill: string;
  /** The price line's last point. */
  readonly now: string;
}

/** A template with its values; a plural word picks its form for `n`. */
export function fill(
  template: string | Readonly<Record<string, string>>,
  values: Readonly<Record<string, string | number>>,
  locale = 'en',
): string {
  const text =
    typeof template === 'string'
      ? template
      : (template[new Intl.PluralRules(locale).select(Number(values.n))] ?? template.other ?? '');
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
