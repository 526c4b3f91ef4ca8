// Spec shapes of KOL records (sections 2.4, 2.6, 2.7, 2.10, 2.11).
import { DAY, iso } from './ctx.ts';
import { dec } from './prng.ts';
import { lowerBoundMs, type Store } from './store.ts';
import type { SandboxKol } from './types.ts';

/** KOL account record up to active_rank (the shape embedded in win-rate items). */
export function kolCore(k: SandboxKol) {
  return {
    id: k.id,
    username: k.username,
    twitter_id: k.twitter_id,
    avatar_url: k.avatar_url,
    checkmark_type: k.checkmark_type,
    display_name: k.display_name,
    follower_count: k.follower_count,
    following_count: k.following_count,
    description: k.description,
    labels: [...k.labels],
    twitter_created_at: k.twitter_created_at,
    discovered_by: k.discovered_by,
    twitter_status: k.twitter_status,
    active_rank: k.active_rank,
  };
}

export function kolRecord(k: SandboxKol) {
  return { ...kolCore(k), created_at: k.created_at, updated_at: k.updated_at, deleted_at: null };
}

function smartFollower(k: SandboxKol) {
  return {
    id: k.id,
    username: k.username,
    twitter_id: k.twitter_id,
    avatar_url: k.avatar_url,
    checkmark_type: k.checkmark_type,
    display_name: k.display_name,
    follower_count: k.follower_count,
    description: k.description,
    following_count: k.following_count,
  };
}

const topFollowers = new WeakMap<SandboxKol, SandboxKol[]>();

export function kolProject(k: SandboxKol, store: Store) {
  let top = topFollowers.get(k);
  if (!top) {
    top = k.smartFollowerIds
      .map((id) => store.kol(id))
      .sort((a, b) => b.follower_count - a.follower_count || a.id - b.id)
      .slice(0, 5);
    topFollowers.set(k, top);
  }
  const followers = top.map(smartFollower);
  return {
    ...kolRecord(k),
    smart_follower_count: k.stat.smart_follower_count,
    change_percent: dec(k.change_percent, 2),
    smart_follower: followers,
  };
}

export function kolScore(k: SandboxKol, store: Store) {
  const s = k.stat;
  return {
    accuracy_score: s.accuracy_score,
    engagement_score: s.engagement_score,
    legality_score: s.legality_score,
    speed_score: s.speed_score,
    score: s.score,
    num_shill_tokens: store.shillsByKol.get(k.id)?.length ?? 0,
    score_v2: s.score_v2,
    position_by_score_v2: s.position_by_score_v2,
    active_score: s.active_score,
  };
}

export function recentMentions(k: SandboxKol, store: Store, nowMs: number): number {
  const list = store.tweetsByKol.get(k.id) ?? [];
  return list.length - lowerBoundMs(list, nowMs - DAY);
}

export function statistic(k: SandboxKol, store: Store, nowMs: number) {
  const s = k.stat;
  const shills = store.shillsByKol.get(k.id) ?? [];
  const lastShill = shills.at(-1);
  return {
    id: s.id,
    x_user_id: k.id,
    smart_follower_count: s.smart_follower_count,
    smart_follower_mention_count: s.smart_follower_mention_count,
    total_favorite: s.total_favorite,
    total_reply: s.total_reply,
    total_quote: s.total_quote,
    score: s.score,
    first_tweet_id: null,
    share_score: s.share_score,
    list_score: s.list_score,
    high_market_cap_score: s.high_market_cap_score,
    early_market_cap_score: s.early_market_cap_score,
    engagement_score: s.engagement_score,
    legality_score: s.legality_score,
    speed_score: s.speed_score,
    accuracy_score: s.accuracy_score,
    ranking_score: s.ranking_score,
    user_ranking: s.user_ranking,
    num_shill_tokens_last_month: shills.filter((x) => x.shillMs >= nowMs - 30 * DAY).length,
    last_shill_time: lastShill ? iso(lastShill.shillMs) : k.created_at,
    win_rate: s.win_rate,
    lose_rate: s.lose_rate,
    rug_rate: s.rug_rate,
    last24h_kol_mention_count: recentMentions(k, store, nowMs),
    score_v2: dec(s.score_v2, 2),
    created_at: k.created_at,
    updated_at: k.updated_at,
    deleted_at: null,
    active_score: s.active_score,
  };
}

/** Row values behind a KOL table item, also used for its filters and sorts. */
export function kolTableValues(k: SandboxKol, store: Store) {
  const tweets = store.tweetsByKol.get(k.id) ?? [];
  return {
    total_token: store.shillsByKol.get(k.id)?.length ?? 0,
    sm_follower: k.stat.smart_follower_count,
    mention: tweets.length,
    impression: k.impression,
  };
}

export function kolTableItem(k: SandboxKol, store: Store) {
  const v = kolTableValues(k, store);
  const s = k.stat;
  return {
    id: k.id,
    kol: k.username,
    display_name: k.display_name,
    avatar: k.avatar_url,
    total_token: v.total_token,
    sm_follower: v.sm_follower,
    mention: v.mention,
    impression: v.impression,
    s_score: s.speed_score,
    a_score: s.accuracy_score,
    l_score: s.legality_score,
    e_score: s.engagement_score,
    total_score: s.score,
    score_v2: s.score_v2,
    active_score: s.active_score,
    winrate: s.win_rate,
    rug_rate: s.rug_rate,
    lose_rate: s.lose_rate,
    user_ranking: s.user_ranking,
    checkmark_type: k.checkmark_type,
    labels: [...k.labels],
  };
}
