// Spec-shaped response bodies (section 2) for schema tests that need no server.
const TS = '2024-05-01T12:00:00.000Z';

export function tokenSummary(id = 1) {
  return {
    id,
    name: 'Bonk',
    symbol: 'BONK',
    address: `Addr${id}`,
    chain_id: 'solana',
    icon_url: 'https://x.test/i.png',
  };
}

export function mindmapGraph() {
  return {
    type: 'token',
    nodes: [
      { id: 1, value: 10 },
      { id: 2, value: 3 },
    ],
    edges: [{ source: 1, target: 2, value: 3 }],
    tokens: { '1': tokenSummary(1), '2': tokenSummary(2) },
  };
}

export function tokenAnalyticsItem(id = 1) {
  return {
    token: { id, name: 'Bonk', symbol: 'BONK', icon_url: 'https://x.test/i.png', address: `Addr${id}` },
    marketcap: 1234567.5,
    liquidity: 5000,
    token_age: 12,
    smart_follower: '42',
    mention: '1000',
    impression: '250000',
    changes: { m5: 0.1, h1: -2.5, h4: 3, h24: 10.25 },
    total_score: '87.5',
    avg_score: '70.1',
    avg_score_v2: '71.2',
    score_v2: '90.0',
  };
}

export function tokenAnalytics(n = 3) {
  return { items: Array.from({ length: n }, (_, i) => tokenAnalyticsItem(i + 1)), total: n, new_token_count24h: 1 };
}

function account(id = 7) {
  return {
    id,
    username: 'alice',
    twitter_id: '44196397',
    avatar_url: 'https://x.test/a.png',
    checkmark_type: 1,
    display_name: 'Alice',
    follower_count: 1000,
    following_count: 10,
    description: 'gm',
    labels: ['trader'],
    twitter_created_at: TS,
    discovered_by: 0,
    twitter_status: 1,
    active_rank: 3,
    created_at: TS,
    updated_at: TS,
    deleted_at: null as string | null,
  };
}

export function kolProjects() {
  const {
    labels: _l,
    twitter_created_at: _t,
    discovered_by: _d,
    twitter_status: _s,
    active_rank: _r,
    created_at: _c,
    updated_at: _u,
    deleted_at: _x,
    ...brief
  } = account(8);
  return {
    items: [{ ...account(), smart_follower_count: 1, change_percent: '12.5', smart_follower: [brief] }],
    next_cursor: 'eyJpZCI6MX0=',
  };
}

const horizons = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '7d'];
const winWindows = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '24h', '7d'];
const scores = {
  weighted_performance_score: '1.5',
  consistency_score: '2',
  area_under_curve_score: '3',
  unified_performance_score: '4',
};

export function kolTokens() {
  const item: Record<string, unknown> = {
    id: 1,
    token_name: 'Bonk',
    token_symbol: 'BONK',
    token_icon_url: 'https://x.test/i.png',
    token_id: 5,
    token_address: 'Addr5',
    pair_address: 'Pair5',
    token_chain_id: 'solana',
    shill_timestamp: TS,
    price_init: '0.000012',
    ...scores,
  };
  for (const h of horizons) item[`price_after${h}`] = '0.000013';
  for (const w of winWindows) item[`win_rate${w}`] = '0.5';
  const summary: Record<string, number> = {};
  for (const w of winWindows) summary[`win_rate${w}`] = 0.5;
  return { items: [item], total: 1, summary };
}

export function winRates() {
  const { created_at: _c, updated_at: _u, deleted_at: _d, ...ranked } = account();
  const item: Record<string, unknown> = {
    x_user_id: 7,
    num_tokens_counted_win_rate: 4,
    x_user: ranked,
    ...scores,
    like_score: '1',
    share_score: '2',
    mention_score: '3',
    active_score: '4',
  };
  for (const h of horizons) item[`win_rate_after${h}`] = '0.25';
  return { items: [item], total: 1 };
}

export function kolScore() {
  return {
    accuracy_score: 1.5,
    engagement_score: 2,
    legality_score: 3,
    speed_score: 4,
    score: 5,
    num_shill_tokens: 6,
    score_v2: 7.25,
    position_by_score_v2: 8,
    active_score: 9,
  };
}

export function tweetToken(id = 5) {
  return {
    id,
    name: 'Bonk',
    symbol: 'BONK',
    token_address: `Addr${id}`,
    icon_url: 'https://x.test/i.png',
    chain_id: 'solana',
    token_score: 1,
    score: 2,
    score_v2: 3,
    avg_score: 4,
    avg_score_v2: 5,
    change1h: -1.5,
    change24h: 2,
    sentiment: 1,
  };
}

function highlight(id = 1) {
  return {
    id,
    tweet_id: 100,
    token_id: 5,
    highlight: '$BONK',
    chain_id: 'solana',
    tweeted_at: TS,
    is_kol: true,
    sentiment: 1,
    created_at: TS,
    updated_at: TS,
    deleted_at: null,
  };
}

const tweetCommon = {
  id: 100,
  content: 'gm $BONK',
  twitter_id: '1790000000000000001',
  tweeted_at: TS,
  bookmark_count: 1,
  reply_count: 2,
  retweet_count: 3,
  favorite_count: 4,
  quote_count: 5,
  view_count: 6,
  photo_urls: ['https://x.test/p.png'],
};

export function statistic() {
  return {
    id: 'st-1',
    x_user_id: 7,
    smart_follower_count: 1,
    smart_follower_mention_count: 2,
    total_favorite: 3,
    total_reply: 4,
    total_quote: 5,
    score: 6,
    first_tweet_id: null,
    share_score: 1,
    list_score: 1,
    high_market_cap_score: 1,
    early_market_cap_score: 1,
    engagement_score: 1,
    legality_score: 1,
    speed_score: 1,
    accuracy_score: 1,
    ranking_score: 1,
    user_ranking: 1,
    num_shill_tokens_last_month: 1,
    last_shill_time: TS,
    win_rate: 0.5,
    lose_rate: 0.25,
    rug_rate: 0.1,
    last24h_kol_mention_count: 2,
    score_v2: '55.5',
    created_at: TS,
    updated_at: TS,
    deleted_at: null,
    active_score: 3,
  };
}

export function tweetsByToken() {
  return {
    items: [
      {
        ...tweetCommon,
        highlights: [{ ...highlight(), token: tweetToken() }],
        x_user_id: 7,
        is_shill_tweet: true,
        metadata: null,
        created_at: TS,
        updated_at: TS,
        deleted_at: null,
        sentiment: 1,
        x_user: { ...account(), statistic: statistic() },
      },
    ],
    next_cursor: null as string | null,
  };
}

export function tweets() {
  return {
    items: [
      {
        ...tweetCommon,
        highlights: [highlight()],
        videos: [],
        tweet_type: 'tweet',
        original_tweet: null,
        token: tweetToken(),
        tokens: [tweetToken(5), tweetToken(6)],
        x_user: [
          {
            username: 'alice',
            display_name: 'Alice',
            twitter_id: '44196397',
            follower_count: 1000,
            labels: ['trader'],
            ranking_score: 4.5,
            avatar_url: 'https://x.test/a.png',
            id: 7,
          },
        ],
        last30_min_tweet_count: 2,
      },
    ],
    next_cursor: 'abc',
  };
}

export function kolTable() {
  return {
    items: [
      {
        id: 7,
        kol: 'alice',
        display_name: 'Alice',
        avatar: 'https://x.test/a.png',
        total_token: 1,
        sm_follower: 2,
        mention: 3,
        impression: 4,
        s_score: 1,
        a_score: 2,
        l_score: 3,
        e_score: 4,
        total_score: 5,
        score_v2: 6,
        active_score: 7,
        winrate: 0.5,
        rug_rate: 0.1,
        lose_rate: 0.4,
        user_ranking: 1,
        checkmark_type: 0,
        labels: [],
      },
    ],
    total: 1,
    meta: { limit: 20, offset: 0 },
  };
}

export function kolMindmap() {
  return { items: [tokenSummary(1), tokenSummary(2)], total: 2 };
}
