/**
 * Members' calls as views: the line under a pasted token's card ("Call
 * recorded", "First called by ..."), the /lb table and the /stats card. Figures
 * come from domain/board.ts; words from the catalogue's `board` group.
 */
import type { Recorded } from '../../core/membercalls.ts';
import { HIT_MULTIPLE } from '../../domain/score.ts';
import { MIN_CALLS_RANKED, scoreBoardCall, type CallerRow, type ScoredCall } from '../../domain/board.ts';
import type { Column, TextView } from '../../domain/view.ts';
import type { Call } from '../../store/calls.ts';
import { multiple } from './callLine.ts';
import { ticker } from './common.ts';
import { fmt, type Formats, type T } from './lang.ts';
import { capOf } from '../../core/membercalls.ts';
import type { CallCardInput } from '../charts/callCard.ts';
import { CHAIN_LABEL } from '../../domain/chains.ts';
import type { Action } from '../../domain/view.ts';

/** One line per token of the paste that was a call or a repeat; undefined when none (a cap reached, no market cap). */
export function callNote(recorded: readonly Recorded[], t: T, now: number): TextView | undefined {
  const f = fmt(t);
  const lines: string[] = [];
  for (const r of recorded) {
    const o = r.outcome;
    if (o.kind === 'recorded')
      lines.push(t('board.recorded', { name: o.call.member?.name ?? '?', mc: f.usd(o.call.marketCap) }));
    else if (o.kind === 'repeat') {
      const cap = capOf(r.found);
      const first = o.first;
      lines.push(
        t('board.firstBy', {
          name: first.member?.name ?? '?',
          ago: f.timeAgo(first.at, now),
          mc: f.usd(first.marketCap),
          multiple: cap !== null && first.marketCap ? multiple(cap / first.marketCap, f) : '-',
        }),
      );
    }
  }
  if (!lines.length) return undefined;
  const shown = recorded.flatMap((r) =>
    r.outcome.kind === 'recorded' ? [r.outcome.call] : r.outcome.kind === 'repeat' ? [r.outcome.first] : [],
  );
  return { kind: 'text', text: lines.join('\n'), actions: cardButtons(shown, t) };
}

/**
 * A "Call card" button per call (at most three): the picture, drawn when pressed and sent as a
 * message of its own, so the token card or the /stats it sits under stays as it was.
 */
export function cardButtons(calls: readonly Call[], t: T): Action[] {
  return calls.slice(0, 3).map((c) => ({
    label: t('board.pictureButton', { symbol: ticker(c.token.symbol, c.token.name) }),
    command: 'stats',
    options: { call: c.id },
    opensNew: true,
  }));
}

/** The call card's words and figures, in `t`'s language. */
export function callCardInput(c: Call, t: T, now: number): CallCardInput {
  const f = fmt(t);
  const s = scoreBoardCall(c);
  const latest = c.samples.at(-1)?.marketCap;
  const x = s?.now ?? 1;
  return {
    title: `${ticker(c.token.symbol, c.token.name)} · ${c.token.name || c.token.symbol} · ${CHAIN_LABEL[c.token.chain]}`,
    subtitle: t('board.cardCalledBy', { name: c.member?.name ?? '?', ago: f.timeAgo(c.at, now) }),
    multiple: multiple(x, f).replace(/ \(.*\)$/, ''),
    trend: x > 1.005 ? 'up' : x < 0.995 ? 'down' : 'flat',
    boxes: [
      { label: t('board.colAt'), value: f.usd(c.marketCap) },
      {
        label: t('board.colPeak'),
        value: f.usd(Math.max(c.marketCap ?? 0, c.peak ?? 0)),
        sub: multiple(s?.peak ?? 1, f),
      },
      latest === undefined
        ? { label: t('board.colNow'), value: '-', sub: t('board.cardNotYet') }
        : { label: t('board.colNow'), value: f.usd(latest), sub: multiple(x, f).replace(/ \(.*\)$/, '') },
    ],
    series: [c.marketCap ?? 0, ...c.samples.map((p) => p.marketCap)],
    footnote: t('board.cardFootnote'),
  };
}

const pct = (x: number, f: Formats) => f.pct(x * 100, 'percent', { decimals: 0 });
const best = (s: ScoredCall<Call>, f: Formats) =>
  `${ticker(s.call.token.symbol, s.call.token.name)} ${multiple(s.peak, f)}`;

export function boardColumns(t: T): Column[] {
  return [
    { key: 'n', label: '#', align: 'right' },
    { key: 'member', label: t('board.colMember') },
    { key: 'hit', label: t('board.colHit'), align: 'right' },
    { key: 'calls', label: t('board.colCalls'), align: 'right' },
    { key: 'median', label: t('board.colMedian'), align: 'right' },
    { key: 'best', label: t('board.colBest') },
  ];
}

export function boardRows(rows: readonly CallerRow<Call>[], offset: number, t: T): Record<string, string>[] {
  const f = fmt(t);
  return rows.map((r, i) => ({
    n: String(offset + i + 1),
    member: r.name,
    hit: pct(r.hitRate, f),
    calls: f.int(r.calls),
    median: multiple(r.medianPeak, f).replace(/ \(.*\)$/, ''),
    best: best(r.best, f),
  }));
}

/** "Ranked with at least 3 calls. Hit: a peak of 2x or more. ..." */
export function boardRule(t: T, min = MIN_CALLS_RANKED): string {
  return t('board.lbRule', { min: fmt(t).int(min), hit: multiple(HIT_MULTIPLE, fmt(t)) });
}

export function statsLine(r: CallerRow<Call>, t: T): string {
  const f = fmt(t);
  return t('board.statsLine', {
    count: f.int(r.calls),
    rate: pct(r.hitRate, f),
    best: best(r.best, f),
    worst: `${ticker(r.worst.call.token.symbol, r.worst.call.token.name)} ${multiple(r.worst.now ?? r.worst.peak, f)}`,
  });
}

export function statsColumns(t: T): Column[] {
  return [
    { key: 'token', label: t('board.colToken') },
    { key: 'when', label: t('board.colWhen') },
    { key: 'at', label: t('board.colAt'), align: 'right' },
    { key: 'peak', label: t('board.colPeak'), align: 'right' },
    { key: 'now', label: t('board.colNow'), align: 'right' },
  ];
}

export function statsRows(calls: readonly ScoredCall<Call>[], t: T, now: number): Record<string, string>[] {
  const f = fmt(t);
  return calls.map((s) => ({
    token: ticker(s.call.token.symbol, s.call.token.name),
    when: f.timeAgo(s.call.at, now),
    at: f.usd(s.call.marketCap),
    peak: multiple(s.peak, f).replace(/ \(.*\)$/, ''),
    now: s.now === null ? '-' : multiple(s.now, f).replace(/ \(.*\)$/, ''),
  }));
}
