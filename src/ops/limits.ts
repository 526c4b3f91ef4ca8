/**
 * Limits shared by the bot's two HTTP servers (the Telegram webhook and the
 * ops endpoints), so neither can be held open by people who connect and
 * never finish a request.
 *
 * Node's own `server.maxConnections` refuses the newest connection once full,
 * which lets a flood of half-open sockets lock out every genuine caller until
 * they time out. Here a new connection instead pushes out the oldest one that
 * has no request in progress (still sending headers, or idle between
 * keep-alive requests): a real caller, whose request arrives at once, gets in,
 * and the number of open sockets stays bounded whatever the flood.
 *
 * On a server whose requests prove who sent them (a signature over the body,
 * a secret header), a request in progress that has not proved it yet is next
 * in line after the idle ones: 280 connections trickling a body one byte a
 * second would otherwise hold every slot as "busy" and lock genuine callers out.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ServerLimits {
  /** Open connections at most; past this the oldest one without a request in progress is closed. */
  readonly maxConnections: number;
  /** Time to send the request headers, from connecting. */
  readonly headersTimeoutMs: number;
  /** Time to send the whole request (headers and body). */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMs: number;
  /** Requests on one keep-alive connection before it is closed. */
  readonly maxRequestsPerSocket: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxConnections: 256,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 100,
};

export interface GuardOptions {
  /**
   * Requests start unverified (evictable, after idle connections) until the
   * handler calls `verified()`; without it every request in progress is kept.
   */
  readonly verifies?: boolean;
}

/** The handler's third argument: the request has proved who sent it and keeps its connection. */
export type Verified = () => void;

export interface GuardedServer {
  readonly server: Server;
  /** Connections closed to make room (or refused when every slot was busy). */
  readonly shed: () => number;
  /**
   * Stops listening and closes every connection without a request in progress
   * (Node's close() would wait for a half-open one forever: it also stops the
   * timeout checks); requests in progress finish first.
   */
  close(): Promise<void>;
}

export function createGuardedServer(
  handler: (req: IncomingMessage, res: ServerResponse, verified: Verified) => void,
  limits: Partial<ServerLimits> = {},
  opts: GuardOptions = {},
): GuardedServer {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const server = createServer({
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    // Node checks the two timeouts above only this often (30 s by default): expired sockets linger that long.
    connectionsCheckingInterval: Math.min(1_000, l.headersTimeoutMs),
  });
  server.maxRequestsPerSocket = l.maxRequestsPerSocket;
  // Insertion order is age: the first idle entry is the oldest one.
  const open = new Map<Socket, { busy: number; unverified: number }>();
  let shed = 0;
  /** The oldest idle connection, else the oldest whose requests in progress are all unverified. */
  function victim(): Socket | undefined {
    let second: Socket | undefined;
    for (const [s, st] of open) {
      if (st.busy === 0) return s;
      if (!second && st.busy === st.unverified) second = s;
    }
    return second;
  }
  server.on('connection', (socket: Socket) => {
    if (open.size >= l.maxConnections) {
      const v = victim();
      shed++;
      if (!v) return void socket.destroy();
      open.delete(v);
      v.destroy();
    }
    open.set(socket, { busy: 0, unverified: 0 });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const st = open.get(req.socket);
    let pending = opts.verifies === true;
    const verified: Verified = () => {
      if (!pending) return;
      pending = false;
      if (st) st.unverified--;
    };
    if (st) {
      st.busy++;
      if (pending) st.unverified++;
      res.once('close', () => {
        verified();
        st.busy--;
        // Idle again: it joins the end of the line, behind older idle sockets.
        if (st.busy === 0 && open.delete(req.socket)) open.set(req.socket, st);
      });
    }
    handler(req, res, verified);
  });
  return {
    server,
    shed: () => shed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const [socket, st] of open) if (st.busy === 0) socket.destroy();
      }),
  };
}
