/**
 * What a digest says: the period's most-shilled tokens by KOL mentions
 * (operation 2, new tokens through `newToken`), the KOLs with the best win
 * rates of the period (operation 5), and this destination's calls scorecard
 * (call tracking), with the calls as one picture.
 */
import type { Logger } from 'pino';
import type { KolClient } from '../../api/index.ts';
import type { ChainId } from '../../domain/chains.ts';

import { clockText, localTime } from '../../domain/zoned.ts';
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
import type { CardView, Field, Picture } from '../../domain/view.ts';
import { DEFAULT_MIN_TOKENS, HIT_MULTIPLE, scoreCall, sortCalls, summarise } from '../../domain/score.ts';
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
  readonly charts?: ChartPool;
  readonly log: Logger;
  readonly budgetMs?: number;
  /** The watcher's state, where it counts the tokens it saw per hour (shills.ts); absent: operation 2's ranking. */
  readonly state?: Kv;
}

const x = (m: number) => `${m >= 10 ? m.toFixed(0) : m.toFixed(2)}x`;

export async function buildDigest(
  d: DigestDeps,
  sub: Subscription,
  period: DigestPeriod,
  t: T,
  late: boolean,
  f: Pick<Formats, 'usd' | 'pct' | 'int'> = { usd, pct, int },
  /** Earlier periods not posted (one late digest stands for them): said, so nobody waits for them. */
  skipped = 0,
): Promise<CardView> {
  const tz = sub.digest?.tz ?? 'UTC';
  const chain = sub.filters.chains.length === 1 ? (sub.filters.chains[0] as ChainId) : undefined;
  const hours = Math.max(1, Math.min(168, Math.round((period.at - period.from) / 3_600_000)));
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
        sortField: period.key.startsWith('weekly') ? 'winRateAfter7d' : 'winRateAfter1d',
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
  const fields: Field[] = [];
  const seen = d.state ? await periodShills(d.state, period.from, period.at) : undefined;
  // The watcher's own counts when it read the feed all period; else the upstream's all-time ranking, said so.
  fields.push(seen?.covered ? seenField(seen, t, f) : rankingField(top, fresh, t, f));
  const weekly = period.key.startsWith('weekly');
  const window = weekly ? 'win_rate_after7d' : 'win_rate_after1d';
  // Ranked like /winrate: a KOL with one lucky token does not lead the digest.
  const ranked =
    kols.status === 'fulfilled'
      ? kols.value.items.filter((k) => k.num_tokens_counted_win_rate >= DEFAULT_MIN_TOKENS).slice(0, TOP)
      : [];
  fields.push({
    name: t('digest.kolsOver', { window: weekly ? '7d' : '24h', min: f.int(DEFAULT_MIN_TOKENS) }),
    value:
      kols.status === 'fulfilled'
        ? ranked
            .map(
              (k) =>
                `@${k.x_user.username} · ${t('digest.winRateOf', { rate: f.pct(k[window] ?? null, 'fraction'), n: f.int(k.num_tokens_counted_win_rate) })}`,
            )
            .join('\n') || t('digest.none')
        : t('digest.unavailable'),
  });
  const scorecard = await callsSection(d, sub, period, t, f);
  fields.push(scorecard.field);
  const callers = await callersField(d, sub, period, t, f);
  if (callers) fields.push(callers);
  const l = localTime(period.at, tz);
  const from = localTime(period.from, tz);
  const date = (p: typeof l) =>
    `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')} ${clockText(p.hour * 60 + p.minute)}`;
  return {
    kind: 'card',
    title: t(period.key.startsWith('weekly') ? 'digest.titleWeekly' : 'digest.titleDaily'),
    ...(late
      ? {
          description: [
            t('digest.late', { time: `${date(l)} ${tz}` }),
            ...(skipped > 0 ? [t('digest.skipped', { count: skipped, n: String(skipped) })] : []),
          ].join(' '),
        }
      : {}),
    fields,
    footer: t('digest.footer', { from: date(from), to: date(l), tz }),
    colour: late ? 'warn' : 'brand',
    ...(scorecard.picture ? { picture: scorecard.picture } : {}),
  };
}

/** The chat's top callers of the period (members' calls, ranked as /lb ranks them); none where its board is off. */
async function callersField(
  d: DigestDeps,
  sub: Subscription,
  period: DigestPeriod,
  t: T,
  f: Pick<Formats, 'pct' | 'int'>,
): Promise<Field | undefined> {
  if (!d.members) return undefined;
  const board = chatKeyOf(sub);
  try {
    if (!(await d.members.settings(board)).on) return undefined;
    const calls = (await d.members.list(board, period.from)).filter((c) => c.at < period.at);
    const top = rankCallers(calls).slice(0, TOP);
    return {
      name: t('digest.topCallers', { min: f.int(MIN_CALLS_RANKED) }),
      value:
        top
          .map((r) =>
            t('digest.callerLine', {
              name: r.name,
              rate: f.pct(r.hitRate, 'fraction'),
              n: f.int(r.calls),
              best: `${r.best.call.token.symbol} ${x(r.best.peak)}`,
            }),
          )
          .join('\n') || t('digest.none'),
    };
  } catch {
    // The store did not answer: the digest goes out without its callers rather than not at all.
    return { name: t('digest.topCallers', { min: f.int(MIN_CALLS_RANKED) }), value: t('digest.unavailable') };
  }
}

type Ranking = PromiseSettledResult<Awaited<ReturnType<KolClient['getTokenAnalytics']>>>;

/** Operation 2's all-time mention ranking, with the period's new tokens: when the watcher did not see the whole period. */
function rankingField(top: Ranking, fresh: Ranking, t: T, f: Pick<Formats, 'usd' | 'int'>): Field {
  const tokenLines: string[] = [];
  if (top.status === 'fulfilled') {
    const newIds = new Set(fresh.status === 'fulfilled' ? fresh.value.items.map((i) => i.token.id) : []);
    const items = [
      ...top.value.items,
      ...(fresh.status === 'fulfilled'
        ? fresh.value.items.filter((i) => !top.value.items.some((j) => j.token.id === i.token.id))
        : []),
    ];
    for (const i of items) {
      const mentions = Number(i.mention) || 0;
      tokenLines.push(
        `${i.token.symbol}${newIds.has(i.token.id) ? ` (${t('digest.newToken')})` : ''} · ${t('digest.mentions', { count: mentions, n: f.int(mentions) })} · ${f.usd(i.marketcap)}`,
      );
    }
  }
  return {
    name: t('digest.tokensRanking'),
    value: top.status === 'fulfilled' ? tokenLines.join('\n') || t('digest.none') : t('digest.unavailable'),
  };
}

function seenField(seen: PeriodShills, t: T, f: Pick<Formats, 'int'>): Field {
  const lines = seen.tokens
    .slice(0, TOP)
    .map((s) => `${s.symbol} · ${s.chain} · ${t('digest.tweets', { count: s.n, n: f.int(s.n) })}`);
  return { name: t('digest.tokensSeen'), value: lines.join('\n') || t('digest.none') };
}

/**
 * The calls scorecard: this destination's calls alerted in the period, scored as
 * `/calls` scores them, and their picture. A section of its own: the digest
 * stands without it when no call store is running.
 */
async function callsSection(
  d: DigestDeps,
  sub: Subscription,
  period: DigestPeriod,
  t: T,
  f: Pick<Formats, 'pct' | 'int'>,
): Promise<{ field: Field; picture?: Picture }> {
  if (!d.calls) return { field: { name: t('digest.calls'), value: t('digest.unavailable') } };
  const calls = (await d.calls.list(sub.id, period.from)).filter((c) => c.at < period.at);
  if (!calls.length) return { field: { name: t('digest.calls'), value: t('digest.callsNone') } };
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
  const best = s.best ? `${s.best.call.token.symbol} ${x(s.best.peak!)}` : t('calls.nothingMoved');
  const field = {
    name: t('digest.calls'),
    value: t('digest.callsLine', {
      calls: s.calls,
      hit: s.hitRate === null ? '-' : f.pct(s.hitRate, 'fraction'),
      best,
    }),
  };
  if (live.asked < live.tokens || live.caps.size + live.gone.size < live.tokens)
    field.value += `\n${t('calls.nowPartial', { live: f.int(live.caps.size), tokens: f.int(live.tokens) })}`;
  const rows = sortCalls(scored, 'best')
    .filter((r) => r.peak !== null && r.now !== null)
    .slice(0, CALLS_CHART_MAX_ROWS)
    .map((r) => ({
      label: `${r.call.token.symbol} · @${r.call.kols[0] ?? '?'}`,
      peak: r.peak!,
      now: r.now!,
      figures: `${x(r.peak!)} · ${x(r.now!)}`,
    }));
  if (!rows.length || !d.charts) return { field };
  try {
    const png = await d.charts.draw('calls', {
      title: t('digest.calls'),
      subtitle: String(field.value),
      rows,
      threshold: HIT_MULTIPLE,
      legend: { peak: t('calls.legendPeak'), now: t('calls.legendNow') },
    });
    return { field, picture: { png, name: 'digest.png', alt: t('digest.calls') } };
  } catch (err) {
    // A picture is decoration: the digest goes without it.
    d.log.warn({ err }, 'digest picture not drawn');
    return { field };
  }
}
