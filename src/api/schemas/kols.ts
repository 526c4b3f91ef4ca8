import type { z } from 'zod';
import { dec, id, int, num, str, strArray, timestamp } from '../json.ts';
import { arr, chain, listNote, obj } from './common.ts';

// 2.4: the subset embedded as `smart_follower` in a project item.
const accountCore = {
  id,
  username: str,
  twitter_id: id,
  avatar_url: str,
  checkmark_type: int,
  display_name: str,
  follower_count: int,
  following_count: int,
  description: str,
};
const kolAccountBriefSchema = obj(accountCore);
export type KolAccountBrief = z.infer<typeof kolAccountBriefSchema>;

// 2.4 up to active_rank: the `x_user` of a win-rate item.
const accountRanked = {
  ...accountCore,
  labels: strArray,
  twitter_created_at: timestamp,
  discovered_by: int,
  twitter_status: int,
  active_rank: int,
};
const kolAccountRankedSchema = obj(accountRanked);
export type KolAccountRanked = z.infer<typeof kolAccountRankedSchema>;

export const kolAccountShape = {
  ...accountRanked,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: timestamp.nullable(),
};
const kolAccountSchema = obj(kolAccountShape);
export type KolAccount = z.infer<typeof kolAccountSchema>;

// 4.3
const projectItemSchema = obj({
  ...kolAccountShape,
  smart_follower_count: int,
  change_percent: dec,
  smart_follower: arr(kolAccountBriefSchema),
});
export type ProjectItem = z.infer<typeof projectItemSchema>;

// The spec types next_cursor as a string here but does not say how the last page is marked,
// so null or absence both mean "no further page".
export const kolProjectsResultSchema = obj({
  items: arr(projectItemSchema),
  ...listNote,
  next_cursor: str
    .nullable()
    .optional()
    .transform((c) => (c ? c : null)),
});
export type KolProjectsResult = z.infer<typeof kolProjectsResultSchema>;

// 2.5 (operation 4.4)
const perfScores = {
  weighted_performance_score: dec,
  consistency_score: dec,
  area_under_curve_score: dec,
  unified_performance_score: dec,
};

const kolTokenItemSchema = obj({
  id,
  token_name: str,
  token_symbol: str,
  token_icon_url: str,
  token_id: id,
  token_address: str,
  pair_address: str,
  token_chain_id: chain,
  shill_timestamp: timestamp,
  price_init: dec,
  price_after5m: dec,
  price_after15m: dec,
  price_after30m: dec,
  price_after1h: dec,
  price_after2h: dec,
  price_after4h: dec,
  price_after6h: dec,
  price_after8h: dec,
  price_after12h: dec,
  price_after1d: dec,
  price_after7d: dec,
  ...perfScores,
  win_rate5m: dec,
  win_rate15m: dec,
  win_rate30m: dec,
  win_rate1h: dec,
  win_rate2h: dec,
  win_rate4h: dec,
  win_rate6h: dec,
  win_rate8h: dec,
  win_rate12h: dec,
  win_rate24h: dec,
  win_rate7d: dec,
});
export type KolTokenItem = z.infer<typeof kolTokenItemSchema>;

const kolTokensSummarySchema = obj({
  win_rate5m: num,
  win_rate15m: num,
  win_rate30m: num,
  win_rate1h: num,
  win_rate2h: num,
  win_rate4h: num,
  win_rate6h: num,
  win_rate8h: num,
  win_rate12h: num,
  win_rate24h: num,
  win_rate7d: num,
});

export const kolTokensResultSchema = obj({
  items: arr(kolTokenItemSchema),
  ...listNote,
  total: int,
  summary: kolTokensSummarySchema,
});
export type KolTokensResult = z.infer<typeof kolTokensResultSchema>;

// 2.6 (operation 4.5)
const winRateItemSchema = obj({
  x_user_id: id,
  win_rate_after5m: dec,
  win_rate_after15m: dec,
  win_rate_after30m: dec,
  win_rate_after1h: dec,
  win_rate_after2h: dec,
  win_rate_after4h: dec,
  win_rate_after6h: dec,
  win_rate_after8h: dec,
  win_rate_after12h: dec,
  win_rate_after1d: dec,
  win_rate_after7d: dec,
  num_tokens_counted_win_rate: int,
  x_user: kolAccountRankedSchema,
  ...perfScores,
  like_score: dec,
  share_score: dec,
  mention_score: dec,
  active_score: dec,
});
export type WinRateItem = z.infer<typeof winRateItemSchema>;

export const winRatesResultSchema = obj({ items: arr(winRateItemSchema), total: int, ...listNote });
export type WinRatesResult = z.infer<typeof winRatesResultSchema>;

// 2.7 (operation 4.6)
export const kolScoreSchema = obj({
  accuracy_score: num,
  engagement_score: num,
  legality_score: num,
  speed_score: num,
  score: num,
  num_shill_tokens: int,
  score_v2: num,
  position_by_score_v2: int,
  active_score: num,
});
export type KolScore = z.infer<typeof kolScoreSchema>;

// 2.11 (operation 4.9)
const kolTableItemSchema = obj({
  id,
  kol: str,
  display_name: str,
  avatar: str,
  total_token: int,
  sm_follower: int,
  mention: int,
  impression: int,
  s_score: num,
  a_score: num,
  l_score: num,
  e_score: num,
  total_score: num,
  score_v2: num,
  active_score: num,
  winrate: num,
  rug_rate: num,
  lose_rate: num,
  user_ranking: int,
  checkmark_type: int,
  labels: strArray,
});
export type KolTableItem = z.infer<typeof kolTableItemSchema>;

export const kolTableResultSchema = obj({
  items: arr(kolTableItemSchema),
  ...listNote,
  total: int,
  meta: obj({ limit: int, offset: int }),
});
export type KolTableResult = z.infer<typeof kolTableResultSchema>;
