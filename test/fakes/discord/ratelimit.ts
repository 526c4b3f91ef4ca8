import { createHash } from 'node:crypto';
import type { BucketSpec, Force429Options, RateLimitScope, RequestInfo, RouteMatcher, Violation } from './types.ts';

export interface LimitedRequest extends RequestInfo {
  /** Opaque bucket name shared by routes Discord limits together; undefined = no bucket headers. */
  bucket?: string;
  /** Channel, guild or webhook the bucket is scoped by. */
  major?: string;
  spec?: BucketSpec;
  /** False for interaction callbacks, which Discord exempts from the global limit. */
  countsGlobal: boolean;
}

export type Decision =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; headers: Record<string, string>; body: Record<string, unknown> };

interface BucketState {
  resetAt: number;
  remaining: number;
  blockedUntil: number;
}

interface ForceRule {
  matches: (req: RequestInfo) => boolean;
  left: number;
  retryAfterMs: number;
  global: boolean;
  blockedUntil: number;
}

function toPredicate(matcher: RouteMatcher): (req: RequestInfo) => boolean {
  if (typeof matcher === 'function') return matcher;
  if (matcher instanceof RegExp) return (req) => matcher.test(req.path);
  return (req) => req.path.startsWith(matcher);
}

// Discord's bucket ids are opaque hashes; clients must only compare them for equality.
const hashCache = new Map<string, string>();
function bucketHash(bucket: string): string {
  let hash = hashCache.get(bucket);
  if (hash === undefined) {
    hash = createHash('sha1').update(bucket).digest('hex').slice(0, 32);
    hashCache.set(bucket, hash);
  }
  return hash;
}

// Seconds with millisecond precision: Discord rounds to whole seconds, but sub-second
// windows keep tests fast and discord.js parses the header with Number().
function seconds(ms: number): string {
  return String(Math.max(0, Math.ceil(ms)) / 1000);
}

/**
 * Windows start at the first request after the previous one ended, exactly like
 * discord.js's own accounting, so a client that honours the headers never collides
 * with the fake because of window alignment.
 */
export class RateLimiter {
  globalPerSecond: number;
  readonly violations: Violation[] = [];
  #globalWindowEnd = 0;
  #globalCount = 0;
  #globalBlockedUntil = 0;
  #buckets = new Map<string, BucketState>();
  #forced: ForceRule[] = [];

  constructor(globalPerSecond: number) {
    this.globalPerSecond = globalPerSecond;
  }

  force(matcher: RouteMatcher, options: Force429Options): () => void {
    const rule: ForceRule = {
      matches: toPredicate(matcher),
      left: options.count,
      retryAfterMs: options.retryAfterMs,
      global: options.global ?? false,
      blockedUntil: 0,
    };
    this.#forced.push(rule);
    return () => {
      rule.left = 0;
      rule.blockedUntil = 0;
    };
  }

  check(req: LimitedRequest, now: number): Decision {
    if (req.countsGlobal && now < this.#globalBlockedUntil) {
      return this.#reject(req, now, 'global', this.#globalBlockedUntil, true);
    }
    for (const rule of this.#forced) {
      if (now < rule.blockedUntil && (rule.global ? req.countsGlobal : rule.matches(req))) {
        return this.#reject(req, now, 'forced', rule.blockedUntil, true, rule.global);
      }
    }
    const key = req.bucket === undefined ? undefined : `${req.bucket}:${req.major ?? 'global'}`;
    const state = key === undefined ? undefined : this.#buckets.get(key);
    if (state && now < state.blockedUntil) {
      return this.#reject(req, now, 'bucket', state.blockedUntil, true);
    }
    this.#forced = this.#forced.filter((rule) => rule.left > 0 || now < rule.blockedUntil);
    for (const rule of this.#forced) {
      if (rule.left > 0 && rule.matches(req)) {
        rule.left -= 1;
        rule.blockedUntil = now + rule.retryAfterMs;
        if (rule.global) this.#globalBlockedUntil = Math.max(this.#globalBlockedUntil, rule.blockedUntil);
        return this.#reject(req, now, 'forced', rule.blockedUntil, false, rule.global);
      }
    }
    if (req.countsGlobal) {
      if (now >= this.#globalWindowEnd) {
        this.#globalWindowEnd = now + 1000;
        this.#globalCount = 0;
      }
      if (this.#globalCount >= this.globalPerSecond) {
        this.#globalBlockedUntil = this.#globalWindowEnd;
        return this.#reject(req, now, 'global', this.#globalWindowEnd, false);
      }
      this.#globalCount += 1;
    }
    if (key === undefined || req.spec === undefined || req.bucket === undefined) return { ok: true, headers: {} };
    let bucket = state;
    if (!bucket) {
      bucket = { resetAt: 0, remaining: 0, blockedUntil: 0 };
      this.#buckets.set(key, bucket);
    }
    if (now >= bucket.resetAt) {
      bucket.resetAt = now + req.spec.windowMs;
      bucket.remaining = req.spec.limit;
    }
    if (bucket.remaining <= 0) {
      bucket.blockedUntil = bucket.resetAt;
      return this.#reject(req, now, 'bucket', bucket.resetAt, false);
    }
    bucket.remaining -= 1;
    return { ok: true, headers: this.#bucketHeaders(req, bucket.remaining, bucket.resetAt, now) };
  }

  #bucketHeaders(req: LimitedRequest, remaining: number, resetAt: number, now: number): Record<string, string> {
    if (req.bucket === undefined || req.spec === undefined) return {};
    return {
      'X-RateLimit-Limit': String(req.spec.limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(resetAt / 1000),
      'X-RateLimit-Reset-After': seconds(resetAt - now),
      'X-RateLimit-Bucket': bucketHash(req.bucket),
    };
  }

  #reject(
    req: LimitedRequest,
    now: number,
    scope: RateLimitScope,
    until: number,
    violation: boolean,
    forcedGlobal = false,
  ): Decision {
    if (violation) {
      this.violations.push({
        method: req.method,
        path: req.path,
        route: req.route,
        at: now,
        scope,
        windowEndsAt: until,
      });
    }
    const isGlobal = scope === 'global' || forcedGlobal;
    const retryAfter = seconds(until - now);
    const headers: Record<string, string> = isGlobal
      ? { 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' }
      : { ...this.#bucketHeaders(req, 0, until, now), 'X-RateLimit-Scope': 'user' };
    headers['Retry-After'] = retryAfter;
    return {
      ok: false,
      headers,
      body: { message: 'You are being rate limited.', retry_after: Number(retryAfter), global: isGlobal, code: 0 },
    };
  }
}
