// Field-by-field shapes of the spec's records, for asserting envelopes exactly (no missing, no extra keys).
import assert from 'node:assert/strict';

export type Kind =
  | 'int'
  | 'num'
  | 'str'
  | 'dec'
  | 'iso'
  | 'bool'
  | 'null'
  | 'isoOrNull'
  | 'strArr'
  | 'arr'
  | 'tid'
  | 'chain'
  | Shape
  | ((v: unknown, path: string) => void);
export interface Shape {
  [field: string]: Kind;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const CHAINS = ['solana', 'aptos', 'bsc', 'base', 'sui'];

export function check(v: unknown, kind: Kind, path = '$'): void {
  if (typeof kind === 'function') {
    kind(v, path);
    return;
  }
  if (typeof kind === 'object') {
    assert.ok(v && typeof v === 'object' && !Array.isArray(v), `${path} should be an object`);
    const o = v as Record<string, unknown>;
    assert.deepEqual(Object.keys(o).sort(), Object.keys(kind).sort(), `${path} keys`);
    for (const [k, sub] of Object.entries(kind)) check(o[k], sub, `${path}.${k}`);
    return;
  }
  const fail = `${path} should be ${kind}, got ${JSON.stringify(v)}`;
  switch (kind) {
    case 'int':
      assert.ok(Number.isSafeInteger(v), fail);
      break;
    case 'num':
      assert.ok(typeof v === 'number' && Number.isFinite(v), fail);
      break;
    case 'str':
      assert.equal(typeof v, 'string', fail);
      break;
    case 'dec':
      assert.ok(typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v), fail);
      break;
    case 'iso':
      assert.ok(typeof v === 'string' && ISO.test(v), fail);
      break;
    case 'bool':
      assert.equal(typeof v, 'boolean', fail);
      break;
    case 'null':
      assert.equal(v, null, fail);
      break;
    case 'isoOrNull':
      assert.ok(v === null || (typeof v === 'string' && ISO.test(v)), fail);
      break;
    case 'strArr':
      assert.ok(Array.isArray(v) && v.every((x) => typeof x === 'string'), fail);
      break;
    case 'arr':
      assert.ok(Array.isArray(v), fail);
      break;
    case 'tid':
      assert.ok(typeof v === 'string' && /^\d{19}$/.test(v) && BigInt(v) > 2n ** 53n, fail);
      break;
    case 'chain':
      assert.ok(typeof v === 'string' && CHAINS.includes(v), fail);
      break;
  }
}

export const arrayOf = (kind: Kind) => (v: unknown, path: string) => {
  assert.ok(Array.isArray(v), `${path} should be an array`);
  v.forEach((x, i) => {
    check(x, kind, `${path}[${i}]`);
  });
};

export const TOKEN_SUMMARY: Shape = {
  id: 'int',
  name: 'str',
  symbol: 'str',
  address: 'str',
  chain_id: 'chain',
  icon_url: 'str',
};

export const KOL_CORE: Shape = {
  id: 'int',
  username: 'str',
  twitter_id: 'tid',
  avatar_url: 'str',
  checkmark_type: 'int',
  display_name: 'str',
  follower_count: 'int',
  following_count: 'int',
  description: 'str',
  labels: 'strArr',
  twitter_created_at: 'iso',
  discovered_by: 'int',
  twitter_status: 'int',
  active_rank: 'int',
};
export const KOL_RECORD: Shape = { ...KOL_CORE, created_at: 'iso', updated_at: 'iso', deleted_at: 'isoOrNull' };

export const KOL_PROJECT: Shape = {
  ...KOL_RECORD,
  smart_follower_count: 'int',
  change_percent: 'dec',
  smart_follower: arrayOf({
    id: 'int',
    username: 'str',
    twitter_id: 'tid',
    avatar_url: 'str',
    checkmark_type: 'int',
    display_name: 'str',
    follower_count: 'int',
    description: 'str',
    following_count: 'int',
  }),
};

const H = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '7d'];
const perHorizon = (f: (h: string) => string, kind: Kind): Shape => Object.fromEntries(H.map((h) => [f(h), kind]));

export const MOMENTUM: Shape = {
  id: 'int',
  token_name: 'str',
  token_symbol: 'str',
  token_icon_url: 'str',
  token_id: 'int',
  token_address: 'str',
  pair_address: 'str',
  token_chain_id: 'chain',
  shill_timestamp: 'iso',
  price_init: 'dec',
  ...perHorizon((h) => `price_after${h}`, 'dec'),
  weighted_performance_score: 'dec',
  consistency_score: 'dec',
  area_under_curve_score: 'dec',
  unified_performance_score: 'dec',
  ...perHorizon((h) => `win_rate${h === '1d' ? '24h' : h}`, 'dec'),
};
export const SUMMARY: Shape = perHorizon((h) => `win_rate${h === '1d' ? '24h' : h}`, 'num');

export const WIN_RATE: Shape = {
  x_user_id: 'int',
  ...perHorizon((h) => `win_rate_after${h}`, 'dec'),
  num_tokens_counted_win_rate: 'int',
  x_user: KOL_CORE,
  weighted_performance_score: 'dec',
  consistency_score: 'dec',
  area_under_curve_score: 'dec',
  unified_performance_score: 'dec',
  like_score: 'dec',
  share_score: 'dec',
  mention_score: 'dec',
  active_score: 'dec',
};

export const KOL_SCORE: Shape = {
  accuracy_score: 'num',
  engagement_score: 'num',
  legality_score: 'num',
  speed_score: 'num',
  score: 'num',
  num_shill_tokens: 'int',
  score_v2: 'num',
  position_by_score_v2: 'int',
  active_score: 'num',
};

export const ANALYTICS: Shape = {
  token: { id: 'int', name: 'str', symbol: 'str', icon_url: 'str', address: 'str' },
  marketcap: 'num',
  liquidity: 'num',
  token_age: 'num',
  smart_follower: 'dec',
  mention: 'dec',
  impression: 'dec',
  changes: { m5: 'num', h1: 'num', h4: 'num', h24: 'num' },
  total_score: 'dec',
  avg_score: 'dec',
  avg_score_v2: 'dec',
  score_v2: 'dec',
};

export const TWEET_TOKEN: Shape = {
  id: 'int',
  name: 'str',
  symbol: 'str',
  token_address: 'str',
  icon_url: 'str',
  chain_id: 'chain',
  token_score: 'num',
  score: 'num',
  score_v2: 'num',
  avg_score: 'num',
  avg_score_v2: 'num',
  change1h: 'num',
  change24h: 'num',
  sentiment: 'int',
};

const HIGHLIGHT: Shape = {
  id: 'int',
  tweet_id: 'int',
  token_id: 'int',
  highlight: 'str',
  chain_id: 'chain',
  tweeted_at: 'iso',
  is_kol: 'bool',
  sentiment: 'int',
  created_at: 'iso',
  updated_at: 'iso',
  deleted_at: 'isoOrNull',
};

const STATISTIC: Shape = {
  id: 'str',
  x_user_id: 'int',
  smart_follower_count: 'int',
  smart_follower_mention_count: 'int',
  total_favorite: 'int',
  total_reply: 'int',
  total_quote: 'int',
  score: 'num',
  first_tweet_id: 'null',
  share_score: 'num',
  list_score: 'num',
  high_market_cap_score: 'num',
  early_market_cap_score: 'num',
  engagement_score: 'num',
  legality_score: 'num',
  speed_score: 'num',
  accuracy_score: 'num',
  ranking_score: 'num',
  user_ranking: 'int',
  num_shill_tokens_last_month: 'int',
  last_shill_time: 'iso',
  win_rate: 'num',
  lose_rate: 'num',
  rug_rate: 'num',
  last24h_kol_mention_count: 'int',
  score_v2: 'dec',
  created_at: 'iso',
  updated_at: 'iso',
  deleted_at: 'isoOrNull',
  active_score: 'num',
};

const TWEET_COMMON: Shape = {
  id: 'int',
  content: 'str',
  twitter_id: 'tid',
  tweeted_at: 'iso',
  bookmark_count: 'int',
  reply_count: 'int',
  retweet_count: 'int',
  favorite_count: 'int',
  quote_count: 'int',
  view_count: 'int',
  photo_urls: 'strArr',
};

export const TWEET_BY_TOKEN: Shape = {
  ...TWEET_COMMON,
  highlights: arrayOf({ ...HIGHLIGHT, token: TWEET_TOKEN }),
  x_user_id: 'int',
  is_shill_tweet: 'bool',
  metadata: 'null',
  created_at: 'iso',
  updated_at: 'iso',
  deleted_at: 'isoOrNull',
  sentiment: 'int',
  x_user: { ...KOL_RECORD, statistic: STATISTIC },
};

/** The same with a spec-minimal author, as `authors: 'minimal'` serves it. */
export const TWEET_LIST_MINIMAL = (): Shape => ({ ...TWEET_LIST, x_user: arrayOf({ id: 'int', username: 'str' }) });

export const TWEET_LIST: Shape = {
  ...TWEET_COMMON,
  highlights: arrayOf(HIGHLIGHT),
  videos: 'arr',
  tweet_type: 'str',
  original_tweet: 'null',
  token: TWEET_TOKEN,
  tokens: arrayOf(TWEET_TOKEN),
  // The sandbox's full author: the op-7 record with its statistic (the spec shows no fields here, 2.13).
  x_user: arrayOf({ ...KOL_RECORD, statistic: STATISTIC }),
  last30_min_tweet_count: 'int',
};

export const KOL_TABLE: Shape = {
  id: 'int',
  kol: 'str',
  display_name: 'str',
  avatar: 'str',
  total_token: 'int',
  sm_follower: 'int',
  mention: 'int',
  impression: 'int',
  s_score: 'num',
  a_score: 'num',
  l_score: 'num',
  e_score: 'num',
  total_score: 'num',
  score_v2: 'num',
  active_score: 'num',
  winrate: 'num',
  rug_rate: 'num',
  lose_rate: 'num',
  user_ranking: 'int',
  checkmark_type: 'int',
  labels: 'strArr',
};

export const MINDMAP: Shape = {
  type: (v, p) => assert.equal(v, 'token', p),
  nodes: arrayOf({ id: 'int', value: 'int' }),
  edges: arrayOf({ source: 'int', target: 'int', value: 'int' }),
  tokens: (v, p) => {
    assert.ok(v && typeof v === 'object', p);
    for (const [k, t] of Object.entries(v as object)) {
      check(t, TOKEN_SUMMARY, `${p}.${k}`);
      assert.equal(String((t as { id: number }).id), k, `${p} keyed by id`);
    }
  },
};
