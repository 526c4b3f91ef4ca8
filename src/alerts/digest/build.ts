/**
 * What a digest says: the period's most-shilled tokens by KOL mentions
 * (operation 2, new tokens through `newToken`), the KOLs with the best win
 * rates of the period (operation 5), and this destination's calls scorecard
 * (call tracking), with the calls as one picture. Gathered here as figures
 * (DigestData), which the outbox stores; views/cards/digest.ts says them in the
 * destination's language when the digest is sent.
 */
import type { Logger } from 'pino';
import type { KolClient } from '../../api/index.ts';
import type { ChainId } from '../../domain/chains.ts';
import type { T } from '../../i18n/index.ts';
import type { Formats } from '../../i18n/format.ts';
import type { CallStore } from '../../store/calls.ts';
import type { MemberCallStore } from '../../store/membercalls.ts';
import { MIN_CALLS_RANKED, rankCallers } from '../../domain/board.ts';
import { chatKeyOf } from '../../domain/destination.ts';
import type { Subscription } from '../../store/subscriptions.ts';
import type { ChartPool } from '../../domain/charts.ts';
import { CALLS_CHART_MAX_ROWS } from '../../views/charts/index.ts';
import { int, pct, usd } from '../../i18n/english.ts';
import type { CardView } from '../../domain/view.ts';
import type { DigestCaller, DigestCalls, DigestData, DigestKol, DigestTokens } from '../../store/outbox.ts';
import { digestCard } from '../../pictures/digest.ts';
import { DEFAULT_MIN_TOKENS, scoreCall, sortCalls, summarise } from '../../domain/score.ts';
import type { DigestPeriod } from './schedule.ts';
import type { Kv } from '../../store/strict.ts';
import { periodShills, type PeriodShills } from '../shills.ts';
import { currentCaps, keyOfToken } from '../current.ts';

const TOP = 5;
/** Distinct tokens a digest's scorecard reads now at most: a busy week stays a bounded digest. */
export const DIGEST_NOW_TOKENS = 50;
/** Operation 5 rows read for the best win rates: enough that TOP of them have a sample (DEFAULT_MIN_TOKENS). */
const WIN_RATE_ROWS = 30;

export interface DigestDeps {
  readonly api: KolClient;
  readonly calls?: CallStore;
  /** Members' calls: the chat's top callers of the period, where its board is on. */
  readonly members?: Pick<MemberCallStore, 'settings' | 'list'>;
  /** Draws buildDigest's picture; the outbox's digests are drawn by delivery when sent. */
  readonly charts?: ChartPool;
  readonly log: Logger;
  readonly budgetMs?: number;
  /** The watcher's state, where it counts the tokens it saw per hour (shills.ts); absent: operation 2's ranking. */
  readonly state?: Kv;
}

/**
 * The digest as the destination would read it now: its figures, said in `t`'s
 * language with the picture drawn. The outbox stores the figures (digestData);
 * delivery says them when it sends.
 */
export async function buildDigest(
  d: DigestDeps,
  sub: Subscription,
  period: DigestPeriod,
  t: T,
  late: boolean,
  f: Pick<Formats, 'usd' | 'pct' | 'int'> = { usd, pct, int },
  skipped = 0,
): Promise<CardView> {
  return digestCard(await digestData(d, sub, period, late, skipped), t, f, d.charts, d.log);
}

/** What the digest of `period` says, as figures; throws when the upstream answered nothing at all. */
export async function digestData(
  d: DigestDeps,
  sub: Subscription,
  period: DigestPeriod,
  late: boolean,
  /** Earlier periods not posted (one late digest stands for them): said, so nobody waits for them. */
  skipped = 0,
): Promise<DigestData> {
  const chain = sub.filters.chains.length === 1 ? (sub.filters.chains[0] as ChainId) : undefined;
  const hours = Math.max(1, Math.min(168, Math.round((period.at - period.from) / 3_600_000)));
  const weekly = period.key.startsWith('weekly');
  const opts = { budgetMs: d.budgetMs ?? 10_000, cache: 'bypass' as const };
  const [top, fresh, kols] = await Promise.allSettled([
    d.api.getTokenAnalytics(
      { sortField: 'mention', sortOrder: 'DESC', limit: TOP, ...(chain ? { chainId: chain } : {}) },
      opts,
    ),
    d.api.getTokenAnalytics(
      { sortField: 'mention', sortOrder: 'DESC', limit: 3, newToken: hours, ...(chain ? { chainId: chain } : {}) },
      opts,
    ),
    d.api.getKolWinRates(
      {
        sortField: weekly ? 'winRateAfter7d' : 'winRateAfter1d',
        sortOrder: 'DESC',
        limit: WIN_RATE_ROWS,
        startDate: new Date(period.from).toISOString(),
        endDate: new Date(period.at).toISOString(),
        ...(chain ? { chainId: chain } : {}),
      },
      opts,
    ),
  ]);
  // Nothing from the upstream at all: not posted now; the next check tries again (and says late).
  if (top.status === 'rejected' && kols.status === 'rejected') throw top.reason;
  const seen = d.state ? await periodShills(d.state, period.from, period.at) : undefined;
  const window = weekly ? 'win_rate_after7d' : 'win_rate_after1d';
  // Ranked like /winrate: a KOL with one lucky token does not lead the digest.
  const ranked: DigestKol[] | null =
    kols.status === 'fulfilled'
      ? kols.value.items
          .filter((k) => k.num_tokens_counted_win_rate >= DEFAULT_MIN_TOKENS)
          .slice(0, TOP)
          .map((k) => ({ username: k.x_user.username, rate: k[window] ?? null, tokens: k.num_tokens_counted_win_rate }))
      : null;
  const calls = await callsOf(d, sub, period);
  const callers = await callersOf(d, sub, period);
  return {
    weekly,
    from: period.from,
    at: period.at,
    tz: sub.digest?.tz ?? 'UTC',
    late,
    skipped,
    // The watcher's own counts when it read the feed all period; else the upstream's all-time ranking, said so.
    tokens: seen?.covered ? seenTokens(seen) : rankingTokens(top, fresh),
    kols: { min: DEFAULT_MIN_TOKENS, rows: ranked },
    calls,
    ...(callers ? { callers } : {}),
  };
}

/** The chat's top callers of the period (members' calls, ranked as /lb ranks them); none where its board is off. */
async function callersOf(d: DigestDeps, sub: Subscription, period: DigestPeriod): Promise<DigestData['callers']> {
  if (!d.members) return undefined;
  const board = chatKeyOf(sub);
  try {
    if (!(await d.members.settings(board)).on) return undefined;
    const calls = (await d.members.list(board, period.from)).filter((c) => c.at < period.at);
    const rows = rankCallers(calls)
      .slice(0, TOP)
      .map(
        (r): DigestCaller => ({
          name: r.name,
          hitRate: r.hitRate,
          calls: r.calls,
          best: { symbol: r.best.call.token.symbol, multiple: r.best.peak },
        }),
      );
    return { min: MIN_CALLS_RANKED, rows };
  } catch {
    // The store did not answer: the digest goes out without its callers rather than not at all.
    return { min: MIN_CALLS_RANKED, rows: null };
  }
}

type Ranking = PromiseSettledResult<Awaited<ReturnType<KolClient['getTokenAnalytics']>>>;

/** Operation 2's all-time mention ranking, with the period's new tokens: when the watcher did not see the whole period. */
function rankingTokens(top: Ranking, fresh: Ranking): DigestTokens {
  if (top.status !== 'fulfilled') return { source: 'ranking', rows: null };
  const newIds = new Set(fresh.status === 'fulfilled' ? fresh.value.items.map((i) => i.token.id) : []);
  const items = [
    ...top.value.items,
    ...(fresh.status === 'fulfilled'
      ? fresh.value.items.filter((i) => !top.value.items.some((j) => j.token.id === i.token.id))
      : []),
  ];
  return {
    source: 'ranking',
    rows: items.map((i) => ({
      symbol: i.token.symbol,
      fresh: newIds.has(i.token.id),
      mentions: Number(i.mention) || 0,
      marketCap: i.marketcap,
    })),
  };
}

function seenTokens(seen: PeriodShills): DigestTokens {
  return {
    source: 'seen',
    rows: seen.tokens.slice(0, TOP).map((s) => ({ symbol: s.symbol, chain: s.chain, tweets: s.n })),
  };
}

/**
 * The calls scorecard: this destination's calls alerted in the period, scored as
 * `/calls` scores them, and the rows of their picture. A section of its own: the
 * digest stands without it when no call store is running.
 */
async function callsOf(d: DigestDeps, sub: Subscription, period: DigestPeriod): Promise<DigestCalls> {
  if (!d.calls) return { state: 'off' };
  const calls = (await d.calls.list(sub.id, period.from)).filter((c) => c.at < period.at);
  if (!calls.length) return { state: 'none' };
  // As of the digest, not of the last follow-up: a token that tripled since shows it. One
  // request per distinct token (cached, so digests posted together share them), the best by
  // their stored figures first, at most DIGEST_NOW_TOKENS.
  const stored = sortCalls(
    calls.map((c) => scoreCall(c)),
    'best',
  );
  const live = await currentCaps(
    d.api,
    stored.map((r) => r.call.token),
    DIGEST_NOW_TOKENS,
    {
      budgetMs: d.budgetMs ?? 10_000,
      log: d.log,
      // A slow upstream does not hold the digest: what is unanswered by then keeps its last follow-up.
      signal: AbortSignal.timeout(3 * (d.budgetMs ?? 10_000)),
      cache: 'use',
    },
  );
  const scored = calls.map((c) => scoreCall(c, { current: live.caps.get(keyOfToken(c.token)) }));
  const s = summarise(scored);
  const partial = live.read < live.tokens;
  return {
    state: 'scored',
    calls: s.calls,
    hitRate: s.hitRate,
    best: s.best ? { symbol: s.best.call.token.symbol, multiple: s.best.peak! } : null,
    ...(partial ? { partial: { live: live.read, tokens: live.tokens } } : {}),
    rows: sortCalls(scored, 'best')
      .filter((r) => r.peak !== null && r.now !== null)
      .slice(0, CALLS_CHART_MAX_ROWS)
      .map((r) => ({ symbol: r.call.token.symbol, kol: r.call.kols[0] ?? '?', peak: r.peak!, now: r.now! })),
  };
}
