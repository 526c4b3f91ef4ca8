import { z } from 'zod';
import { dec, id, int, num, str } from '../json.ts';
import { arr, chain, listNote, obj } from './common.ts';

// 2.1
const tokenSummarySchema = obj({
  id,
  name: str,
  symbol: str,
  address: str,
  chain_id: chain,
  icon_url: str,
});
export type TokenSummary = z.infer<typeof tokenSummarySchema>;

// 2.2 (operation 4.1). Node ids are token ids, so they are strings like every other id.
export const mindmapGraphSchema = obj({
  type: str,
  nodes: arr(obj({ id, value: int })),
  edges: arr(obj({ source: id, target: id, value: int })),
  tokens: z.record(z.string(), tokenSummarySchema, { error: 'expected object keyed by token id' }),
});
export type MindmapGraph = z.infer<typeof mindmapGraphSchema>;
export type MindmapNode = MindmapGraph['nodes'][number];
export type MindmapEdge = MindmapGraph['edges'][number];

// 2.3 (operation 4.2)
const tokenAnalyticsItemSchema = obj({
  token: obj({ id, name: str, symbol: str, icon_url: str, address: str }),
  marketcap: num,
  liquidity: num,
  token_age: num,
  smart_follower: dec,
  mention: dec,
  impression: dec,
  changes: obj({ m5: num, h1: num, h4: num, h24: num }),
  total_score: dec,
  avg_score: dec,
  avg_score_v2: dec,
  score_v2: dec,
});
export type TokenAnalyticsItem = z.infer<typeof tokenAnalyticsItemSchema>;

export const tokenAnalyticsResultSchema = obj({
  items: arr(tokenAnalyticsItemSchema),
  ...listNote,
  total: int,
  new_token_count24h: int,
});
export type TokenAnalyticsResult = z.infer<typeof tokenAnalyticsResultSchema>;

// 2.12 (operation 4.10)
export const kolMindmapResultSchema = obj({
  items: arr(tokenSummarySchema),
  ...listNote,
  total: int,
});
export type KolMindmapResult = z.infer<typeof kolMindmapResultSchema>;
