export const CHAINS = ['solana', 'aptos', 'bsc', 'base', 'sui'] as const;
export type ChainId = (typeof CHAINS)[number];

export function isChainId(v: unknown): v is ChainId {
  return typeof v === 'string' && (CHAINS as readonly string[]).includes(v);
}
