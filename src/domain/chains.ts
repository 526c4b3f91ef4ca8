/**
 * Chains as users type them, and addresses as each chain writes them. Checking
 * an address before any request turns a typo into a helpful answer instead of an
 * upstream 404 that looks like "token not found".
 */

/** The chains the upstream knows (its `chainId`). */
export const CHAINS = ['solana', 'aptos', 'bsc', 'base', 'sui'] as const;
export type ChainId = (typeof CHAINS)[number];

export function isChainId(v: unknown): v is ChainId {
  return typeof v === 'string' && (CHAINS as readonly string[]).includes(v);
}

export const CHAIN_ALIASES: Readonly<Record<string, ChainId>> = {
  sol: 'solana',
  bnb: 'bsc',
  bsc: 'bsc',
  binance: 'bsc',
  bnbchain: 'bsc',
  apt: 'aptos',
  basechain: 'base',
};

export const CHAIN_LABEL: Readonly<Record<ChainId, string>> = {
  solana: 'Solana',
  aptos: 'Aptos',
  bsc: 'BNB Chain',
  base: 'Base',
  sui: 'Sui',
};

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM = /^0x[0-9a-fA-F]{40}$/;
/** Move-style coin types: `0x<up to 64 hex>::module::NAME` (Sui, Aptos), or a bare 64-hex object/account. */
const MOVE = /^0x[0-9a-fA-F]{1,64}(::[A-Za-z_][A-Za-z0-9_]*){2}$|^0x[0-9a-fA-F]{64}$/;

/** The address format each chain expects, as a catalogue key (errors.address.*). */
export const ADDRESS_HINT: Readonly<Record<ChainId, 'base58' | 'hex' | 'coinType'>> = {
  solana: 'base58',
  bsc: 'hex',
  base: 'hex',
  sui: 'coinType',
  aptos: 'coinType',
};

/**
 * A Solana address: base58 that decodes to exactly 32 bytes (a public key). The
 * length check alone lets through 32-44 character runs that are no key at all.
 */
export function isSolanaAddress(address: string): boolean {
  return BASE58.test(address) && decodesTo32Bytes(address);
}

const B58_INDEX: readonly number[] = (() => {
  const t = new Array<number>(128).fill(-1);
  [...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'].forEach((c, i) => {
    t[c.charCodeAt(0)] = i;
  });
  return t;
})();

function decodesTo32Bytes(s: string): boolean {
  const bytes: number[] = [];
  for (const c of s) {
    let carry = B58_INDEX[c.charCodeAt(0)] ?? -1;
    if (carry < 0) return false;
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
    if (bytes.length > 32) return false;
  }
  let zeros = 0;
  while (s[zeros] === '1') zeros++;
  return bytes.length + zeros === 32;
}

export function isValidAddress(chain: ChainId, address: string): boolean {
  switch (chain) {
    case 'solana':
      return isSolanaAddress(address);
    case 'bsc':
    case 'base':
      return EVM.test(address);
    case 'sui':
    case 'aptos':
      return MOVE.test(address);
  }
}

/**
 * The chains an address could belong to. One entry: the chain is known (a base58
 * address can only be Solana here). Several: the caller must ask which.
 */
export function chainsForAddress(address: string): ChainId[] {
  if (isSolanaAddress(address)) return ['solana'];
  if (EVM.test(address)) return ['bsc', 'base'];
  if (MOVE.test(address)) return ['sui', 'aptos'];
  return [];
}

/**
 * One key per address, whatever case it was typed or listed in: EVM addresses
 * are case-insensitive (checksum casing is cosmetic), so they are compared
 * lower-cased; base58 and Move type names are case-sensitive. Without a chain,
 * the address's own format says whether it is EVM.
 */
export function addressKey(address: string, chain?: string): string {
  const evm = chain === undefined ? EVM.test(address) : chain === 'bsc' || chain === 'base';
  return evm ? address.toLowerCase() : address;
}

/** One key per token: `chain:address` with the address as addressKey writes it. */
export function tokenKeyOf(chain: string, address: string): string {
  return `${chain}:${addressKey(address, chain)}`;
}

/** Do two addresses on `chain` name the same token? */
export function sameAddress(chain: string, a: string, b: string): boolean {
  return addressKey(a, chain) === addressKey(b, chain);
}

export function explorerTokenUrl(chain: ChainId, address: string): string {
  const a = encodeURIComponent(address);
  switch (chain) {
    case 'solana':
      return `https://solscan.io/token/${a}`;
    case 'bsc':
      return `https://bscscan.com/token/${a}`;
    case 'base':
      return `https://basescan.org/token/${a}`;
    case 'sui':
      return `https://suiscan.xyz/mainnet/coin/${a}`;
    case 'aptos':
      return `https://explorer.aptoslabs.com/coin/${a}?network=mainnet`;
  }
}

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string
 * alignment): "tokne" is one typo from "token". Small inputs only (names, chains).
 */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i || j));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest candidate within a typo's reach, for "did you mean". */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase().startsWith(needle) && needle.length >= 2 ? 0.5 : distance(needle, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const reach = Math.max(1, Math.floor(needle.length / 3));
  return bestD <= reach ? best : undefined;
}
