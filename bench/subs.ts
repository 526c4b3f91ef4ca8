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

/**
 * Subscriptions as a large install has them (issue #42): most on the defaults, each
 * with the feed position it started at; some pick a chain or two, raise or lower the
 * thresholds, keep a KOL list, keywords or block words, market filters, a pause or a
 * muted token; a few are forum topics or stopped. Deterministic.
 */
export function realisticSubs(n: number, seed = 1): Subscription[] {
  let s = seed;
  const r = () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return s / 2 ** 32;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const kols = Array.from({ length: 200 }, (_, i) => `kol${i}`);
  const started = Date.parse('2026-11-01T00:00:00.000Z');
  const out: Subscription[] = [];
  for (let i = 0; i < n; i++) {
    const custom = r() < 0.25;
    const chat = String(-1_000_000_000_000 - i);
    const topic = r() < 0.03 ? String(2 + Math.floor(r() * 50)) : undefined;
    const platform = r() < 0.3 ? 'discord' : 'telegram';
    const chatId = platform === 'discord' ? String(800_000_000_000_000_000n + BigInt(i)) : chat;
    const at = started + Math.floor(r() * 27 * 86_400_000);
    out.push({
      id: `${platform}:${chatId}${topic ? `:${topic}` : ''}`,
      platform,
      chatId,
      ...(topic ? { threadId: topic } : {}),
      isGroup: platform === 'telegram' && r() < 0.8,
      ...(platform === 'discord' ? { serverId: String(900_000_000_000_000_000n + BigInt(i >> 2)) } : {}),
      name: `community ${i}`,
      filters: custom
        ? {
            ...DEFAULT_FILTERS,
            chains: r() < 0.5 ? [] : r() < 0.8 ? [pick(CHAINS)] : [pick(CHAINS), pick(CHAINS)],
            minTokenScore: pick([50, 60, 70, 75, 80, 90]),
            minKolScore: pick([0, 40, 60, 70, 80]),
            minFollowers: pick([0, 1000, 10_000, 50_000]),
            ...(r() < 0.2 ? { allowKols: Array.from({ length: 1 + Math.floor(r() * 8) }, () => pick(kols)) } : {}),
            ...(r() < 0.15 ? { keywords: [pick(['moon', '$wif', 'launch', 'airdrop'])] } : {}),
            ...(r() < 0.3 ? { blockKeywords: ['rug', 'scam'] } : {}),
            ...(r() < 0.3 ? { minMarketCap: pick([50_000, 100_000, 1_000_000]), minLiquidity: 25_000 } : {}),
            ...(r() < 0.1 ? { maxAgeDays: pick([1, 3, 7]) } : {}),
          }
        : { ...DEFAULT_FILTERS },
      mutedTokens: r() < 0.05 ? [`solana:mint${Math.floor(r() * 1000)}`] : [],
      pausedUntil: r() < 0.03 ? at + 86_400_000 * 60 : null,
      startAfter: { tweetedAt: new Date(at).toISOString(), id: String(1_900_000_000_000_000_000n + BigInt(at)) },
      disabled: r() < 0.02 ? { reason: 'the bot was removed from the chat', at } : null,
      createdBy: `${platform}:${100_000 + Math.floor(r() * 900_000)}`,
      createdAt: at,
      updatedAt: at,
    });
  }
  return out;
}
