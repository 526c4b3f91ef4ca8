import { byKol, MIN_KOL_CALLS, scoreCall, sortCalls, summarise } from '../src/domain/score.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { PermissionError } from '../src/core/errors.ts';
import { opt } from '../src/core/options.ts';
import { formats } from '../src/i18n/format.ts';
import { subscriptionId } from '../src/store/subscriptions.ts';
import { currentCaps, keyOfToken } from '../src/alerts/current.ts';
import { MAX_REQUESTS_PER_COMMAND } from '../src/core/budget.ts';
import { callColumns, callRows, callsChart, kolColumns, kolRows, summaryLine } from '../src/views/cards/calls.ts';
import { offsetActions, rangeText } from '../src/views/cards/paging.ts';
import { callsPicture } from '../src/pictures/cards.ts';
import { withPicture } from '../src/pictures/draw.ts';
import type { View } from '../src/domain/view.ts';

const PERIOD_MS = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, all: Infinity } as const;
const PAGE = 10;
/** Distinct tokens whose market cap is read now: the command's whole upstream cap (it asks nothing else). */
const NOW_LOOKUPS = MAX_REQUESTS_PER_COMMAND;

const options = {
  action: opt.choice(['show', 'clear'], {
    positional: true,
    noun: 'action',
  }),
  period: opt.choice(['24h', '7d', '30d', 'all'], {
    noun: 'period',
    default: '7d',
    aliases: { day: '24h', '1d': '24h', week: '7d', month: '30d' },
  }),
  sort: opt.choice(['best', 'recent', 'worst'], {
    noun: 'sort',
    default: 'best',
  }),
  kol: opt.string({
    pattern: /^@?[A-Za-z0-9_]{1,15}$/,
    hint: 'username',
    example: '@cobie',
  }),
  by: opt.choice(['call', 'kol'], {
    noun: 'ranking',
    aliases: { calls: 'call', kols: 'kol' },
  }),
  min_calls: opt.integer({
    min: 1,
    max: 1000,
    default: MIN_KOL_CALLS,
  }),
  offset: opt.integer({ min: 0, default: 0, internal: true }),
};

async function clear(ctx: CommandContext, subId: string): Promise<View> {
  if (!(await ctx.caller.canManage())) throw new PermissionError(ctx.t('calls.adminsOnly'));
  const n = await ctx.store.calls.clear(subId);
  return { kind: 'text', text: ctx.t('calls.cleared', { count: n }) };
}

export default {
  name: 'calls',
  options,
  chatSettings: true,
  examples: ['/calls', '/calls period:30d sort:worst', '/calls by:kol', '/calls kol:@cobie', '/calls clear'],
  async run(input, ctx): Promise<View> {
    const subId = subscriptionId(ctx.caller.platform, ctx.caller.chatId, ctx.caller.threadId);
    if (input.action === 'clear') return clear(ctx, subId);
    const now = ctx.now();
    const t = ctx.t;
    const f = formats(ctx.locale);
    const period = input.period ?? '7d';
    const kol = input.kol?.replace(/^@/, '').toLowerCase();
    const calls = (await ctx.store.calls.list(subId, now - PERIOD_MS[period])).filter(
      (c) => !kol || c.kols.includes(kol),
    );
    if (!calls.length) return { kind: 'text', text: kol ? t('calls.noneKol', { kol }) : t('calls.none') };
    const offset = input.offset ?? 0;
    const sort = input.sort ?? 'best';
    // "Now" is now: the tokens this page shows first (as their stored figures sort), then the
    // period's most recent, one cached operation-2 request per distinct token within the cap.
    const stored = calls.map((c) => scoreCall(c));
    const first = input.by === 'kol' ? [] : sortCalls(stored, sort).slice(offset, offset + PAGE);
    const recent = [...calls].sort((a, b) => b.at - a.at);
    const live = await currentCaps(
      ctx.api,
      [...first.map((s) => s.call.token), ...recent.map((c) => c.token)],
      NOW_LOOKUPS,
      // The whole read within the command's budget: what is not answered by then keeps its sample.
      {
        budgetMs: ctx.budgetMs,
        log: ctx.log,
        signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.budgetMs)]),
        cache: 'use',
      },
    );
    const scored = calls.map((c) => scoreCall(c, { current: live.caps.get(keyOfToken(c.token)) }));
    const summary = summarise(scored);
    // The reads made, whatever they found (a cap, 0, or no token): a rugged token was read too.
    const liveNote =
      live.read < live.tokens
        ? t('calls.nowPartial', { live: f.int(live.read), tokens: f.int(live.tokens) })
        : undefined;
    const described = (line: string) => [line, liveNote].filter(Boolean).join('\n');
    const periodText = period === 'all' ? t('calls.periodAll') : t('calls.periodLast', { period });
    if (input.by === 'kol') {
      const min = input.min_calls ?? MIN_KOL_CALLS;
      const ranked = byKol(scored).filter((r) => r.summary.calls >= min);
      const rows = ranked.slice(offset, offset + PAGE);
      const page = { offset, limit: PAGE, shown: rows.length, total: ranked.length };
      const stated = t(ranked.length ? 'calls.kolsMin' : 'calls.kolsNoneMin', { min: f.int(min) });
      return {
        kind: 'table',
        title: t('calls.titleByKol', { period: periodText }),
        description: described(`${summaryLine(summary, t, f)}\n${stated}`),
        columns: kolColumns(t),
        rows: kolRows(rows, offset, f, t),
        footer: rangeText(page, t),
        actions: offsetActions('calls', input, page, t),
      };
    }
    const sorted = sortCalls(scored, sort);
    const rows = sorted.slice(offset, offset + PAGE);
    const page = { offset, limit: PAGE, shown: rows.length, total: sorted.length };
    const title = `${t('calls.title', { period: periodText })}${kol ? ` · @${kol}` : ''}`;
    const table: View = {
      kind: 'table',
      title,
      description: described(summaryLine(summary, t, f)),
      columns: callColumns(t),
      rows: callRows(rows, offset, f, now, { gone: live.gone, t }),
      notes: [t('calls.peakNote')],
      footer: rangeText(page, t),
      actions: offsetActions('calls', input, page, t),
    };
    // The picture shows the whole period, so it is drawn with the first page only.
    if (offset > 0) return table;
    const chartTitle = `${t('calls.chartTitle', { period: periodText })}${kol ? ` · @${kol}` : ''}`;
    return withPicture(table, await callsPicture(ctx, callsChart(scored, summary, chartTitle, t, f)));
  },
} satisfies Command<typeof options>;
