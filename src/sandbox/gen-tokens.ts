import { type Rng, base58, chance, gauss, hex, int, logUniform, pick, round, solanaMint } from './prng.ts';
import { CHAINS, type ChainId, type SandboxToken } from './types.ts';

const PREFIX = [
  'Pepe',
  'Doge',
  'Shiba',
  'Bonk',
  'Wif',
  'Moon',
  'Based',
  'Giga',
  'Turbo',
  'Brett',
  'Mog',
  'Popcat',
  'Floki',
  'Chad',
  'Wojak',
  'Sigma',
  'Frog',
  'Kitty',
  'Bull',
  'Ape',
  'Banana',
  'Rocket',
  'Pixel',
  'Neon',
  'Quantum',
  'Solar',
  'Cosmic',
  'Hyper',
  'Zen',
  'Degen',
  'Laser',
  'Baby',
  'King',
  'Mega',
  'Goat',
  'Penguin',
  'Michi',
  'Toshi',
  'Ponke',
  'Myro',
  'Slerf',
  'Harambe',
  'Nyan',
  'Hamster',
  'Corgi',
  'Panda',
  'Otter',
  'Capy',
];
const SUFFIX = [
  '',
  '',
  '',
  ' Inu',
  ' Coin',
  ' AI',
  ' Cat',
  ' Dog',
  ' on Sol',
  'Fi',
  ' Swap',
  ' Protocol',
  ' Wif Hat',
  ' Pump',
  'Verse',
  ' DAO',
  ' Labs',
  ' Finance',
  ' Bot',
  ' GPT',
  ' Classic',
  ' 2.0',
];
const MOVE_MODULES = ['coin', 'token', 'meme', 'fa'];
const DAY = 86_400_000;
const HOUR = 3_600_000;

function chainAddress(r: Rng, chain: ChainId, symbol: string): string {
  switch (chain) {
    case 'solana': {
      // Mint addresses are 32-byte keys (43-44 chars); pump.fun mints end in "pump".
      const len = chance(r, 0.05) ? int(r, 32, 42) : int(r, 43, 44);
      if (chance(r, 0.3)) return solanaMint(`${base58(r, len - 4)}pump`);
      return solanaMint(base58(r, len));
    }
    case 'bsc':
    case 'base':
      return `0x${hex(r, 40)}`;
    case 'sui':
    case 'aptos': {
      const name = symbol.replace(/[^A-Za-z0-9]/g, '').toUpperCase() || 'COIN';
      const mod = chance(r, 0.5) ? name.toLowerCase() : pick(r, MOVE_MODULES);
      return `0x${hex(r, 64)}::${mod}::${name}`;
    }
  }
}

function symbolOf(name: string): string {
  const words = name
    .replace(/[^A-Za-z0-9 ]/g, '')
    .split(' ')
    .filter(Boolean);
  const first = words[0] ?? 'TKN';
  if (words.length === 1 || first.length >= 5) return first.toUpperCase().slice(0, 8);
  return (
    first +
    words
      .slice(1)
      .map((w) => w[0])
      .join('')
  )
    .toUpperCase()
    .slice(0, 8);
}

/** Price as mantissa (5-6 significant digits) and scale: from 0.00000000xxxx to a few dollars. */
function price(r: Rng): { mantissa: number; scale: number } {
  const zeros = Math.min(10, Math.floor(logUniform(r, 1, 11, 0.6)) - 1);
  const digits = int(r, 5, 6);
  const mantissa = int(r, 10 ** (digits - 1), 10 ** digits - 1);
  // A few established tokens trade above a dollar.
  if (chance(r, 0.08)) return { mantissa, scale: digits - int(r, 1, 3) };
  return { mantissa, scale: zeros + digits };
}

function change(r: Rng, spread: number): number {
  if (chance(r, 0.06)) return 0;
  const g = gauss(r) * spread;
  // Meme tokens pump far more than they dump: fat right tail, floor at -99.
  const v = g > 0 ? Math.expm1(g / 40) * 100 : Math.max(-99, g);
  return round(v, 2);
}

function score(r: Rng): number {
  return chance(r, 0.04) ? 0 : round(Math.min(100, Math.max(0, 45 + gauss(r) * 18)), 2);
}

function makeToken(r: Rng, id: number, chain: ChainId, name: string, symbol: string, now: number): SandboxToken {
  // A slice of tokens is very new so the "new tokens" window has content.
  const ageMs = chance(r, 0.18) ? logUniform(r, 10 * 60_000, 168 * HOUR) : logUniform(r, 7 * DAY, 900 * DAY, 0.8);
  const marketcap = chance(r, 0.03) ? 0 : round(logUniform(r, 4_000, 8_000_000_000, 1.6), 2);
  const liquidity = marketcap === 0 || chance(r, 0.03) ? 0 : round(marketcap * logUniform(r, 0.005, 0.4), 2);
  const mention = chance(r, 0.05) ? 0 : Math.floor(logUniform(r, 1, 60_000, 1.8));
  const avg = score(r);
  const p = price(r);
  const t: SandboxToken = {
    id,
    name,
    symbol,
    address: chainAddress(r, chain, symbol),
    chain_id: chain,
    icon_url: `https://static.sandbox.invalid/tokens/${chain}/${id}.png`,
    pair_address:
      chain === 'solana' ? base58(r, 44) : chain === 'sui' || chain === 'aptos' ? `0x${hex(r, 64)}` : `0x${hex(r, 40)}`,
    createdMs: Math.floor(now - ageMs),
    marketcap,
    liquidity,
    smart_follower: mention === 0 ? 0 : Math.floor(Math.sqrt(mention) * logUniform(r, 0.2, 3)),
    mention,
    impression: mention === 0 ? 0 : Math.floor(mention * logUniform(r, 50, 5_000, 1.3)),
    changes: { m5: change(r, 4), h1: change(r, 12), h4: change(r, 25), h24: change(r, 45) },
    total_score: mention === 0 ? 0 : round(avg * logUniform(r, 1, 40, 1.5), 2),
    avg_score: avg,
    avg_score_v2: round(Math.min(100, avg * (0.8 + r() * 0.4)), 2),
    score_v2: score(r),
    token_score: score(r),
    score: score(r),
    sentiment: pick(r, [-1, 0, 0, 1, 1, 1]),
    priceMantissa: p.mantissa,
    priceScale: p.scale,
  };
  return t;
}

export interface TokenEdges {
  cjk: SandboxToken;
  html: SandboxToken;
}

export function generateTokens(r: Rng, count: number, now: number): { tokens: SandboxToken[]; edge: TokenEdges } {
  const tokens: SandboxToken[] = [];
  const seen = new Set<string>();
  let id = 1;
  for (let i = 0; tokens.length < count; i++) {
    const chain = CHAINS[i % CHAINS.length] as ChainId;
    let name = pick(r, PREFIX) + pick(r, SUFFIX);
    if (seen.has(`${chain}:${name}`)) name = `${name} ${int(r, 2, 99)}`;
    if (seen.has(`${chain}:${name}`)) continue;
    seen.add(`${chain}:${name}`);
    tokens.push(makeToken(r, id++, chain, name, symbolOf(name), now));
  }
  const cjk = makeToken(r, id++, 'solana', '龙币 🐉 Dragon 火箭🚀', '龙🐉', now);
  const html = makeToken(r, id++, 'bsc', `<b>Bold</b> & "Quote" 'Coin'`, `<B>&"'`, now);
  tokens.push(cjk, html);
  return { tokens, edge: { cjk, html } };
}
