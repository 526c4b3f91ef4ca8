// Run-time fault injection: what a flaky upstream or the gateway in front of it would do.
import { type Rng, mulberry32 } from './prng.ts';
import { type Operation, operationName } from './router.ts';

export interface Faults {
  /** Added before answering, in ms. */
  latencyMs?: number;
  /** Extra random delay, uniform in [0, jitterMs]. */
  jitterMs?: number;
  /**
   * With latencyMs as the median: a log-normal latency whose 99th percentile is
   * this (a real API's long tail, e.g. 150 ms median and 1 s p99), instead of a constant.
   */
  latencyP99Ms?: number;
  /** Fraction of requests answered 500, 502 or 503. */
  errorRate?: number;
  /** The next N requests are answered 503. */
  burst5xx?: number;
  /** The next `count` requests are answered 429 with Retry-After: retryAfterSec. */
  rateLimit?: { count: number; retryAfterSec: number };
  /** Fraction of requests never answered (until the sandbox closes). */
  hangRate?: number;
  /** Fraction of successful answers whose JSON body is cut short. */
  malformedRate?: number;
  /** Fraction of successful answers that are valid JSON breaking the spec (field missing or wrong type). */
  driftRate?: number;
  /** Restrict all of the above to these operations (names, numbers "8" or sections "4.8"). */
  operations?: string[];
}

export type FaultKind = 'latency' | 'error' | 'burst' | 'rateLimit' | 'hang' | 'malformed' | 'drift';

export type PreFault =
  | { kind: 'error' | 'burst' | 'rateLimit'; status: number; headers?: Record<string, string> }
  | { kind: 'hang' };

export class FaultState {
  private f: Faults = {};
  private ops: Set<Operation> | undefined;
  private burstLeft = 0;
  private rateLeft = 0;
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = mulberry32(seed ^ 0x5eed);
  }

  set(f: Faults): void {
    this.f = { ...f };
    this.burstLeft = Math.max(0, Math.floor(f.burst5xx ?? 0));
    this.rateLeft = Math.max(0, Math.floor(f.rateLimit?.count ?? 0));
    if (f.operations && f.operations.length > 0) {
      this.ops = new Set(
        f.operations.map((o) => {
          const name = operationName(o);
          if (!name) throw new Error(`unknown operation ${o}`);
          return name;
        }),
      );
    } else this.ops = undefined;
  }

  clear(): void {
    this.set({});
  }

  get current(): Faults {
    return {
      ...this.f,
      burst5xx: this.burstLeft,
      ...(this.f.rateLimit ? { rateLimit: { ...this.f.rateLimit, count: this.rateLeft } } : {}),
    };
  }

  applies(op: Operation | undefined): boolean {
    return this.ops === undefined || (op !== undefined && this.ops.has(op));
  }

  delayMs(): number {
    let base = this.f.latencyMs ?? 0;
    const p99 = this.f.latencyP99Ms ?? 0;
    if (base > 0 && p99 > base) {
      // ln(latency) is normal: median ln(base), sigma so that the 99th percentile (z = 2.326) lands on p99.
      const sigma = Math.log(p99 / base) / 2.326;
      base *= Math.exp(sigma * normal(this.rng));
    }
    const jitter = this.f.jitterMs ?? 0;
    return Math.max(0, base + (jitter > 0 ? this.rng() * jitter : 0));
  }

  /** Fault that replaces the real answer, if any; counted faults are used up in order. */
  before(): PreFault | undefined {
    if (this.rateLeft > 0 && this.f.rateLimit) {
      this.rateLeft--;
      return { kind: 'rateLimit', status: 429, headers: { 'retry-after': String(this.f.rateLimit.retryAfterSec) } };
    }
    if (this.burstLeft > 0) {
      this.burstLeft--;
      return { kind: 'burst', status: 503 };
    }
    if (this.roll(this.f.errorRate))
      return { kind: 'error', status: [500, 502, 503][Math.floor(this.rng() * 3)] as number };
    if (this.roll(this.f.hangRate)) return { kind: 'hang' };
    return undefined;
  }

  /** Corruption of a successful JSON body, if any. */
  after(body: string): { kind: 'malformed' | 'drift'; body: string } | undefined {
    if (this.roll(this.f.malformedRate))
      return { kind: 'malformed', body: body.slice(0, Math.max(1, Math.floor(body.length / 2))) };
    if (this.roll(this.f.driftRate))
      return { kind: 'drift', body: JSON.stringify(drift(JSON.parse(body), this.rng() < 0.5)) };
    return undefined;
  }

  private roll(rate: number | undefined): boolean {
    return rate !== undefined && rate > 0 && this.rng() < rate;
  }
}

/** A standard normal draw (Box-Muller) from a uniform source. */
function normal(rng: Rng): number {
  const u = 1 - rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/**
 * Breaks the spec while staying valid JSON: in every list item (or the body itself) either the
 * `id` (or first) field goes missing, or the first number becomes a string and the first string a number.
 */
export function drift(body: unknown, missing: boolean): unknown {
  if (!body || typeof body !== 'object') return { unexpected: body };
  const obj = body as Record<string, unknown>;
  const targets = Array.isArray(obj.items) && obj.items.length > 0 ? (obj.items as Record<string, unknown>[]) : [obj];
  for (const t of targets) {
    if (!t || typeof t !== 'object') continue;
    if (missing) {
      const k = 'id' in t ? 'id' : Object.keys(t)[0];
      if (k !== undefined) delete t[k];
      continue;
    }
    const num = Object.keys(t).find((k) => typeof t[k] === 'number');
    const str = Object.keys(t).find((k) => typeof t[k] === 'string');
    if (num !== undefined) t[num] = String(t[num]);
    if (str !== undefined) t[str] = 12345;
    if (num === undefined && str === undefined) t.items = 'drifted';
  }
  return obj;
}
