/** The token card (operation 2's item) with its latest tweets (operation 7). */
import type { TokenAnalyticsItem } from '../../api/index.ts';
import { CHAIN_LABEL, type ChainId, explorerTokenUrl } from '../../core/chains.ts';
import { age, compact, pct, score, usd } from '../format.ts';
import type { Action, CardView, Colour, Field, Rich } from '../model.ts';
import { ticker } from './common.ts';
import { type TweetLine, tweetDigest } from './tweets.ts';

export interface TokenCardInput {
  readonly chain: ChainId;
  readonly item: TokenAnalyticsItem;
  /** Newest first; undefined when they could not be fetched. */
  readonly tweets: readonly TweetLine[] | undefined;
  readonly now: number;
}

/** The API reports price changes in percent. */
function changeLine(c: TokenAnalyticsItem['changes']): string {
  return [`5m ${pct(c.m5, 'percent', { sign: true })}`, `1h ${pct(c.h1, 'percent', { sign: true })}`, `4h ${pct(c.h4, 'percent', { sign: true })}`, `24h ${pct(c.h24, 'percent', { sign: true })}`].join(' · ');
}

function colourOf(h24: number): Colour {
  return h24 > 0 ? 'up' : h24 < 0 ? 'down' : 'neutral';
}

export function tokenCard({ chain, item, tweets, now }: TokenCardInput): CardView {
  const t = item.token;
  const f = (name: string, value: Rich, inline = true): Field => ({ name, value, inline });
  const fields: Field[] = [
    f('Market cap', usd(item.marketcap)),
    f('Liquidity', usd(item.liquidity)),
    // The sandbox and the service report token_age in days.
    f('Age', age(item.token_age, 'days')),
    f('Price change', changeLine(item.changes), false),
    f('Mentions', compact(item.mention)),
    f('Impressions', compact(item.impression)),
    f('Smart followers', compact(item.smart_follower)),
    f('Scores', `score ${score(item.score_v2)} · avg ${score(item.avg_score)} · avg v2 ${score(item.avg_score_v2)} · total ${score(item.total_score)}`, false),
  ];
  if (tweets === undefined) fields.push(f('Latest tweets', 'Could not load tweets right now.', false));
  else if (tweets.length === 0) fields.push(f('Latest tweets', 'No tweets about this token yet.', false));
  else fields.push(f('Latest tweets', tweetDigest(tweets, now), false));
  const ref = { chain, address: t.address };
  const actions: Action[] = [
    { label: 'More tweets', command: 'tweets', options: ref },
    { label: 'Mindmap', command: 'mindmap', options: ref },
  ];
  return {
    kind: 'card',
    title: `${t.name || t.symbol} (${ticker(t.symbol)})`,
    description: [`${CHAIN_LABEL[chain]} · `, { code: t.address }],
    fields,
    ...(t.icon_url ? { thumbnailUrl: t.icon_url } : {}),
    colour: colourOf(item.changes.h24),
    links: [{ label: 'Explorer', url: explorerTokenUrl(chain, t.address) }],
    actions,
  };
}
