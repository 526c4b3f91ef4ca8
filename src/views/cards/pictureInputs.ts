/**
 * API results turned into chart inputs: pure builders (data and a translator
 * in, a chart's input out), so a test or the bench can build any picture's
 * input without a pool. Drawing them, and reusing recent drawings, is the
 * pictures service's (src/pictures/).
 */
import type {
  KolScore,
  KolTokenItem,
  KolTokensResult,
  MindmapGraph,
  TokenAnalyticsItem,
  TokenSummary,
} from '../../api/index.ts';
import { type ResolvedKol, kolRef } from '../../core/resolve.ts';
import type { MindmapInput, MomentumInput, PriceStripInput, WinRateInput } from '../charts/index.ts';
import { priceLine } from '../charts/index.ts';
import { decimalRatio } from '../charts/decimal.ts';
import type { ChartWords } from '../charts/words.ts';
import { languageOf } from '../../i18n/index.ts';
import { ticker } from './common.ts';
import { fmt, type T } from './lang.ts';
import { WINDOWS } from './windows.ts';

/** Lines the momentum chart can tell apart (one per colour). */
export const MOMENTUM_MAX_TOKENS = 8;

/** A number whose plural category in `locale` is `category` (1 for one, 2 for few, 5 for many...). */
function sampleOf(locale: string, category: string): number {
  const rules = new Intl.PluralRules(locale);
  for (let n = 0; n < 200; n++) if (rules.select(n) === category) return n;
  return 100;
}

/** A plural word as templates per category, `{n}` left for the chart to fill. */
function plural(t: T, key: 'chart.skipped' | 'chart.linked'): Record<string, string> {
  const locale = languageOf(t);
  const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  return Object.fromEntries(forms.map((c) => [c, t(key, { count: sampleOf(locale, c), n: '{n}' })]));
}

/** The chart's own words in `t`'s language. */
export function chartWords(t: T): ChartWords {
  return {
    locale: languageOf(t),
    latest: t('chart.latest'),
    noData: t('chart.noData'),
    changeAfter: t('chart.changeAfter', { change: '{change}', window: '{window}' }),
    scores: t('chart.scores'),
    na: t('chart.na'),
    momentumSubtitle: t('chart.momentumSubtitle'),
    skipped: plural(t, 'chart.skipped'),
    linked: plural(t, 'chart.linked'),
    strongest: t('chart.strongest', { n: '{n}', m: '{m}' }),
    sizeKey: t('chart.sizeKey', { min: '{min}', max: '{max}' }),
    linkKey: t('chart.linkKey', { min: '{min}', max: '{max}' }),
    timeAfter: t('chart.timeAfter'),
    shill: t('chart.shill'),
    now: t('calls.legendNow'),
  };
}

// ---- /mindmap (operation 1) ----

export function mindmapChart(graph: MindmapGraph, centre: TokenSummary | undefined, hours: number, t: T): MindmapInput {
  const centerId = centre?.id ?? graph.nodes[0]?.id ?? '0';
  // Tokens sharing a symbol would read as one: their labels use the name, and the chain if that is shared too.
  const norm = (s: string) => s.trim().toLowerCase();
  const count = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
  const all = Object.values(graph.tokens);
  const symbols = count(all.map((t) => norm(t.symbol)));
  const names = count(all.map((t) => `${norm(t.symbol)}\u0000${norm(t.name)}`));
  const tokens = Object.fromEntries(
    Object.entries(graph.tokens).map(([id, t]) => {
      if (id === centerId || norm(t.symbol) === '' || norm(t.name) === '' || (symbols.get(norm(t.symbol)) ?? 0) < 2)
        return [id, t];
      const sameName = (names.get(`${norm(t.symbol)}\u0000${norm(t.name)}`) ?? 0) > 1;
      return [id, { symbol: sameName ? `${t.name.trim()} (${t.chain_id})` : t.name.trim(), name: t.name }];
    }),
  );
  return {
    centerId,
    nodes: graph.nodes,
    edges: graph.edges,
    tokens,
    title: t('chart.mindmapTitle', { name: centre ? ticker(centre.symbol, centre.name) : t('chart.token'), hours }),
    words: chartWords(t),
  };
}

// ---- /kol: win rate (operation 4's summary) with scores (operation 6) ----

export interface WinRateChartInput {
  readonly kol: ResolvedKol;
  readonly score: KolScore;
  readonly momentum: Pick<KolTokensResult, 'summary' | 'total'>;
}

export function winRateChart({ kol, score: s, momentum }: WinRateChartInput, t: T): WinRateInput {
  const { int, score: scoreText } = fmt(t);
  // With no token counted the API's zeros mean "unknown", not "never won".
  const values = Object.fromEntries(
    WINDOWS.map((w) => [w.label, momentum.total > 0 ? (momentum.summary[w.summaryKey] ?? null) : null]),
  );
  const ref = kolRef(kol);
  const display = kol.row?.display_name.trim();
  const who = display && display.toLowerCase() !== kol.username?.toLowerCase() ? `${display} (${ref})` : ref;
  return {
    title: t('chart.winRateTitle', { who }),
    subtitle: t('chart.winRateSubtitle', { count: momentum.total, n: int(momentum.total) }),
    summary: values,
    scale: 'fraction',
    words: chartWords(t),
    scores: [
      { label: t('chart.scoreV2'), value: scoreText(s.score_v2) },
      { label: t('chart.rankV2'), value: `#${int(s.position_by_score_v2)}` },
      { label: t('chart.score'), value: scoreText(s.score) },
      { label: t('chart.accuracy'), value: scoreText(s.accuracy_score) },
      { label: t('chart.speed'), value: scoreText(s.speed_score) },
      { label: t('chart.engagement'), value: scoreText(s.engagement_score) },
      { label: t('chart.legality'), value: scoreText(s.legality_score) },
      { label: t('chart.active'), value: scoreText(s.active_score) },
      { label: t('chart.shilledTokens'), value: int(s.num_shill_tokens) },
    ],
  };
}

// ---- /momentum: price after the shill per token (operation 4 items) ----

/**
 * The tokens worth a line, most telling first: in the order the user sorted by,
 * or for the default "recent" order by the size of the latest known move.
 * Tokens with no window passed yet (or, under a window sort, not that window)
 * have nothing to draw and are left out.
 */
export function momentumChart(
  title: string,
  items: readonly KolTokenItem[],
  sort: string,
  now: number,
  t: T,
): MomentumInput {
  const { timeAgo } = fmt(t);
  // A window that has not passed yet has no real price in the API.
  const known = (item: KolTokenItem) => {
    const shill = Date.parse(item.shill_timestamp);
    return WINDOWS.filter(
      (w) =>
        (!Number.isFinite(shill) || shill + w.ms <= now) &&
        decimalRatio(item[w.priceKey] ?? '', item.price_init) !== null,
    );
  };
  const latestMove = (item: KolTokenItem): number => {
    const w = known(item).at(-1);
    const r = w ? decimalRatio(item[w.priceKey]!, item.price_init)! : 1;
    return r > 0 ? Math.abs(Math.log(r)) : Infinity;
  };
  const sortedWindow = WINDOWS.find((w) => w.label === sort);
  const drawable = items.filter((i) => {
    const k = known(i);
    return k.length > 0 && (!sortedWindow || k.includes(sortedWindow));
  });
  const picked = sort === 'recent' ? [...drawable].sort((a, b) => latestMove(b) - latestMove(a)) : drawable;
  const top = picked.slice(0, MOMENTUM_MAX_TOKENS);
  // One symbol twice in the legend: told apart by chain, and by when when the chain is the same too.
  const seen = new Map<string, number>();
  const chainsOf = new Map<string, Set<string>>();
  for (const i of top) {
    seen.set(`${i.token_symbol}|${i.token_chain_id}`, (seen.get(`${i.token_symbol}|${i.token_chain_id}`) ?? 0) + 1);
    chainsOf.set(i.token_symbol, (chainsOf.get(i.token_symbol) ?? new Set()).add(i.token_chain_id));
  }
  const order = sort === 'recent' ? t('chart.biggestFirst') : t('lists.sortedBy', { sort });
  return {
    title,
    subtitle: t('chart.momentumRelative', { count: top.length, n: top.length, order }),
    words: chartWords(t),
    maxTokens: MOMENTUM_MAX_TOKENS,
    tokens: top.map((item) => {
      const open = new Set(known(item).map((w) => w.label));
      const symbol = ticker(item.token_symbol, item.token_name);
      const chain = (chainsOf.get(item.token_symbol)?.size ?? 0) > 1 ? ` · ${item.token_chain_id}` : '';
      const twice = (seen.get(`${item.token_symbol}|${item.token_chain_id}`) ?? 0) > 1;
      return {
        symbol: `${symbol}${chain}${twice ? ` · ${timeAgo(item.shill_timestamp, now)}` : ''}`,
        priceInit: item.price_init,
        after: Object.fromEntries(WINDOWS.map((w) => [w.label, open.has(w.label) ? (item[w.priceKey] ?? null) : null])),
      };
    }),
  };
}

// ---- /token: price change strip (operation 2's changes) ----

/** The day's price line, or undefined where it would say nothing the card's text does not. */
export function priceStripChart(item: TokenAnalyticsItem, t: T): PriceStripInput | undefined {
  if (!priceLine(item.changes)) return undefined;
  const symbol = ticker(item.token.symbol, item.token.name);
  return { symbol, changes: item.changes, title: t('chart.priceTitle', { symbol }), words: chartWords(t) };
}
