/**
 * The HTTP connections grammY talks to the Bot API over. A kept-alive
 * connection is closed by the server after its idle timeout; a request written
 * on it at that moment is lost without an answer, and as the Bot API has no
 * idempotency key, a send lost that way could not be resent without risking a
 * double post. So no request is written where the server may already have
 * closed:
 *   - an idle connection is closed by us first: after IDLE_MS, or one second
 *     before the server's own `Keep-Alive: timeout=N` when it says one
 *     (grammY's default agent keeps idle sockets for ever: Node honours the
 *     hint only when the agent has a timeout of its own);
 *   - a kept-alive connection is checked for the server's close before a
 *     request is written on it: a close already received (but not yet read by
 *     a busy event loop) takes the connection out, and the request goes on a
 *     new one, nothing written.
 * A connection that fails after the request was written is not resent: that
 * send may have been posted (sender.ts marks it uncertain).
 */
import { Agent as HttpAgent, type AgentOptions, type ClientRequest } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/** Below the shortest idle timeout common servers keep (Node's 5 s; nginx 75 s) when the server names none. */
export const IDLE_MS = 4_000;

/** The agent's internal entry point for each request (not in Node's typings). */
interface RequestQueue {
  addRequest(req: ClientRequest, options: Parameters<HttpAgent['getName']>[0]): void;
}

/** A keep-alive agent for `apiRoot` (http or https) that never writes on a connection the server closed. */
export function botApiAgent(apiRoot: string, idleMs = IDLE_MS): HttpAgent {
  // `timeout` is the idle timeout of a kept socket (a request in flight is not cut by it); the server's hint lowers it.
  const options: AgentOptions = { keepAlive: true, timeout: idleMs };
  const agent = apiRoot.startsWith('https:') ? new HttpsAgent(options) : new HttpAgent(options);
  const queue = agent as unknown as RequestQueue;
  const add = queue.addRequest.bind(agent);
  queue.addRequest = (req, o) => {
    if (!agent.freeSockets[agent.getName(o)]?.length) return add(req, o);
    // Two turns of the event loop put one poll for I/O between here and the write: a close the server
    // sent is read there, and Node drops that socket from the free list before it is handed out.
    setImmediate(() => setImmediate(() => add(req, o)));
  };
  return agent;
}

/** System error codes of a request that never reached a server: nothing was connected, so nothing was posted. */
const NOT_CONNECTED: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** The code of the first error in `err`'s cause chain that names one (grammY's HttpError -> node-fetch's error). */
export function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { error?: unknown; cause?: unknown }).error ?? (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A network failure before any connection was made (refused, no such host): resending cannot post twice. */
export function neverConnected(err: unknown): string | undefined {
  const code = codeOf(err);
  return code !== undefined && NOT_CONNECTED.has(code) ? code : undefined;
}
