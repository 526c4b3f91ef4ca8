/**
 * The compact token card of automatic answers and inline results: two lines a
 * token, so a paste gets a short threaded answer rather than a wall of text.
 * Up to three tokens get a card each; more become a one-line-each list.
 */
import { CHAIN_LABEL, explorerTokenUrl } from '../../core/chains.ts';
import type { FoundToken } from '../../core/lookup.ts';
import { LOOKUP_TEXT } from '../../core/lookup-text.ts';
import { compact, pct, score, usd } from '../format.ts';
import type { Action, Rich, Span, TextView } from '../model.ts';
import { ticker } from './common.ts';

export const COMPACT_MAX = 3;

export function compactLines(f: FoundToken): Span[] {
  const t = f.item.token;
  const c = f.item.changes;
  return [
    { b: `${ticker(t.symbol, t.name)} · ${t.name || t.symbol}` },
    ` · ${CHAIN_LABEL[f.chain]} · `,
    { link: 'explorer', url: explorerTokenUrl(f.chain, t.address) },
    '\n',
    { code: t.address },
    `\nMC ${usd(f.item.marketcap)} · Liq ${usd(f.item.liquidity)} · 1h ${pct(c.h1, 'percent', { sign: true })} · 24h ${pct(c.h24, 'percent', { sign: true })}`,
    `\nMentions ${compact(f.item.mention)} · Smart followers ${compact(f.item.smart_follower)} · Score ${score(f.item.score_v2)}`,
  ];
}

function listLine(f: FoundToken): Span[] {
  const t = f.item.token;
  return [{ b: ticker(t.symbol, t.name) }, ` ${f.chain} · MC ${usd(f.item.marketcap)} · 24h ${pct(f.item.changes.h24, 'percent', { sign: true })} · `, { code: t.address }];
}

/** One message for every token found in a paste; a "Card" button each opens the full card. */
export function compactCards(found: readonly FoundToken[]): TextView {
  const cards = found.length <= COMPACT_MAX;
  const spans: Span[] = cards ? [] : [`${LOOKUP_TEXT.moreTokens(found.length)}\n`];
  found.forEach((f, i) => {
    if (i > 0) spans.push(cards ? '\n\n' : '\n');
    spans.push(...(cards ? compactLines(f) : listLine(f)));
  });
  const actions: Action[] = found.slice(0, COMPACT_MAX).map((f) => ({
    label: LOOKUP_TEXT.fullCard(ticker(f.item.token.symbol, f.item.token.name)),
    command: 'token',
    options: { chain: f.chain, address: f.item.token.address },
  }));
  return { kind: 'text', text: spans satisfies Rich, actions };
}
