/**
 * Health and metrics over HTTP (`HTTP_PORT`): /healthz says the process is
 * alive, /readyz whether it can do its job (store reachable, every enabled
 * platform connected, and which role it has in the watcher lease), /metrics
 * the Prometheus series. The server starts before anything else, so that while
 * start-up waits (for the store) /readyz says what it waits for.
 */
import type { AddressInfo } from 'node:net';
import { createGuardedServer, type ServerLimits } from './limits.ts';

export interface ReadyChecks {
  store(): Promise<boolean>;
  /** Which store, credentials left out: "redis at 127.0.0.1:6379". */
  readonly storeName: string;
  /** While start-up is not done: what it waits for and why; undefined once running. */
  waiting?(): string | undefined;
  platforms(): Record<string, boolean>;
  lease(): string;
  /** Why the alert watcher is blind (runs, reads no feed), or undefined: a blind watcher is not ready. */
  feed?(): string | undefined;
  /** Single-holder roles this instance has now (shards, Telegram poller); shown when given. */
  roles?(): Record<string, unknown>;
}

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startOpsServer(o: {
  port: number;
  /** Default 127.0.0.1: a scraper on another machine needs HTTP_HOST set on purpose. */
  host?: string;
  limits?: Partial<ServerLimits>;
  /** `health`: given /readyz's verdict before each /metrics render, for the ready and store gauges. */
  metrics: { render(): string; health?(ready: boolean, store: boolean): void };
  checks: ReadyChecks;
}): Promise<OpsServer> {
  const check = async () => {
    const waiting = o.checks.waiting?.();
    const store = await o.checks.store().catch(() => false);
    const platforms = o.checks.platforms();
    const blind = o.checks.feed?.();
    const ready = waiting === undefined && store && Object.values(platforms).every(Boolean) && blind === undefined;
    return { waiting, store, platforms, ready, blind };
  };
  const { server, close } = createGuardedServer(
    (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const send = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
        res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(body);
      };
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
      if (path === '/healthz') return send(200, 'ok\n');
      if (path === '/metrics') {
        void (async () => {
          if (o.metrics.health) {
            const { ready, store } = await check();
            o.metrics.health(ready, store);
          }
          send(200, o.metrics.render(), 'text/plain; version=0.0.4; charset=utf-8');
        })();
        return;
      }
      if (path === '/readyz') {
        void (async () => {
          const { waiting, store, platforms, ready, blind } = await check();
          const roles = o.checks.roles ? { roles: o.checks.roles() } : {};
          const body = {
            ready,
            store,
            storeName: o.checks.storeName,
            platforms,
            watcher: o.checks.lease(),
            ...roles,
            ...(waiting === undefined ? {} : { waiting }),
            ...(blind === undefined ? {} : { feed: blind }),
          };
          send(ready ? 200 : 503, `${JSON.stringify(body)}\n`, 'application/json');
        })();
        return;
      }
      send(404, 'not found\n');
    },
    { maxConnections: 64, ...o.limits },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close,
  };
}
