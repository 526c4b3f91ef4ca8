// KOL-level aggregates over shills: the win rates and performance scores of operation 5,
// reused for the v2 sort keys of operation 9. Shills are fixed once generated, so rows are cached
// per (chain, window).
import { dec, round } from './prng.ts';
import type { Store } from './store.ts';
import { HORIZONS, type SandboxKol, type Shill } from './types.ts';
import { kolCore } from './views-kol.ts';

export interface WinRateRow {
  id: number;
  kol: SandboxKol;
  n: number;
  rates: number[];
  wps: number;
  cons: number;
  auc: number;
  ups: number;
  engagement: number;
}

function aggregate(kol: SandboxKol, shills: readonly Shill[]): WinRateRow {
  const n = shills.length;
  const wins = HORIZONS.map(() => 0);
  let wps = 0;
  let cons = 0;
  let auc = 0;
  let ups = 0;
  let engagement = 0;
  for (const s of shills) {
    for (let i = 0; i < wins.length; i++) if (s.wins[i]) wins[i] = (wins[i] ?? 0) + 1;
    wps += s.weighted_performance_score;
    cons += s.consistency_score;
    auc += s.area_under_curve_score;
    ups += s.unified_performance_score;
    engagement += s.engagement;
  }
  const d = n || 1;
  return {
    id: kol.id,
    kol,
    n,
    rates: wins.map((w) => round(w / d, 4)),
    wps: round(wps / d, 2),
    cons: round(cons / d, 2),
    auc: round(auc / d, 2),
    ups: round(ups / d, 2),
    engagement: round(engagement / d, 2),
  };
}

const cache = new WeakMap<Store, Map<string, WinRateRow[]>>();
const CACHE_SIZE = 64;

/** Rows of KOLs with at least one shill matching the chain and time window (shills never change, so results are cached). */
export function winRateRows(store: Store, chain: string | undefined, fromMs?: number, toMs?: number): WinRateRow[] {
  const key = `${chain ?? '*'}|${fromMs ?? ''}|${toMs ?? ''}`;
  let byKey = cache.get(store);
  if (!byKey) {
    byKey = new Map();
    cache.set(store, byKey);
  }
  const hit = byKey.get(key);
  if (hit) return hit;
  const rows: WinRateRow[] = [];
  for (const kol of store.data.kols) {
    const shills = (store.shillsByKol.get(kol.id) ?? []).filter(
      (s) =>
        (chain === undefined || store.token(s.tokenId).chain_id === chain) &&
        (fromMs === undefined || s.shillMs >= fromMs) &&
        (toMs === undefined || s.shillMs <= toMs),
    );
    if (shills.length) rows.push(aggregate(kol, shills));
  }
  // Unwindowed keys stay; windowed ones are evicted oldest first.
  if (byKey.size >= CACHE_SIZE) {
    for (const k of byKey.keys()) {
      if (!k.endsWith('||')) {
        byKey.delete(k);
        break;
      }
    }
  }
  byKey.set(key, rows);
  return rows;
}

export function winRateItem(r: WinRateRow) {
  const s = r.kol.stat;
  const item: Record<string, unknown> = { x_user_id: r.kol.id };
  HORIZONS.forEach((h, i) => {
    item[`win_rate_after${h}`] = dec(r.rates[i] ?? 0, 4);
  });
  item.num_tokens_counted_win_rate = r.n;
  item.x_user = kolCore(r.kol);
  item.weighted_performance_score = dec(r.wps, 2);
  item.consistency_score = dec(r.cons, 2);
  item.area_under_curve_score = dec(r.auc, 2);
  item.unified_performance_score = dec(r.ups, 2);
  item.like_score = dec(s.like_score, 2);
  item.share_score = dec(s.share_score, 2);
  item.mention_score = dec(s.mention_score, 2);
  item.active_score = dec(s.active_score, 2);
  return item;
}
