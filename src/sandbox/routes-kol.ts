// Operations 4.3 (KOL projects), 4.6 (KOL score), 4.9 (KOL table) and 4.10 (KOL mindmap).
import type { Ctx } from './ctx.ts';
import { cursorPage, decodeCursor, encodeCursor, offsetPage, sortByKey } from './paging.ts';
import { HttpError, type Params, bad, rangeFilter } from './params.ts';
import type { Store } from './store.ts';
import type { SandboxKol } from './types.ts';
import { kolProject, kolScore, kolTableItem, kolTableValues, recentMentions } from './views-kol.ts';
import { tokenSummary } from './views-token.ts';
import { type WinRateRow, winRateRows } from './winrate.ts';

/** Path xUserId is the KOL's Twitter id, compared as a string (it is above 2^53). */
export function kolFromPath(store: Store, raw: string): SandboxKol {
  if (!/^\d{1,20}$/.test(raw)) throw bad('xUserId must be a number');
  const kol = store.kolByTwitterId.get(raw.replace(/^0+(?=\d)/, ''));
  if (!kol) throw new HttpError(404, 'KOL not found');
  return kol;
}

export function kolHasLabel(kol: SandboxKol, labels: readonly string[]): boolean {
  return labels.length === 0 || labels.some((l) => kol.labels.includes(l));
}

const byProjects = new WeakMap<Store, SandboxKol[]>();

/** Op 3 lists KOLs by smart_follower_count, highest first. */
export function kolProjects(ctx: Ctx, p: Params) {
  const limit = p.int('limit', 10, 1, 30);
  const inRange = rangeFilter<SandboxKol>(p, [
    ['minFollowing', 'maxFollowing', (k) => k.following_count],
    ['minFollowers', 'maxFollowers', (k) => k.follower_count],
  ]);
  const after = decodeCursor(p.str('cursor'), 'smartFollowerCount', true);
  let sorted = byProjects.get(ctx.store);
  if (!sorted) {
    sorted = sortByKey([...ctx.store.data.kols], (k) => k.stat.smart_follower_count, false);
    byProjects.set(ctx.store, sorted);
  }
  const page = cursorPage(sorted, (k) => k.stat.smart_follower_count, true, after, limit, inRange);
  return {
    items: page.items.map((k) => kolProject(k, ctx.store)),
    next_cursor: page.next ? encodeCursor('smartFollowerCount', true, page.next) : null,
  };
}

export function kolScoreOp(ctx: Ctx, _p: Params, xUserId: string) {
  return kolScore(kolFromPath(ctx.store, xUserId), ctx.store);
}

interface TableRow {
  id: number;
  kol: SandboxKol;
  v: ReturnType<typeof kolTableValues>;
  w: WinRateRow | undefined;
}
type RowKey = (r: TableRow) => number;

/** sortField of op 9 -> value. The *V2 sub-scores are the KOL's shill performance aggregates (as in op 5). */
const KOL_TABLE_SORT_KEYS: Record<string, RowKey> = {
  totalToken: (r) => r.v.total_token,
  smFollower: (r) => r.v.sm_follower,
  mention: (r) => r.v.mention,
  impression: (r) => r.v.impression,
  sScore: (r) => r.kol.stat.speed_score,
  aScore: (r) => r.kol.stat.accuracy_score,
  lScore: (r) => r.kol.stat.legality_score,
  eScore: (r) => r.kol.stat.engagement_score,
  totalScore: (r) => r.kol.stat.score,
  scoreV2: (r) => r.kol.stat.score_v2,
  activeScore: (r) => r.kol.stat.active_score,
  winrate: (r) => r.kol.stat.win_rate,
  rugRate: (r) => r.kol.stat.rug_rate,
  loseRate: (r) => r.kol.stat.lose_rate,
  userRanking: (r) => r.kol.stat.user_ranking,
  sScoreV2: (r) => r.w?.wps ?? 0,
  aScoreV2: (r) => r.w?.auc ?? 0,
  lScoreV2: (r) => r.w?.cons ?? 0,
  eScoreV2: (r) => r.w?.engagement ?? 0,
};

export function kolTable(ctx: Ctx, p: Params) {
  const { store } = ctx;
  const offset = p.int('offset', 0, 0);
  const limit = p.int('limit', 20, 1, 100);
  const labels = p.list('labels');
  const sortField = p.oneOf('sortField', Object.keys(KOL_TABLE_SORT_KEYS), 'totalScore');
  const desc = p.desc('sortOrder', 'DESC', false);
  const last24h = p.bool('last24hMention') ?? false;
  const search = p.str('search')?.toLowerCase();
  const inRange = rangeFilter<TableRow>(p, [
    ['minTotalToken', 'maxTotalToken', (r) => r.v.total_token],
    ['minSmFollower', 'maxSmFollower', (r) => r.v.sm_follower],
    ['minMention', 'maxMention', (r) => r.v.mention],
    ['minImpression', 'maxImpression', (r) => r.v.impression],
    ['minWinrate', 'maxWinrate', (r) => r.kol.stat.win_rate],
    ['minRugRate', 'maxRugRate', (r) => r.kol.stat.rug_rate],
    ['minLoseRate', 'maxLoseRate', (r) => r.kol.stat.lose_rate],
    ['minScoreV2', 'maxScoreV2', (r) => r.kol.stat.score_v2],
    ['minActiveScore', 'maxActiveScore', (r) => r.kol.stat.active_score],
  ]);
  const now = ctx.now();
  const perf = new Map(winRateRows(store, undefined).map((w) => [w.id, w]));
  const rows: TableRow[] = [];
  for (const kol of store.data.kols) {
    if (!kolHasLabel(kol, labels)) continue;
    if (
      search !== undefined &&
      !kol.username.toLowerCase().includes(search) &&
      !kol.display_name.toLowerCase().includes(search)
    )
      continue;
    if (last24h && recentMentions(kol, store, now) === 0) continue;
    const row = { id: kol.id, kol, v: kolTableValues(kol, store), w: perf.get(kol.id) };
    if (inRange(row)) rows.push(row);
  }
  sortByKey(rows, KOL_TABLE_SORT_KEYS[sortField] as RowKey, desc);
  return {
    items: offsetPage(rows, offset, limit).map((r) => kolTableItem(r.kol, store)),
    total: rows.length,
    meta: { limit, offset },
  };
}

/** Op 10: the tokens a KOL has mentioned, most-mentioned first. */
export function kolMindmap(ctx: Ctx, p: Params, xUserId: string) {
  const offset = p.int('offset', 0, 0);
  const limit = p.int('limit', 10, 1, 50);
  p.str('id');
  const kol = kolFromPath(ctx.store, xUserId);
  const counts = new Map<number, number>();
  for (const t of ctx.store.tweetsByKol.get(kol.id) ?? []) {
    for (const id of new Set(t.tokenIds)) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return {
    items: offsetPage(ranked, offset, limit).map(([id]) => tokenSummary(ctx.store.token(id))),
    total: ranked.length,
  };
}
