// Kept-alive connections as a server ends them. Off by default (Node's own server: idle connections end after 5 s,
// said in `Keep-Alive: timeout=5`). With `keepAlive`, an idle connection ends after `idleMs` silently, as a proxy
// or NAT whose idle timeout ran out does, or as a server's close crossing the client's next request: the client
// learns of it only when it writes, and that request is never read (the socket is reset). Made deterministic here:
// every request on a connection idle for `idleMs` or longer meets the close.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface KeepAliveOptions {
  /** Real milliseconds an idle connection lives. */
  idleMs: number;
  /** Announce it as `Keep-Alive: timeout=<whole seconds>`, as Node's servers do (nginx by default does not). */
  hint?: boolean;
}

export class Connections {
  /** Open connections -> since when each is idle (undefined: a request is open, or none came yet). */
  private readonly open = new Map<Socket, { idleSince: number | undefined }>();
  /** Requests that came on a connection the server had ended: never read, never answered. */
  closedOnReuse = 0;

  private readonly keepAlive: KeepAliveOptions | undefined;

  constructor(server: Server, keepAlive: KeepAliveOptions | undefined) {
    this.keepAlive = keepAlive;
    server.on('connection', (socket: Socket) => {
      this.open.set(socket, { idleSince: undefined });
      socket.on('close', () => this.open.delete(socket));
    });
    // The close happens on the next request (admit), not on Node's own timer.
    if (keepAlive) server.keepAliveTimeout = 0;
  }

  /** False: the request came on a connection already ended; it is reset unread. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const c = this.open.get(req.socket);
    if (!c) return true;
    if (this.keepAlive && c.idleSince !== undefined && performance.now() - c.idleSince >= this.keepAlive.idleMs) {
      this.closedOnReuse++;
      req.socket.destroy();
      return false;
    }
    c.idleSince = undefined;
    res.on('finish', () => {
      c.idleSince = performance.now();
    });
    if (this.keepAlive?.hint) res.setHeader('keep-alive', `timeout=${Math.floor(this.keepAlive.idleMs / 1000)}`);
    return true;
  }

  /** Each open connection's idle time in ms (undefined while it carries a request or has carried none). */
  idleTimes(): (number | undefined)[] {
    const now = performance.now();
    return [...this.open.values()].map((c) => (c.idleSince === undefined ? undefined : now - c.idleSince));
  }
}
