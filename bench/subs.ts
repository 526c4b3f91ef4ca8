/** Deterministic, varied subscriptions for the benchmarks. */
import { CHAINS } from '../src/domain/chains.ts';
import { DEFAULT_FILTERS } from '../src/alerts/filters.ts';
import type { Subscription } from '../src/store/subscriptions.ts';

export function randomSubs(n: number): Subscription[] {
  let seed = 42;
  const r = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const subs: Subscription[] = [];
  for (let i = 0; i < n; i++) {
    const chains = r() < 0.5 ? [] : [CHAINS[Math.floor(r() * CHAINS.length)]!];
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
