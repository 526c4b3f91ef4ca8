// Query-string reading with the validation rules of the spec; any violation is a 400.
import { CHAINS, type ChainId } from './types.ts';

export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, reason: string) {
    super(reason);
    this.status = status;
  }
}

export type QueryMap = Record<string, string[]>;

export function parseQuery(raw: string): QueryMap {
  const out: QueryMap = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    const values = out[k] ?? [];
    out[k] = values;
    values.push(v);
  }
  return out;
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

export function bad(reason: string): HttpError {
  return new HttpError(400, reason);
}

export class Params {
  readonly q: QueryMap;
  constructor(q: QueryMap) {
    this.q = q;
  }

  /** Scalar parameter; repeating it is ambiguous and rejected. */
  str(name: string): string | undefined {
    const v = this.q[name];
    if (!v || v.length === 0) return undefined;
    if (v.length > 1) throw bad(`${name} given more than once`);
    return v[0];
  }

  int(name: string, def: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    return this.optInt(name, min, max) ?? def;
  }

  optInt(name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const s = this.str(name);
    if (s === undefined) return undefined;
    if (!INTEGER.test(s)) throw bad(`${name} must be an integer`);
    const n = Number(s);
    if (n < min || n > max) throw bad(`${name} must be between ${min} and ${max}`);
    return n;
  }

  /** Number sent as query-string text ("12", "-3.5", "1e6"). */
  num(name: string): number | undefined {
    const s = this.str(name);
    if (s === undefined) return undefined;
    if (!NUMERIC.test(s.trim())) throw bad(`${name} must be numeric`);
    const n = Number(s);
    if (!Number.isFinite(n)) throw bad(`${name} must be finite`);
    return n;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], def: T, caseInsensitive = false): T {
    const s = this.str(name);
    if (s === undefined) return def;
    const hit = allowed.find((a) => (caseInsensitive ? a.toLowerCase() === s.toLowerCase() : a === s));
    if (hit === undefined) throw bad(`${name} must be one of ${allowed.join(', ')}`);
    return hit;
  }

  /** ASC/DESC exactly (ops 2, 4, 5, 9) or asc/desc in any case (ops 7, 8). Returns true for descending. */
  desc(name: string, def: 'ASC' | 'DESC', caseInsensitive: boolean): boolean {
    return this.oneOf(name, ['ASC', 'DESC'] as const, def, caseInsensitive) === 'DESC';
  }

  bool(name: string): boolean | undefined {
    const s = this.str(name);
    if (s === undefined) return undefined;
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
    throw bad(`${name} must be true or false`);
  }

  /** Array parameter: repeated keys, a single value, or `name[]=` keys; empty values are ignored. */
  list(name: string): string[] {
    return [...(this.q[name] ?? []), ...(this.q[`${name}[]`] ?? [])].filter((v) => v !== '');
  }

  chain(name: string): ChainId | undefined {
    const s = this.str(name);
    if (s === undefined) return undefined;
    return asChain(s);
  }

  chains(name: string): ChainId[] {
    return this.list(name).map(asChain);
  }

  /** ISO date or timestamp, or UNIX time (seconds, or ms when longer). A bare end date covers its whole day. */
  date(name: string, endOfDay = false): number | undefined {
    const s = this.str(name);
    if (s === undefined) return undefined;
    const ms = INTEGER.test(s) ? Number(s) * (s.length <= 10 ? 1000 : 1) : Date.parse(s);
    if (!Number.isFinite(ms)) throw bad(`${name} must be a date`);
    return endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(s) ? ms + 86_399_999 : ms;
  }
}

export function asChain(s: string): ChainId {
  if (!(CHAINS as readonly string[]).includes(s)) throw bad(`chainId must be one of ${CHAINS.join(', ')}`);
  return s as ChainId;
}

export type Getter<T> = (x: T) => number;

/** Predicate for min/max pairs: `[minParam, maxParam, value]`; bounds are inclusive. */
export function rangeFilter<T>(
  p: Params,
  specs: ReadonlyArray<readonly [string, string, Getter<T>]>,
): (x: T) => boolean {
  const active: Array<[number, number, Getter<T>]> = [];
  for (const [minName, maxName, get] of specs) {
    const min = p.num(minName);
    const max = p.num(maxName);
    if (min !== undefined || max !== undefined) active.push([min ?? -Infinity, max ?? Infinity, get]);
  }
  if (active.length === 0) return () => true;
  return (x) =>
    active.every(([min, max, get]) => {
      const v = get(x);
      return v >= min && v <= max;
    });
}
