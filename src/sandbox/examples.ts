/**
 * The records the bot's own examples name (`/help`, the README, error
 * messages): wrapped SOL, BSC's USDT, Base's DEGEN and WETH, a Solana PEPE, and
 * the KOLs @cryptoking (X id 1790912474830548992), @cobie and @ansem. A new
 * user copies an example first; against the embedded sandbox it must answer
 * with a card, not "not found". Existing generated records are renamed (no
 * random draw is added, so the rest of the data set stays as it was), and the
 * tweet generator mentions them often enough for tweets, links and shills.
 */
import type { ChainId, SandboxKol, SandboxToken } from './types.ts';

const DAY = 86_400_000;

const TOKENS: readonly { chain: ChainId; address?: string; name: string; symbol: string }[] = [
  { chain: 'solana', address: 'So11111111111111111111111111111111111111112', name: 'Wrapped SOL', symbol: 'SOL' },
  { chain: 'bsc', address: '0x55d398326f99059ff775485246999027b3197955', name: 'Tether USD', symbol: 'USDT' },
  { chain: 'base', address: '0x4ed4e862860bed51a9570b96d89af5e1b0efefed', name: 'Degen', symbol: 'DEGEN' },
  { chain: 'base', address: '0x4200000000000000000000000000000000000006', name: 'Wrapped Ether', symbol: 'WETH' },
  { chain: 'solana', name: 'Pepe', symbol: 'PEPE' },
];

const KOLS: readonly { username: string; twitterId?: string }[] = [
  { username: 'cryptoking', twitterId: '1790912474830548992' },
  { username: 'cobie' },
  { username: 'ansem' },
];

/** Twitter's epoch: a snowflake id carries its creation time in ms since then. */
const TWITTER_EPOCH = 1_288_834_974_657n;

/** Renames established tokens and big accounts into the examples' records; returns them for the tweet generator. */
export function seedExamples(
  tokens: SandboxToken[],
  kols: SandboxKol[],
  now: number,
  skip: readonly (SandboxToken | SandboxKol)[],
): { tokens: SandboxToken[]; kols: SandboxKol[] } {
  const usedTokens = new Set<SandboxToken>();
  // From the end of the list: the first records stay the seed's own (other seeds must differ there).
  const outTokens = TOKENS.flatMap((spec) => {
    const t = tokens.findLast(
      (x) =>
        x.chain_id === spec.chain &&
        !usedTokens.has(x) &&
        !skip.includes(x) &&
        x.createdMs < now - 60 * DAY &&
        x.marketcap > 1_000_000 &&
        x.liquidity > 0 &&
        x.mention > 0,
    );
    // A data set too small to hold one (tests' tiny sets) goes without it.
    if (!t) return [];
    usedTokens.add(t);
    t.name = spec.name;
    t.symbol = spec.symbol;
    if (spec.address) t.address = spec.address;
    return [t];
  });
  const big = kols
    .filter((k) => !skip.includes(k) && k.twitter_status === 1 && k.follower_count >= 50_000)
    .sort((a, b) => b.follower_count - a.follower_count || a.id - b.id);
  const outKols = KOLS.flatMap((spec, i) => {
    const k = big[i];
    if (!k) return [];
    // A generated account that happens to carry the name gives it up.
    for (const other of kols) if (other !== k && other.username.toLowerCase() === spec.username) other.username += '_';
    k.username = spec.username;
    if (spec.twitterId) {
      k.twitter_id = spec.twitterId;
      k.twitter_created_at = new Date(Number((BigInt(spec.twitterId) >> 22n) + TWITTER_EPOCH)).toISOString();
    }
    return [k];
  });
  return { tokens: outTokens, kols: outKols };
}
