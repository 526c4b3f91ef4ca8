// Records the sandbox generates. Field names follow the spec where the record is shown as-is;
// camelCase fields are internal (sort keys, timestamps in ms) and never serialized directly.

export const CHAINS = ['solana', 'aptos', 'bsc', 'base', 'sui'] as const;
export type ChainId = (typeof CHAINS)[number];

export interface SandboxToken {
  id: number;
  name: string;
  symbol: string;
  address: string;
  chain_id: ChainId;
  icon_url: string;
  pair_address: string;
  createdMs: number;
  marketcap: number;
  liquidity: number;
  smart_follower: number;
  mention: number;
  impression: number;
  changes: { m5: number; h1: number; h4: number; h24: number };
  total_score: number;
  avg_score: number;
  avg_score_v2: number;
  score_v2: number;
  token_score: number;
  score: number;
  sentiment: number;
  /** Current price as mantissa * 10^-priceScale, so derived prices stay exact decimal strings. */
  priceMantissa: number;
  priceScale: number;
}

export interface KolStatistic {
  id: string;
  smart_follower_count: number;
  smart_follower_mention_count: number;
  total_favorite: number;
  total_reply: number;
  total_quote: number;
  score: number;
  share_score: number;
  list_score: number;
  high_market_cap_score: number;
  early_market_cap_score: number;
  engagement_score: number;
  legality_score: number;
  speed_score: number;
  accuracy_score: number;
  ranking_score: number;
  user_ranking: number;
  win_rate: number;
  lose_rate: number;
  rug_rate: number;
  score_v2: number;
  position_by_score_v2: number;
  active_score: number;
  like_score: number;
  mention_score: number;
}

export interface SandboxKol {
  id: number;
  username: string;
  twitter_id: string;
  avatar_url: string;
  checkmark_type: number;
  display_name: string;
  follower_count: number;
  following_count: number;
  description: string;
  labels: string[];
  twitter_created_at: string;
  discovered_by: number;
  twitter_status: number;
  active_rank: number;
  created_at: string;
  updated_at: string;
  stat: KolStatistic;
  /** Other KOLs (ids) that follow this one and count as "smart followers". */
  smartFollowerIds: number[];
  change_percent: number;
  impression: number;
}

/** One KOL promoting one token: the source of operations 4 and 5 (first mention of the token by the KOL). */
export interface Shill {
  id: number;
  kolId: number;
  tokenId: number;
  shillMs: number;
  priceInitMantissa: number;
  priceScale: number;
  /** Price multiplier at each horizon of HORIZONS. */
  multipliers: number[];
  /** Whether the shown price at each horizon is above the shown shill price. */
  wins: boolean[];
  weighted_performance_score: number;
  consistency_score: number;
  area_under_curve_score: number;
  unified_performance_score: number;
  engagement: number;
}

export const HORIZONS = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '7d'] as const;

export interface SandboxTweet {
  id: number;
  twitter_id: string;
  content: string;
  tweetedMs: number;
  /** When the live feed made it visible (epoch ms): its time plus the indexing delay. Absent for seeded tweets. */
  indexedMs?: number;
  kolId: number;
  /** Highlighted tokens; the first is the tweet's main token. */
  tokenIds: number[];
  tweet_type: string;
  sentiment: number;
  bookmark_count: number;
  reply_count: number;
  retweet_count: number;
  favorite_count: number;
  quote_count: number;
  view_count: number;
  photo_urls: string[];
  is_shill_tweet: boolean;
  /** Main token's avg_score as seen when tweeted (what the feed's token-score filter compares). */
  tokenScore: number;
  /** Author's ranking_score as seen when tweeted (what the feed's KOL-score filter compares). */
  kolScore: number;
  last30_min_tweet_count: number;
  firstHighlightId: number;
  /** Served with a spec-minimal list-view author (id and username) whatever the sandbox's author shape. */
  leanAuthor?: boolean;
}

/** Properties a test may fix when appending tweets; anything left out is generated. */
export interface TweetSeed {
  /** Main token: id or address. */
  token: number | string;
  /** Further highlighted tokens: ids or addresses. */
  tokens: Array<number | string>;
  /** Author: KOL id, username or twitter_id. */
  kol: number | string;
  tweet_type: string;
  content: string;
  sentiment: number;
  tokenScore: number;
  kolScore: number;
}

export interface SandboxData {
  seed: number;
  /** Time the seeded data is anchored at (ms); seeded timestamps lie before it. */
  now: number;
  tokens: SandboxToken[];
  kols: SandboxKol[];
  /** All tweets in id order (which is also time order); live tweets are appended. */
  tweets: SandboxTweet[];
  shills: Shill[];
  /** Deliberate awkward records, for tests of escaping, RTL and length limits. */
  edge: {
    cjkToken: SandboxToken;
    htmlToken: SandboxToken;
    rtlKol: SandboxKol;
    longTweet: SandboxTweet;
  };
}
