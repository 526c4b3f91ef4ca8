// Market caps that move while the sandbox runs: a seeded random walk per token,
// one step per `stepMs` of the sandbox clock, with occasional pumps and rugs, so
// call follow-ups show real movement in the demo and in tests. Liquidity follows
// the market cap at the token's own ratio. Steps are applied lazily on the next
// request, so a test that moves the clock by a day gets the day's walk at once.
import { stream, type Rng } from './prng.ts';
import type { SandboxToken } from './types.ts';

export interface MarketWalkOptions {
  /** Sandbox time per step; default one minute. */
  readonly stepMs?: number;
}

/** Per step: a pump (x1.5-4) or a rug (x0.05-0.3) happens this rarely (about one pump in 2 days, one rug in 7, per token). */
const PUMP = 0.0003;
const RUG = 0.0001;
/** Typical step size in log space (about 1 % a minute). */
const VOLATILITY = 0.01;
/** Walks stay within these bounds so every value is a plausible market cap. */
const FLOOR = 1_000;
const CEILING = 50_000_000_000;

export class MarketWalk {
  private readonly rng: Rng;
  private readonly stepMs: number;
  private readonly ratio: Map<SandboxToken, number>;
  private at: number;
  private readonly tokens: readonly SandboxToken[];

  constructor(tokens: readonly SandboxToken[], seed: number, startMs: number, o: MarketWalkOptions = {}) {
    this.tokens = tokens;
    this.rng = stream(seed, 9);
    this.stepMs = o.stepMs ?? 60_000;
    this.at = startMs;
    this.ratio = new Map(tokens.map((t) => [t, t.marketcap > 0 ? t.liquidity / t.marketcap : 0]));
  }

  /** Applies every whole step up to `now` (a clock that steps back changes nothing). */
  advance(now: number): void {
    const steps = Math.floor((now - this.at) / this.stepMs);
    if (steps <= 0) return;
    this.at += steps * this.stepMs;
    for (let s = 0; s < steps; s++) {
      for (const t of this.tokens) {
        if (t.marketcap <= 0) continue; // a dead token stays dead
        const u = this.rng();
        const jump = u < RUG ? 0.05 + this.rng() * 0.25 : u < RUG + PUMP ? 1.5 + this.rng() * 2.5 : 1;
        const drift = Math.exp((this.rng() * 2 - 1) * VOLATILITY * Math.sqrt(3));
        t.marketcap = Math.round(Math.min(CEILING, Math.max(FLOOR, t.marketcap * drift * jump)) * 100) / 100;
        t.liquidity = Math.round(t.marketcap * this.ratio.get(t)! * 100) / 100;
      }
    }
  }
}
