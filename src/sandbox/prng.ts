// Seeded randomness and exact decimal formatting for the sandbox data.
// Everything random in the sandbox goes through an Rng so one seed gives one data set.

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Independent stream derived from a seed, so adding draws to one generator does not reshuffle another. */
export function stream(seed: number, salt: number): Rng {
  return mulberry32(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + salt * 0x27d4eb2f);
}

export function int(r: Rng, min: number, max: number): number {
  return min + Math.floor(r() * (max - min + 1));
}

export function pick<T>(r: Rng, arr: readonly T[]): T {
  if (arr.length === 0) throw new Error('pick from empty array');
  return arr[Math.floor(r() * arr.length)] as T;
}

export function chance(r: Rng, p: number): boolean {
  return r() < p;
}

/** Long-tailed value between min and max (uniform in log space, skewed low by `skew` > 1). */
export function logUniform(r: Rng, min: number, max: number, skew = 1): number {
  const u = r() ** skew;
  return Math.exp(Math.log(min) + u * (Math.log(max) - Math.log(min)));
}

/** Roughly normal (Irwin-Hall), mean 0, sd 1. */
export function gauss(r: Rng): number {
  return r() + r() + r() + r() + r() + r() - 3;
}

/** Round to `scale` decimals as a number whose shortest printed form is the decimal itself. */
export function round(x: number, scale: number): number {
  const f = 10 ** scale;
  const v = Math.round(x * f) / f;
  return Object.is(v, -0) ? 0 : v;
}

/**
 * Decimal string of an integer scaled by 10^-scale, built from digits so it never carries
 * binary float noise: fmtScaled(12345, 12) === "0.000000012345".
 */
export function fmtScaled(v: number | bigint, scale: number): string {
  let big = typeof v === 'bigint' ? v : BigInt(Math.round(v));
  const neg = big < 0n;
  if (neg) big = -big;
  let s = big.toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
  }
  return neg && big !== 0n ? `-${s}` : s;
}

/** Fixed-scale decimal string of a number, e.g. dec(72.35, 2) === "72.35". */
export function dec(x: number, scale: number): string {
  return fmtScaled(Math.round(x * 10 ** scale), scale);
}

const HEX = '0123456789abcdef';
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function hex(r: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += HEX[Math.floor(r() * 16)];
  return s;
}

export function base58(r: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += B58[Math.floor(r() * 58)];
  return s;
}

const digits58 = (s: string): bigint => [...s].reduce((n, c) => n * 58n + BigInt(B58.indexOf(c)), 0n);

function encode58(n: bigint): string {
  let s = '';
  for (; n > 0n; n /= 58n) s = B58[Number(n % 58n)] + s;
  return s;
}

const KEY_LOW = 2n ** 248n;
const KEY_HIGH = 2n ** 256n;
const PUMP = 58n ** 4n;

/**
 * A Solana mint as the chain writes it: the base58 of a 32-byte key. Drawn
 * digits that are one already stand; others (a value past 32 bytes, or too few
 * digits for one) are folded into a key of the same draws, a "pump" suffix
 * kept. No extra draw, so the rest of the seeded data does not move.
 */
export function solanaMint(drawn: string): string {
  const ones = /^1*/.exec(drawn)![0].length;
  const value = digits58(drawn);
  const bits = BigInt(8 * (32 - ones));
  if (ones < 32 && value < 2n ** bits && value >= 2n ** (bits - 8n)) return drawn;
  let n = KEY_LOW + (value % (KEY_HIGH - KEY_LOW));
  if (drawn.endsWith('pump')) {
    n += digits58('pump') - (n % PUMP);
    if (n >= KEY_HIGH) n -= PUMP;
  }
  return encode58(n);
}

const TWITTER_EPOCH = 1288834974657n;

/** Twitter snowflake id (decimal string) for a time; seq keeps ids at the same millisecond distinct. */
export function snowflake(ms: number, seq: number): string {
  return (((BigInt(Math.floor(ms)) - TWITTER_EPOCH) << 22n) | BigInt(seq & 0x3fffff)).toString();
}

/** Cumulative-weight sampler over indexes 0..n-1, weight ~ 1/(i+1)^exponent (Zipf-like popularity). */
export function zipfSampler(n: number, exponent: number): (r: Rng) => number {
  const cum: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / (i + 1) ** exponent;
    cum.push(total);
  }
  return (r) => {
    const x = r() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function shuffle<T>(r: Rng, arr: T[]): T[] {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    const t = arr[i] as T;
    arr[i] = arr[j] as T;
    arr[j] = t;
  }
  return arr;
}
