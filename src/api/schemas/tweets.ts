import { z } from 'zod';
import { bool, dec, id, int, num, str, strArray, textId, timestamp } from '../json.ts';
import { arr, chain, listNote, obj, opaque } from './common.ts';
import { kolAccountShape } from './kols.ts';

// 2.9
const tweetTokenSchema = obj({
  id,
  name: str,
  symbol: str,
  token_address: str,
  icon_url: str,
  chain_id: chain,
  token_score: num,
  score: num,
  score_v2: num,
  avg_score: num,
  avg_score_v2: num,
  change1h: num,
  change24h: num,
  sentiment: int,
});
export type TweetToken = z.infer<typeof tweetTokenSchema>;

// 2.8 Highlight
const highlightShape = {
  id,
  tweet_id: id,
  token_id: id,
  highlight: str,
  chain_id: chain,
  tweeted_at: timestamp,
  is_kol: bool,
  sentiment: int,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: timestamp.nullable(),
};
const highlightSchema = obj(highlightShape);
export type Highlight = z.infer<typeof highlightSchema>;
const tokenHighlightSchema = obj({ ...highlightShape, token: tweetTokenSchema });
export type TokenHighlight = z.infer<typeof tokenHighlightSchema>;

// 2.10
const kolStatisticSchema = obj({
  id: textId,
  x_user_id: id,
  smart_follower_count: int,
  smart_follower_mention_count: int,
  total_favorite: int,
  total_reply: int,
  total_quote: int,
  score: num,
  first_tweet_id: id.nullable(),
  share_score: num,
  list_score: num,
  high_market_cap_score: num,
  early_market_cap_score: num,
  engagement_score: num,
  legality_score: num,
  speed_score: num,
  accuracy_score: num,
  ranking_score: num,
  user_ranking: int,
  num_shill_tokens_last_month: int,
  last_shill_time: timestamp,
  win_rate: num,
  lose_rate: num,
  rug_rate: num,
  last24h_kol_mention_count: int,
  score_v2: dec,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: timestamp.nullable(),
  active_score: num,
});
export type KolStatistic = z.infer<typeof kolStatisticSchema>;

const tweetCommon = {
  id,
  content: str,
  twitter_id: id,
  tweeted_at: timestamp,
  bookmark_count: int,
  reply_count: int,
  retweet_count: int,
  favorite_count: int,
  quote_count: int,
  view_count: int,
  photo_urls: strArray,
};

// 2.8 token-address view (operation 4.7)
const tokenTweetSchema = obj({
  ...tweetCommon,
  highlights: arr(tokenHighlightSchema),
  x_user_id: id,
  is_shill_tweet: bool,
  metadata: opaque,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: timestamp.nullable(),
  sentiment: int,
  x_user: obj({ ...kolAccountShape, statistic: kolStatisticSchema }),
});
export type TokenTweet = z.infer<typeof tokenTweetSchema>;

export const tweetsByTokenResultSchema = obj({
  items: arr(tokenTweetSchema),
  ...listNote,
  next_cursor: str.nullable(),
});
export type TweetsByTokenResult = z.infer<typeof tweetsByTokenResultSchema>;

/**
 * The spec promises no field of an author in the list view (2.8 says "array",
 * 2.13 "not shown"). Only fields named as in the KOL account record (2.4) and
 * its statistic (2.10) are read, each optional, and a field of the wrong type
 * reads as absent: an author fact the feed cannot give is filled from
 * operation 7 by the watcher, or stays unknown, never fails the page.
 */
const lenient = <T extends z.ZodType>(t: T) => t.optional().catch(undefined);
export const tweetAuthorSchema = obj({
  id: lenient(id),
  username: lenient(str),
  display_name: lenient(str),
  twitter_id: lenient(id),
  follower_count: lenient(int),
  labels: lenient(strArray),
  avatar_url: lenient(str),
  statistic: lenient(obj({ ranking_score: lenient(num) })),
});
export type TweetAuthor = z.infer<typeof tweetAuthorSchema>;

// 2.8 list view (operation 4.8)
const tweetListItemSchema = obj({
  ...tweetCommon,
  highlights: arr(highlightSchema),
  videos: arr(z.unknown()),
  tweet_type: str,
  original_tweet: opaque,
  token: tweetTokenSchema,
  tokens: arr(tweetTokenSchema),
  x_user: arr(tweetAuthorSchema),
  last30_min_tweet_count: int,
});
export type TweetListItem = z.infer<typeof tweetListItemSchema>;

// "null when no further page is indicated": absence is read the same way.
export const tweetsResultSchema = obj({
  items: arr(tweetListItemSchema),
  ...listNote,
  next_cursor: str
    .nullable()
    .optional()
    .transform((c) => c ?? null),
});
export type TweetsResult = z.infer<typeof tweetsResultSchema>;
