import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { DEFAULT_TTL_MS, SingleFlight, TtlCache } from './cache.ts';
import { decodeResult } from './decode.ts';
import { ApiAbortedError, ApiError, ApiUnavailableError, ApiValidationError } from './errors.ts';
import { createTransport, DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUTS, type CallStats } from './http.ts';
import { errorFields } from '../log.ts';
import type { LoggerLike } from './logger.ts';
import type { OperationName } from './names.ts';
import { OPERATIONS, serializeQuery, type OperationDef } from './operations.ts';
import type * as P from './params/index.ts';
import { validateParams } from './params/index.ts';
import { DEFAULT_RETRY } from './retry.ts';
import type * as R from './schemas/index.ts';

export interface CallOptions {
  signal?: AbortSignal;
  /** Total time this call may take, retries and waits included. */
  budgetMs?: number;
  /**
   * 'only': the cached answer or a refusal (ApiUnavailableError, 0 attempts), never a request: a
   * public web page reads the figures the bot already has and costs the upstream nothing.
   */
  cache?: 'use' | 'bypass' | 'only';
  /**
   * Most attempts for this call (at most the client's own): 1 for a caller that
   * paces and backs off itself, so each request it counts is one request sent.
   */
  attempts?: number;
  /** The caller reports failures itself (once, not per call): they are logged at debug. */
  quiet?: boolean;
  /** false: a request of its own, not joined to an identical one in flight (a hedge against a slow answer). */
  share?: boolean;
}

export interface CallEvent {
  operation: OperationName;
  ms: number;
  outcome: 'ok' | 'cache' | 'error';
  status?: number;
  attempts: number;
}

export interface KolClientOptions {
  baseUrl: string;
  apiKey: string;
  dispatcher?: Dispatcher;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Largest response body accepted, in bytes (compressed and decompressed); default 5 MB. */
  maxBodyBytes?: number;
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  defaultBudgetMs?: number;
  /** false turns caching off; single-flight stays on. */
  cacheTtlMs?: Partial<Record<OperationName, number>> | false;
  /** Entries kept per operation before the least recently used is dropped. */
  cacheMaxEntries?: number;
  onCall?: (e: CallEvent) => void;
  logger?: LoggerLike;
  /** Waits between attempts (a backoff or a Retry-After); default a timer. Tests pass one that records the wait. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
}

type Method<PI, RO> = (params: PI, opts?: CallOptions) => Promise<RO>;

export interface KolClient {
  getTokenMindmap: Method<P.TokenMindmapParams, R.MindmapGraph>;
  getTokenAnalytics: Method<P.TokenAnalyticsParams, R.TokenAnalyticsResult>;
  getKolProjects: Method<P.KolProjectsParams, R.KolProjectsResult>;
  getKolTokens: Method<P.KolTokensParams, R.KolTokensResult>;
  getKolWinRates: Method<P.KolWinRatesParams, R.WinRatesResult>;
  getKolScore: Method<P.KolScoreParams, R.KolScore>;
  getTweetsByToken: Method<P.TweetsByTokenParams, R.TweetsByTokenResult>;
  getTweets: Method<P.TweetsParams, R.TweetsResult>;
  getKolTable: Method<P.KolTableParams, R.KolTableResult>;
  getKolMindmap: Method<P.KolMindmapParams, R.KolMindmapResult>;
  /** Drops every cached response. */
  clearCache(): void;
  close(): Promise<void>;
}

export const DEFAULT_BUDGET_MS = 10_000;

export function createKolClient(o: KolClientOptions): KolClient {
  const baseUrl = normalizeBaseUrl(o.baseUrl);
  if (typeof o.apiKey !== 'string' || o.apiKey.length === 0) throw new TypeError('createKolClient: apiKey is required');
  const apiKey = o.apiKey;
  const scrub = (text: string) => text.split(apiKey).join('[redacted]');
  const transport = createTransport({
    baseUrl,
    apiKey,
    maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    dispatcher: o.dispatcher,
    timeouts: {
      connectMs: o.timeouts?.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
      headersMs: o.timeouts?.headersMs ?? DEFAULT_TIMEOUTS.headersMs,
      bodyMs: o.timeouts?.bodyMs ?? DEFAULT_TIMEOUTS.bodyMs,
    },
    retry: {
      attempts: Math.max(1, o.retry?.attempts ?? DEFAULT_RETRY.attempts),
      baseDelayMs: o.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: o.retry?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    },
    logger: o.logger,
    sleep: o.sleep,
    scrub,
  });
  const defaultBudgetMs = o.defaultBudgetMs ?? DEFAULT_BUDGET_MS;
  const maxEntries = o.cacheMaxEntries ?? 200;
  const clearers: (() => void)[] = [];

  function report(e: CallEvent, err?: unknown, quiet = false): void {
    try {
      o.onCall?.(e);
    } catch {
      // An observer's bug must not turn a good answer into a failure.
    }
    if (err === undefined) o.logger?.debug?.({ ...e }, 'upstream call');
    else if (err instanceof ApiValidationError || err instanceof ApiAbortedError)
      o.logger?.debug?.({ ...e, err: errorFields(err) }, 'upstream call not completed');
    else if (quiet) o.logger?.debug?.({ ...e, err: errorFields(err) }, 'upstream call failed');
    else o.logger?.warn?.({ ...e, err: errorFields(err) }, 'upstream call failed');
  }

  function bind<PS extends z.ZodType<Record<string, unknown>>, RS extends z.ZodType>(def: OperationDef<PS, RS>) {
    type Out = z.output<RS>;
    const cache = new TtlCache<Out>(maxEntries);
    const flights = new SingleFlight<Out>();
    let unshared = 0;
    clearers.push(() => cache.clear());
    const ttlMs = o.cacheTtlMs === false ? 0 : (o.cacheTtlMs?.[def.name] ?? DEFAULT_TTL_MS[def.name]);

    async function fetchParsed(target: string, signal: AbortSignal, deadline: number, stats: CallStats): Promise<Out> {
      const json = await transport.get(def.name, target, signal, deadline, stats);
      const data = decodeResult(def.name, def.result, json, (rows) =>
        o.logger?.warn?.(
          { operation: def.name, rows: rows.map((r) => `${r.path}: ${r.message}`) },
          'list rows could not be read; the rest is shown',
        ),
      );
      // This object stays private to the cache and the flight; every caller gets a copy.
      cache.set(target, data, ttlMs);
      return data;
    }

    return async (params: z.input<PS>, opts: CallOptions = {}): Promise<Out> => {
      const started = performance.now();
      const stats: CallStats = {
        attempts: 0,
        status: undefined,
        ...(opts.attempts !== undefined ? { maxAttempts: opts.attempts } : {}),
      };
      const elapsed = () => Math.round(performance.now() - started);
      let leader = false;
      try {
        if (opts.signal?.aborted) throw new ApiAbortedError(def.name, opts.signal.reason);
        const budgetMs = opts.budgetMs ?? defaultBudgetMs;
        if (!Number.isFinite(budgetMs) || budgetMs <= 0) {
          throw new ApiValidationError(def.name, 'budgetMs', 'must be a positive number of milliseconds');
        }
        const valid = validateParams(def.name, def.params, params);
        const query = serializeQuery(valid, def.pathKeys);
        const target = def.path(valid) + (query ? `?${query}` : '');
        if (opts.cache !== 'bypass') {
          const hit = cache.get(target);
          if (hit !== undefined) {
            report({ operation: def.name, ms: elapsed(), outcome: 'cache', attempts: 0 });
            return structuredClone(hit);
          }
        }
        if (opts.cache === 'only')
          throw new ApiUnavailableError(def.name, 'network', { attempts: 0, budgetExhausted: false });
        const deadline = Date.now() + budgetMs;
        const run = flights.run(
          opts.share === false ? `${target}#${++unshared}` : target,
          (signal) => fetchParsed(target, signal, deadline, stats),
          {
            signal: opts.signal,
            // The leader's transport enforces the budget with a precise cause; this is a backstop.
            timeoutMs: budgetMs + 25,
            onAbort: (reason) => new ApiAbortedError(def.name, reason),
            onTimeout: () => new ApiUnavailableError(def.name, 'timeout', { attempts: 0, budgetExhausted: true }),
          },
        );
        leader = run.leader;
        const value = structuredClone(await run.promise);
        if (leader) {
          report({
            operation: def.name,
            ms: elapsed(),
            outcome: 'ok',
            attempts: stats.attempts,
            ...statusOf(stats.status),
          });
        } else {
          report({ operation: def.name, ms: elapsed(), outcome: 'cache', attempts: 0 });
        }
        return value;
      } catch (err) {
        // A cache-only miss is no upstream call: nothing to count or log.
        if (opts.cache === 'only' && err instanceof ApiUnavailableError && stats.attempts === 0) throw err;
        const status = err instanceof ApiError && err.status !== undefined ? err.status : stats.status;
        report(
          { operation: def.name, ms: elapsed(), outcome: 'error', attempts: stats.attempts, ...statusOf(status) },
          err,
          opts.quiet,
        );
        throw err;
      }
    };
  }

  return {
    getTokenMindmap: bind(OPERATIONS.tokenMindmap),
    getTokenAnalytics: bind(OPERATIONS.tokenAnalytics),
    getKolProjects: bind(OPERATIONS.kolProjects),
    getKolTokens: bind(OPERATIONS.kolTokens),
    getKolWinRates: bind(OPERATIONS.kolWinRates),
    getKolScore: bind(OPERATIONS.kolScore),
    getTweetsByToken: bind(OPERATIONS.tweetsByToken),
    getTweets: bind(OPERATIONS.tweets),
    getKolTable: bind(OPERATIONS.kolTable),
    getKolMindmap: bind(OPERATIONS.kolMindmap),
    clearCache: () => {
      for (const c of clearers) c();
    },
    close: () => transport.close(),
  };
}

function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError('createKolClient: baseUrl is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError('createKolClient: baseUrl must be http or https');
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError('createKolClient: baseUrl must not carry credentials, a query or a fragment');
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function statusOf(status: number | undefined): { status?: number } {
  return status === undefined ? {} : { status };
}
