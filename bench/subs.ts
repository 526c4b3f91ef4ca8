/** Deterministic, varied subscriptions for the benchmarks. */
import { CHAINS } from '../src/domain/chains.ts';
import { DEFAULT_FILTERS } from '../src/alerts/filters.ts';
import type { Subscription } from '../src/store/subscriptions.ts';

/** `trader`: with the market and keyword filters on a share (the same random draws either way). */
export function randomSubs(n: number, trader = true): Subscription[] {
  let seed = 42;
  const r = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  // A stream of its own for the trader's filters: the others draw as they always did.
  let seed2 = 7;
  const r2 = () => {
    seed2 = (seed2 * 1103515245 + 12345) >>> 0;
    return seed2 / 2 ** 32;
  };
  const subs: Subscription[] = [];
  for (let i = 0; i < n; i++) {
    const chains = r() < 0.5 ? [] : [CHAINS[Math.floor(r() * CHAINS.length)]!];
    const [block, allow, market, age] = [r2() < 0.1, r2() < 0.05, r2() < 0.2, r2() < 0.05].map((x) => x && trader);
    subs.push({
      id: `telegram:-100${i}`,
      platform: 'telegram',
      chatId: `-100${i}`,
      isGroup: true,
      filters: {
        ...DEFAULT_FILTERS,
        chains,
        minTokenScore: Math.floor(r() * 90),
        minKolScore: Math.floor(r() * 80),
        minFollowers: [0, 1000, 10_000, 50_000][Math.floor(r() * 4)]!,
        labels: r() < 0.2 ? ['alpha'] : [],
        denyKols: r() < 0.1 ? ['someone'] : [],
        // The trader's filters on a share of them: keywords are matched in the hot loop,
        // market bounds after the matches' operation-2 lookup.
        ...(block ? { blockKeywords: ['rug', 'scam'] } : {}),
        ...(allow ? { keywords: ['moon', '$wif'] } : {}),
        ...(market ? { minMarketCap: 100_000, minLiquidity: 25_000 } : {}),
        ...(age ? { maxAgeDays: 3 } : {}),
      },
      mutedTokens: [],
      pausedUntil: null,
      startAfter: null,
      disabled: null,
      createdBy: 'bench',
      createdAt: 0,
      updatedAt: 0,
    });
  }
  return subs;
}
