/**
 * The pages' HTTP server: Hono's Node adapter inside the operator's guarded
 * server (ops/limits.ts: bounded connections, the oldest idle one pushed out by
 * a new one, header and request deadlines), with the body rule of the bot's
 * public entry points (ops/body.ts) at its strictest: the pages take no body at
 * all, so a request that brings one is refused before a byte of it is read.
 */
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createGuardedServer, type ServerLimits } from '../ops/limits.ts';
import { refuseAndClose } from '../ops/body.ts';
import { createSite, type Site } from './site.ts';
import type { WebDeps } from './context.ts';

export interface WebServer {
  readonly port: number;
  /** The address pages and previews are built from: WEB_URL, else this server's local address. */
  readonly url: string;
  readonly site: Site;
  /** Connections closed to make room (ops/limits.ts). */
  shed(): number;
  close(): Promise<void>;
}

/** Connections at once: pages are small and answered at once, so a few hundred visitors share these. */
export const WEB_LIMITS: Partial<ServerLimits> = {
  maxConnections: 512,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
};

export async function startWebServer(
  d: WebDeps & {
    readonly host: string;
    readonly port: number;
    /** WEB_URL; absent: http://<host>:<port> of this server. */
    readonly url?: string;
    /** A taken port falls back to a free one (the console's default port). */
    readonly fallbackPort?: boolean;
    readonly limits?: Partial<ServerLimits>;
    readonly onRefused?: (reason: string) => void;
  },
): Promise<WebServer> {
  let base = d.url ?? '';
  const site = createSite({ ...d, baseUrl: () => base });
  // Globals left alone: the rest of the bot (undici, discord.js) keeps the platform's Request and Response.
  const listener = getRequestListener(site.fetch, { overrideGlobalObjects: false });
  const guarded = createGuardedServer(
    (req, res) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        d.onRefused?.('method');
        return refuseAndClose(res, 405, '', 'text/plain');
      }
      const length = req.headers['content-length'];
      if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined) {
        d.onRefused?.('too_large');
        return refuseAndClose(res, 413, '', 'text/plain');
      }
      void listener(req, res);
    },
    { ...WEB_LIMITS, ...d.limits },
  );
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      guarded.server.once('error', reject);
      guarded.server.listen(port, d.host, () => {
        guarded.server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(d.port);
  } catch (err) {
    if (!(d.fallbackPort && (err as NodeJS.ErrnoException).code === 'EADDRINUSE')) throw err;
    await listen(0);
  }
  const port = (guarded.server.address() as AddressInfo).port;
  const host = d.host.includes(':') ? `[${d.host}]` : d.host === '0.0.0.0' ? '127.0.0.1' : d.host;
  base ||= `http://${host}:${port}`;
  return { port, url: base, site, shed: guarded.shed, close: guarded.close };
}
