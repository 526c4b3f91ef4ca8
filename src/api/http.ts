import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Agent, request, type Dispatcher } from 'undici';
import {
  ApiAbortedError,
  ApiError,
  ApiBadRequestError,
  ApiNotFoundError,
  ApiSchemaError,
  ApiUnauthorizedError,
  ApiUnavailableError,
  type UnavailableKind,
} from './errors.ts';
import { parseJsonLossless } from './json.ts';
import type { LoggerLike } from './logger.ts';
import type { OperationName } from './names.ts';
import { backoffMs, parseRetryAfter, type RetryPolicy } from './retry.ts';

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

// undici waits 300 s by default; a chat reply cannot.
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 3_000, headersMs: 5_000, bodyMs: 5_000 };

/** Largest response body read (compressed and decompressed); a bigger one is refused unread. */
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface TransportConfig {
  baseUrl: string;
  /** Response body cap in bytes, before and after decompression. */
  maxBodyBytes: number;
  apiKey: string;
  dispatcher?: Dispatcher | undefined;
  timeouts: Timeouts;
  retry: RetryPolicy;
  logger?: LoggerLike | undefined;
  /** Waits between attempts (rejects when `signal` aborts); tests pass one that records the wait instead of timing it. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<unknown>) | undefined;
  /** Removes the API key from any upstream text before it reaches an error or a log. */
  scrub: (text: string) => string;
}

export interface CallStats {
  attempts: number;
  status: number | undefined;
  /** This call's own cap on attempts, below the policy's. */
  maxAttempts?: number;
}

export interface Transport {
  /** GETs pathAndQuery, retrying transient failures until `deadline` (epoch ms); returns parsed JSON. */
  get(
    operation: OperationName,
    pathAndQuery: string,
    signal: AbortSignal,
    deadline: number,
    stats: CallStats,
  ): Promise<unknown>;
  close(): Promise<void>;
}

type Failure = { kind: UnavailableKind; status?: number; retryAfterMs?: number; cause?: unknown };
type Outcome = { ok: true; body: unknown } | ({ ok: false } & Failure);

/** Abort reasons of an attempt, told apart from the caller's own abort. */
class BudgetElapsed extends Error {}
// undici's own headers/body timers fire on a ~1 s grid, too coarse for sub-second limits,
// so each attempt also runs its own timers.
class AttemptTimedOut extends Error {}
// maxOutputLength stops a small compressed body from inflating past the cap (a zip bomb).
type Decoder = (b: Buffer, o: { maxOutputLength: number }) => Promise<Buffer>;
const decoders: Record<string, Decoder> = {
  gzip: promisify(gunzip) as Decoder,
  'x-gzip': promisify(gunzip) as Decoder,
  deflate: promisify(inflate) as Decoder,
  br: promisify(brotliDecompress) as Decoder,
};

/** Thrown inside an attempt; never retried (the same request would bring the same body). */
function tooLarge(operation: OperationName, stats: CallStats): ApiUnavailableError {
  return new ApiUnavailableError(operation, 'too_large', {
    attempts: stats.attempts,
    budgetExhausted: false,
    ...(stats.status === undefined ? {} : { status: stats.status }),
  });
}

export function createTransport(config: TransportConfig): Transport {
  const ownsDispatcher = config.dispatcher === undefined;
  const dispatcher: Dispatcher =
    config.dispatcher ??
    new Agent({
      connect: { timeout: config.timeouts.connectMs },
      headersTimeout: config.timeouts.headersMs,
      bodyTimeout: config.timeouts.bodyMs,
      keepAliveTimeout: 10_000,
      connections: 32,
    });
  const headers = {
    'x-api-key': config.apiKey,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': 'kolradar-api-client',
  };

  async function readUpstreamMessage(body: Dispatcher.ResponseData['body']): Promise<string> {
    let text: string;
    try {
      // Only the first 300 characters are kept: an error body is read no further than 64 KB.
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= 65_536) {
          body.destroy();
          break;
        }
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch {
      return '';
    }
    let message: unknown = text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) message = parsed.message;
      else if (parsed && typeof parsed === 'object' && 'error' in parsed) message = parsed.error;
    } catch {
      // Not JSON: the raw text is the best description there is.
    }
    const flat = Array.isArray(message) ? message.map(String).join('; ') : typeof message === 'string' ? message : '';
    return config.scrub(flat.trim()).slice(0, 300);
  }

  /** The body, read only up to the cap: never buffered without bound. */
  async function readCapped(operation: OperationName, res: Dispatcher.ResponseData, stats: CallStats): Promise<Buffer> {
    const max = config.maxBodyBytes;
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      res.body.destroy();
      throw tooLarge(operation, stats);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > max) {
        res.body.destroy();
        throw tooLarge(operation, stats);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks, size);
  }

  async function decodeJson(
    operation: OperationName,
    res: Dispatcher.ResponseData,
    stats: CallStats,
  ): Promise<unknown> {
    let raw: Buffer = await readCapped(operation, res, stats);
    const encoding = String(res.headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase();
    const decode = decoders[encoding];
    if (encoding && encoding !== 'identity') {
      if (!decode) throw new ApiSchemaError(operation, '(body)', `unsupported content-encoding ${encoding}`);
      try {
        raw = await decode(raw, { maxOutputLength: config.maxBodyBytes });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
          throw tooLarge(operation, stats);
        throw new ApiSchemaError(operation, '(body)', `body is not valid ${encoding}`);
      }
    }
    try {
      return parseJsonLossless(raw.toString('utf8'));
    } catch {
      throw new ApiSchemaError(operation, '(body)', 'response is not valid JSON');
    }
  }

  async function attempt(
    operation: OperationName,
    url: string,
    signal: AbortSignal,
    deadline: number,
    stats: CallStats,
  ): Promise<Outcome> {
    const remaining = deadline - Date.now();
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(new BudgetElapsed('time budget elapsed')), remaining);
    let phaseTimer = setTimeout(() => ctl.abort(new AttemptTimedOut('attempt timed out')), config.timeouts.headersMs);
    const forward = () => ctl.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    try {
      const res = await request(url, {
        method: 'GET',
        headers,
        dispatcher,
        signal: ctl.signal,
        headersTimeout: Math.max(1, Math.min(config.timeouts.headersMs, remaining)),
        bodyTimeout: config.timeouts.bodyMs,
      });
      clearTimeout(phaseTimer);
      phaseTimer = setTimeout(() => ctl.abort(new AttemptTimedOut('attempt timed out')), config.timeouts.bodyMs);
      const status = res.statusCode;
      stats.status = status;
      if (status >= 200 && status < 300) return { ok: true, body: await decodeJson(operation, res, stats) };
      const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      if (status === 429 || status >= 500 || status === 408) {
        await res.body.dump().catch(() => undefined);
        const kind: UnavailableKind = status === 429 ? 'rate_limited' : status === 408 ? 'timeout' : 'server_error';
        return { ok: false, kind, status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
      }
      if (status === 401 || status === 403) {
        await res.body.dump().catch(() => undefined);
        throw new ApiUnauthorizedError(operation, status);
      }
      if (status === 404) throw new ApiNotFoundError(operation, await readUpstreamMessage(res.body));
      if (status >= 400) throw new ApiBadRequestError(operation, status, await readUpstreamMessage(res.body));
      await res.body.dump().catch(() => undefined);
      throw new ApiUnavailableError(operation, 'unexpected_status', {
        attempts: stats.attempts,
        budgetExhausted: false,
        status,
      });
    } catch (err) {
      if (signal.aborted) throw new ApiAbortedError(operation, signal.reason);
      if (ctl.signal.reason instanceof BudgetElapsed) {
        throw new ApiUnavailableError(operation, 'timeout', {
          attempts: stats.attempts,
          budgetExhausted: true,
          cause: err,
        });
      }
      if (err instanceof ApiError) throw err;
      const timedOut = isTimeout(err) || ctl.signal.reason instanceof AttemptTimedOut;
      return { ok: false, kind: timedOut ? 'timeout' : 'network', cause: err };
    } finally {
      clearTimeout(timer);
      clearTimeout(phaseTimer);
      signal.removeEventListener('abort', forward);
    }
  }

  return {
    async get(operation, pathAndQuery, signal, deadline, stats) {
      const url = config.baseUrl + pathAndQuery;
      for (;;) {
        if (signal.aborted) throw new ApiAbortedError(operation, signal.reason);
        stats.attempts += 1;
        const outcome = await attempt(operation, url, signal, deadline, stats);
        if (outcome.ok) return outcome.body;
        const { kind, status, retryAfterMs, cause } = outcome;
        const details = {
          attempts: stats.attempts,
          ...(status === undefined ? {} : { status }),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          cause,
        };
        if (stats.attempts >= Math.min(config.retry.attempts, stats.maxAttempts ?? Infinity)) {
          throw new ApiUnavailableError(operation, kind, { ...details, budgetExhausted: false });
        }
        const waitMs = retryAfterMs ?? backoffMs(stats.attempts, config.retry);
        if (Date.now() + waitMs >= deadline) {
          throw new ApiUnavailableError(operation, kind, { ...details, budgetExhausted: true });
        }
        config.logger?.warn?.(
          { operation, attempt: stats.attempts, kind, status, waitMs },
          'upstream call failed; retrying',
        );
        try {
          await (config.sleep ?? defaultSleep)(waitMs, signal);
        } catch {
          throw new ApiAbortedError(operation, signal.reason);
        }
      }
    },
    async close() {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}

const defaultSleep = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal });

function isTimeout(err: unknown): boolean {
  const code = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}
