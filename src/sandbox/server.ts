// The sandbox upstream: a node:http server implementing the ten operations of the analytics API spec.
import { setTimeout as sleep } from 'node:timers/promises';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ctx } from './ctx.ts';
import { DEFAULT_SEED, generateStore } from './data.ts';
import { type FaultKind, FaultState, type Faults } from './faults.ts';
import { LiveFeed } from './live.ts';
import { MarketWalk } from './market.ts';
import { HttpError, Params, type QueryMap, parseQuery } from './params.ts';
import { type Operation, matchRoute, operationName } from './router.ts';
import type { Store } from './store.ts';
import type { SandboxData, SandboxTweet, TweetSeed } from './types.ts';
import type { AuthorShape } from './views-tweet.ts';

export type { Faults, FaultKind } from './faults.ts';
export type { Operation } from './router.ts';
export { OPERATIONS } from './router.ts';
export type { AuthorShape } from './views-tweet.ts';
export type { ChainId, SandboxData, SandboxKol, SandboxToken, SandboxTweet, Shill, TweetSeed } from './types.ts';

export interface SandboxOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  seed?: number;
  /** New tweets per second, each visible `indexDelayMs` after its tweet time (default 0). */
  live?: { tweetsPerSecond: number; indexDelayMs?: number } | false;
  faults?: Faults;
  /** Anchor of the seeded timestamps (ms); fix it to get byte-identical data across runs. Default: start time. */
  now?: number;
  /** Most request records kept (oldest dropped first); counters stay exact. Default 100,000. */
  maxLog?: number;
  /**
   * Authors in the tweet feed (op 8): `full` (default; a share of the timed live
   * feed is still minimal), `minimal` (id and username only, as lean as the spec
   * allows) or `mix` (every other tweet minimal).
   */
  authors?: AuthorShape;
  /**
   * Market caps move over time (a seeded random walk with pumps and rugs); on by
   * default with a live feed. `clock` drives the walk (tests move it by hours);
   * default the wall clock.
   */
  market?: { stepMs?: number; clock?: () => number } | false;
}

export interface RequestRecord {
  operation: Operation | 'unknown';
  method: string;
  /** Path as received, still percent-encoded. */
  path: string;
  /** Query string as received, without the '?'. */
  rawQuery: string;
  /** Every value of every key, in order. */
  query: QueryMap;
  /** Whether an x-api-key header was sent (its value is never kept). */
  hasKey: boolean;
  /** HTTP status answered; 0 while pending or for a hang. */
  status: number;
  /** Injected fault that shaped the answer, if any. */
  fault?: FaultKind;
  /**
   * Order of arrival and of completion on one logical clock (no wall time):
   * two requests overlapped iff each started before the other finished.
   * `finished` is 0 while the request is open.
   */
  started: number;
  finished: number;
  /** Arrival time (epoch ms). */
  at: number;
  /** Server time from arrival to the answer, in ms (includes injected latency); 0 while pending. */
  ms: number;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  apiKey: string;
  data: SandboxData;
  setFaults(f: Faults): void;
  clearFaults(): void;
  addTweets(n: number, overrides?: Partial<TweetSeed>): SandboxTweet[];
  /** Starts, changes or stops (false) the steady stream of new tweets (and sets their indexing delay). */
  setLive(live: { tweetsPerSecond: number; indexDelayMs?: number } | false): void;
  /** Changes how feed authors are served from the next request on. */
  setAuthors(shape: AuthorShape): void;
  requests: RequestRecord[];
  count(operation?: string): number;
  /** Requests received and not yet answered (or closed), now. */
  readonly inFlight: number;
  /** The most requests in flight at once since the start or the last resetRequests(): proof of parallel calls without a clock. */
  readonly maxInFlight: number;
  resetRequests(): void;
  close(): Promise<void>;
}

function errorBody(status: number): string {
  const phrase = STATUS_CODES[status] ?? 'Error';
  return JSON.stringify({ statusCode: status, message: phrase, error: phrase });
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
  type = 'application/json; charset=utf-8',
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const apiKey = opts.apiKey ?? 'sandbox-key';
  const seed = opts.seed ?? DEFAULT_SEED;
  const maxLog = opts.maxLog ?? 100_000;
  const store: Store = generateStore({ seed, ...(opts.now !== undefined ? { now: opts.now } : {}) });
  let authors: AuthorShape = opts.authors ?? 'full';
  const ctx: Ctx = { store, now: () => Date.now(), authors: () => authors };
  const faults = new FaultState(seed);
  if (opts.faults) faults.set(opts.faults);
  const live = new LiveFeed(store, seed, ctx.now);
  const marketOpts = opts.market ?? (opts.live ? {} : false);
  const marketClock = (marketOpts === false ? undefined : marketOpts.clock) ?? Date.now;
  const walk = marketOpts
    ? new MarketWalk(
        store.data.tokens,
        seed,
        marketClock(),
        marketOpts.stepMs !== undefined ? { stepMs: marketOpts.stepMs } : {},
      )
    : undefined;
  const requests: RequestRecord[] = [];
  const counters = new Map<string, number>();
  let total = 0;
  /** Aborted at close: requests waiting out a latency fault end at once. */
  const closing = new AbortController();
  let inFlight = 0;
  let maxInFlight = 0;
  let tick = 0;
  const hanging = new Set<ServerResponse>();
  let closed = false;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const t0 = performance.now();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const started = ++tick;
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    const rawQuery = qi < 0 ? '' : url.slice(qi + 1);
    const route = matchRoute(path);
    const method = req.method ?? 'GET';
    const rec: RequestRecord = {
      operation: route?.operation ?? 'unknown',
      method,
      path,
      rawQuery,
      query: parseQuery(rawQuery),
      hasKey: req.headers['x-api-key'] !== undefined,
      status: 0,
      started,
      finished: 0,
      at: Date.now(),
      ms: 0,
    };
    res.once('close', () => {
      inFlight--;
      rec.finished = ++tick;
    });
    if (requests.length >= maxLog) requests.splice(0, Math.ceil(maxLog / 10));
    requests.push(rec);
    total++;
    counters.set(rec.operation, (counters.get(rec.operation) ?? 0) + 1);
    const reply = (status: number, body: string, headers?: Record<string, string>, type?: string) => {
      rec.status = status;
      send(res, status, body, headers, type);
      rec.ms = performance.now() - t0;
    };

    if (faults.applies(route?.operation)) {
      const delay = faults.delayMs();
      if (delay > 0) {
        rec.fault = 'latency';
        await sleep(delay, undefined, { signal: closing.signal }).catch(() => {});
        if (closed) return;
      }
      const pre = faults.before();
      if (pre?.kind === 'hang') {
        rec.fault = 'hang';
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (pre) {
        rec.fault = pre.kind;
        // A gateway in front of the API answers 502 with an HTML page, not the API's JSON.
        if (pre.status === 502)
          return reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {}, 'text/html');
        return reply(pre.status, errorBody(pre.status), pre.headers);
      }
    }

    if (!route || (method !== 'GET' && method !== 'HEAD')) return reply(404, errorBody(404));
    const key = req.headers['x-api-key'];
    if (key !== apiKey) return reply(401, errorBody(401));
    let body: string;
    try {
      walk?.advance(marketClock());
      body = JSON.stringify(route.run(ctx, new Params(rec.query)));
    } catch (e) {
      if (e instanceof HttpError) return reply(e.status, errorBody(e.status), { 'x-sandbox-reason': e.message });
      return reply(500, errorBody(500));
    }
    if (faults.applies(route.operation)) {
      const bad = faults.after(body);
      if (bad) {
        rec.fault = bad.kind;
        body = bad.body;
      }
    }
    reply(200, body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, errorBody(500)));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  if (opts.live) {
    live.indexDelayMs = opts.live.indexDelayMs ?? 0;
    live.start(opts.live.tweetsPerSecond);
  }

  return {
    url: `http://${host}:${addr.port}`,
    apiKey,
    data: store.data,
    setFaults: (f) => faults.set(f),
    clearFaults: () => faults.clear(),
    addTweets: (n, overrides) => live.add(n, overrides),
    setLive: (l) => {
      if (!l) return live.stop();
      live.indexDelayMs = l.indexDelayMs ?? live.indexDelayMs;
      live.start(l.tweetsPerSecond);
    },
    setAuthors: (shape) => {
      authors = shape;
    },
    requests,
    count: (operation) =>
      operation === undefined ? total : (counters.get(operationName(operation) ?? operation) ?? 0),
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    resetRequests: () => {
      requests.length = 0;
      counters.clear();
      total = 0;
      maxInFlight = inFlight;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      live.stop();
      closing.abort();
      for (const res of hanging) res.destroy();
      hanging.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}
