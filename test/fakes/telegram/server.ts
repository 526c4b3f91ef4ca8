// The HTTP face of the fake: `POST /bot<token>/<method>`, answered the way the
// Bot API answers (HTTP status = error_code), with injected failures and flood
// control applied before the method runs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { decodeRequest, readBody } from './body.ts';
import { Connections, type KeepAliveOptions } from './connections.ts';
import { botMethods } from './bot-methods.ts';
import { chatIdOf, type Handler, type MethodContext } from './context.ts';
import { ApiError, notFound, unauthorized } from './errors.ts';
import { messageMethods, SEND_METHODS } from './messages.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { FakeState } from './state.ts';
import type { RequestLogEntry } from './types.ts';
import type { UpdateQueue } from './updates.ts';

export interface ServerDeps {
  token: string;
  state: FakeState;
  updates: UpdateQueue;
  limiter: RateLimiter;
  now: () => number;
  knownChatsOnly: boolean;
  log: RequestLogEntry[];
  /** Exceptions thrown by the fake itself (bugs), answered as 500. */
  internalErrors: unknown[];
  /** Set by createFakeServer: the connections and how idle ones end. */
  connections?: Connections;
}

const handlers = new Map<string, Handler>(
  Object.entries({ ...botMethods, ...messageMethods }).map(([name, h]) => [name.toLowerCase(), h]),
);

/** A request body that broke off: the client went away, which is not a bug in the fake. */
const CLIENT_GONE = Symbol('client gone');

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // A request on a connection the server had ended never reaches the Bot API.
  if (deps.connections && !deps.connections.admit(req, res)) return;
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const route = /^\/bot([^/]+)\/([A-Za-z]+)\/?$/.exec(url.pathname);
  const entry: RequestLogEntry = {
    method: route?.[2] ?? '',
    chat_id: undefined,
    status: 0,
    description: undefined,
    time: deps.now(),
  };
  deps.log.push(entry);
  const closed = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) closed.abort();
  });
  const drop = (): void => {
    entry.status = 0;
    entry.description = 'connection dropped';
    req.socket.destroy();
  };
  try {
    const body = await readBody(req).catch((err: unknown) => {
      throw err instanceof ApiError ? err : CLIENT_GONE;
    });
    if (!route) throw notFound();
    // Compared after reading the body so a wrong token never leaves a half-read request behind.
    if (route[1] !== deps.token) throw unauthorized();
    const handler = handlers.get(entry.method.toLowerCase());
    if (!handler) throw notFound();
    const { params, files } = decodeRequest(req.headers['content-type'], url.searchParams, body);
    let dropAfter = false;
    let paidPending = false;
    if (params.chat_id !== undefined) {
      entry.chat_id =
        typeof params.chat_id === 'number' || typeof params.chat_id === 'string' ? params.chat_id : undefined;
      const chatId = chatIdOf(deps.state, params.chat_id);
      entry.chat_id = chatId;
      const failure = deps.state.takeFailure(chatId);
      if (failure === 'drop') return drop();
      if (failure === 'drop_after_send') dropAfter = true;
      else if (failure !== undefined) throw deps.state.failureError(chatId, failure);
      if (SEND_METHODS.has(entry.method.toLowerCase())) {
        if (params.allow_paid_broadcast === true || params.allow_paid_broadcast === 'true') entry.paid = true;
        const limited = deps.limiter.check(entry.method, chatId, entry.paid === true);
        if (limited) throw limited;
        paidPending = entry.paid === true;
      }
    }
    const ctx: MethodContext = {
      params,
      files,
      state: deps.state,
      updates: deps.updates,
      now: deps.now,
      closed: closed.signal,
      knownChatsOnly: deps.knownChatsOnly,
    };
    let result: unknown;
    let posted = false;
    try {
      result = await handler(ctx);
      posted = true;
    } finally {
      // Charged once the message is posted (a message the handler refuses costs nothing).
      if (paidPending) deps.limiter.settlePaid(posted);
    }
    if (dropAfter) return drop();
    if (closed.signal.aborted) {
      entry.description = 'client closed the connection';
      return;
    }
    entry.status = 200;
    reply(res, 200, { ok: true, result });
  } catch (err) {
    if (err === CLIENT_GONE || closed.signal.aborted) {
      entry.description = 'client closed the connection';
      return;
    }
    const apiError = err instanceof ApiError ? err : new ApiError(500, 'Internal Server Error');
    if (!(err instanceof ApiError)) deps.internalErrors.push(err);
    entry.description = apiError.description;
    entry.status = apiError.code;
    reply(res, apiError.code, apiError.toJSON());
  }
}

export function createFakeServer(deps: ServerDeps, keepAlive?: KeepAliveOptions): Server {
  const server = createServer((req, res) => {
    void handle(deps, req, res);
  });
  deps.connections = new Connections(server, keepAlive);
  // Long polls may be held for as long as the client asks.
  server.requestTimeout = 0;
  server.headersTimeout = 10_000;
  return server;
}
