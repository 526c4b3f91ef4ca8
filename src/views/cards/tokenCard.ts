/** The token card (operation 2's item) with its latest tweets (operation 7). */
import type { TokenAnalyticsItem } from '../../api/index.ts';
import { CHAIN_LABEL, type ChainId, explorerTokenUrl } from '../../domain/chains.ts';
import { DEFAULT_LINKS, tokenLinks, type LinkSet } from '../../domain/links.ts';
import type { Action, CardView, Colour, Field, Rich } from '../../domain/view.ts';
import { ticker } from './common.ts';
import { fmt, type T } from './lang.ts';
import { type TweetLine, tweetDigest } from './tweets.ts';

export interface TokenCardInput {
  readonly chain: ChainId;
  readonly item: TokenAnalyticsItem;
  /** Newest first; undefined when they could not be fetched. */
  readonly tweets: readonly TweetLine[] | undefined;
  readonly now: number;
  /** Chart, trading and safety links (the operator's); absent: the defaults. */
  readonly links?: LinkSet;
}

/** The API reports price changes in percent. */
function changeLine(c: TokenAnalyticsItem['changes'], t: T): string {
  const { pct } = fmt(t);
  return [
    `5m ${pct(c.m5, 'percent', { sign: true })}`,
    `1h ${pct(c.h1, 'percent', { sign: true })}`,
    `4h ${pct(c.h4, 'percent', { sign: true })}`,
    `24h ${pct(c.h24, 'percent', { sign: true })}`,
  ].join(' · ');
}

function colourOf(h24: number): Colour {
  return h24 > 0 ? 'up' : h24 < 0 ? 'down' : 'neutral';
}

export function tokenCard({ chain, item, tweets, now, links }: TokenCardInput, tr: T): CardView {
  const { age, compact, score, usd } = fmt(tr);
  const t = item.token;
  const f = (name: string, value: Rich, inline = true): Field => ({ name, value, inline });
  const fields: Field[] = [
    f(tr('tokenCard.marketCap'), usd(item.marketcap)),
    f(tr('tokenCard.liquidity'), usd(item.liquidity)),
    // The sandbox and the service report token_age in days.
    f(tr('tokenCard.age'), age(item.token_age, 'days')),
    f(tr('tokenCard.priceChange'), changeLine(item.changes, tr), false),
    f(tr('tokenCard.mentions'), compact(item.mention)),
    f(tr('tokenCard.impressions'), compact(item.impression)),
    f(tr('tokenCard.smartFollowers'), compact(item.smart_follower)),
    f(
      tr('tokenCard.scores'),
      tr('tokenCard.scoreLine', {
        score: score(item.score_v2),
        avg: score(item.avg_score),
        avg2: score(item.avg_score_v2),
        total: score(item.total_score),
      }),
      false,
    ),
  ];
  const latest = tr('tokenCard.latestTweets');
  if (tweets === undefined) fields.push(f(latest, tr('tokenCard.tweetsFailed'), false));
  else if (tweets.length === 0) fields.push(f(latest, tr('tokenCard.noTweets'), false));
  else fields.push(f(latest, tweetDigest(tweets, now, 100, tr), false));
  const ref = { chain, address: t.address };
  const actions: Action[] = [
    { label: tr('tokenCard.moreTweets'), command: 'tweets', options: ref },
    { label: tr('tokenCard.mindmap'), command: 'mindmap', options: ref },
  ];
  return {
    kind: 'card',
    title: `${t.name || t.symbol} (${ticker(t.symbol)})`,
    description: [`${CHAIN_LABEL[chain]} · `, { code: t.address }],
    fields,
    ...(t.icon_url ? { thumbnailUrl: t.icon_url } : {}),
    colour: colourOf(item.changes.h24),
    links: [
      { label: tr('tokenCard.explorer'), url: explorerTokenUrl(chain, t.address) },
      ...tokenLinks(links ?? DEFAULT_LINKS, chain, t.address),
    ],
    actions,
  };
}
