/**
 * The compact token card of automatic answers and inline results: two lines a
 * token, so a paste gets a short threaded answer rather than a wall of text.
 * Up to three tokens get a card each; more become a one-line-each list.
 */
import { CHAIN_LABEL, explorerTokenUrl } from '../../domain/chains.ts';
import type { FoundToken } from '../../core/lookup.ts';
import type { Action, Rich, Span, TextView } from '../../domain/view.ts';
import { ticker } from './common.ts';
import { fmt, type T } from './lang.ts';

export const COMPACT_MAX = 3;

export function compactLines(f: FoundToken, tr: T): Span[] {
  const { compact, pct, score, usd } = fmt(tr);
  const t = f.item.token;
  const c = f.item.changes;
  return [
    { b: `${ticker(t.symbol, t.name)} · ${t.name || t.symbol}` },
    ` · ${CHAIN_LABEL[f.chain]} · `,
    { link: tr('compact.explorer'), url: explorerTokenUrl(f.chain, t.address) },
    '\n',
    { code: t.address },
    `\n${tr('compact.market', { mc: usd(f.item.marketcap), liq: usd(f.item.liquidity), h1: pct(c.h1, 'percent', { sign: true }), h24: pct(c.h24, 'percent', { sign: true }) })}`,
    `\n${tr('compact.social', { mentions: compact(f.item.mention), smart: compact(f.item.smart_follower), score: score(f.item.score_v2) })}`,
  ];
}

function listLine(f: FoundToken, tr: T): Span[] {
  const { pct, usd } = fmt(tr);
  const t = f.item.token;
  return [
    { b: ticker(t.symbol, t.name) },
    ` ${f.chain} · ${tr('compact.line', { mc: usd(f.item.marketcap), h24: pct(f.item.changes.h24, 'percent', { sign: true }) })} · `,
    { code: t.address },
  ];
}

/** One message for every token found in a paste; a "Card" button each opens the full card. */
export function compactCards(found: readonly FoundToken[], tr: T): TextView {
  const cards = found.length <= COMPACT_MAX;
  const spans: Span[] = cards ? [] : [`${tr('lookup.moreTokens', { count: found.length })}\n`];
  found.forEach((f, i) => {
    if (i > 0) spans.push(cards ? '\n\n' : '\n');
    spans.push(...(cards ? compactLines(f, tr) : listLine(f, tr)));
  });
  const actions: Action[] = found.slice(0, COMPACT_MAX).map((f) => ({
    label: tr('lookup.fullCard', { symbol: ticker(f.item.token.symbol, f.item.token.name) }),
    command: 'token',
    options: { chain: f.chain, address: f.item.token.address },
  }));
  return { kind: 'text', text: spans satisfies Rich, actions };
}
